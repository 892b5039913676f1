//! The files homunculus writes from templates, embedded at build time so the binary is
//! self-contained: the config, `.gitignore`, and the slash commands.

pub const CONFIG: &str = include_str!("../../templates/config.toml");
pub const GITIGNORE: &str = include_str!("../../templates/gitignore");

/// The slash commands `init` installs into Claude Code's commands folder.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "instinct-status.md",
        include_str!("../../commands/instinct-status.md"),
    ),
    ("evolve.md", include_str!("../../commands/evolve.md")),
    ("feedback.md", include_str!("../../commands/feedback.md")),
];

/// The line that marks a slash command file as ours (safe to update or remove).
pub const COMMAND_MARKER: &str = "# managed by homunculus";

/// Removes the slash commands of ours from `dir` (files carrying the marker; a file a
/// person wrote stays), then `dir` itself if that left it empty. Returns what went.
pub fn remove_commands(
    dir: &std::path::Path,
    dry_run: bool,
) -> Result<Vec<std::path::PathBuf>, crate::fsutil::PathError> {
    let mut removed = Vec::new();
    for (name, _) in COMMANDS {
        let path = dir.join(name);
        let ours = crate::fsutil::read_text(&path).is_ok_and(|t| t.contains(COMMAND_MARKER));
        if ours {
            if !dry_run {
                std::fs::remove_file(&path)
                    .map_err(|e| crate::fsutil::PathError::new("remove", &path, e))?;
            }
            removed.push(path);
        }
    }
    // An empty commands folder is one init made: nothing of the user's is lost.
    if !dry_run {
        let _ = std::fs::remove_dir(dir);
    }
    Ok(removed)
}

/// Fills `{{key}}` placeholders. Values are inserted verbatim: quote YAML beforehand.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(&format!("{{{{{key}}}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Document;

    #[test]
    fn commands_carry_the_marker() {
        for (name, text) in COMMANDS {
            assert!(text.contains(COMMAND_MARKER), "{name}");
            Document::parse(text.to_string())
                .unwrap()
                .mapping()
                .unwrap();
        }
    }

    #[test]
    fn render_fills_every_placeholder() {
        let out = render("a {{x}} b {{y}}", &[("x", "1"), ("y", "2")]);
        assert_eq!(out, "a 1 b 2");
    }
}
