//! The Claude Code plugin: a plugin folder's files (manifest, exec-form hooks, slash
//! commands, MCP server), rendered from the same tables as the settings.json
//! registration, so the plugin in the repository and the one `init --plugin` writes
//! cannot drift from each other or from the hooks `init` registers.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::templates;
use crate::agent::hook_event::HookEvent;

/// The plugin's name (its commands are `/homunculus:<name>`, its marketplace entry
/// `homunculus@homunculus`).
pub const NAME: &str = "homunculus";

/// How the plugin's hooks reach the binary.
#[derive(Debug, Clone, Copy)]
pub enum Launch<'a> {
    /// The repository's plugin: through `bin/homunculus-hook`, which runs the
    /// `homunculus` on PATH, or says once how to install it when there is none.
    Launcher,
    /// `init --plugin`: the installed binary's absolute path, called directly.
    Binary(&'a str),
}

impl Launch<'_> {
    fn command(self) -> String {
        match self {
            Launch::Launcher => "${CLAUDE_PLUGIN_ROOT}/bin/homunculus-hook".into(),
            Launch::Binary(bin) => bin.into(),
        }
    }

    /// How the slash commands call the binary.
    fn bin_in_commands(self) -> String {
        match self {
            Launch::Launcher => "homunculus".into(),
            Launch::Binary(bin) => super::settings::shell_quote(bin),
        }
    }
}

/// The launcher the repository's plugin calls: POSIX sh, no other dependency.
pub const LAUNCHER: &str = include_str!("../../plugin/bin/homunculus-hook");

/// Every file of the plugin folder, as (path inside the folder, text). The launcher's
/// executable bit is the caller's to set.
pub fn files(launch: Launch) -> Vec<(String, String)> {
    let mut out = vec![
        (
            ".claude-plugin/plugin.json".to_string(),
            pretty(&manifest()),
        ),
        ("hooks/hooks.json".into(), pretty(&hooks(launch))),
        (".mcp.json".into(), pretty(&mcp(launch))),
    ];
    for (name, template) in templates::COMMANDS {
        let text = templates::render(template, &[("bin", &launch.bin_in_commands())]);
        out.push((format!("commands/{name}"), text));
    }
    if matches!(launch, Launch::Launcher) {
        out.push(("bin/homunculus-hook".into(), LAUNCHER.to_string()));
    }
    out
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON values serialise") + "\n"
}

fn manifest() -> Value {
    json!({
        "name": NAME,
        "version": env!("CARGO_PKG_VERSION"),
        "description": env!("CARGO_PKG_DESCRIPTION"),
        "author": { "name": "homunculus developers" },
        "license": env!("CARGO_PKG_LICENSE"),
        "keywords": ["memory", "hooks", "mcp", "instincts"],
    })
}

/// `hooks/hooks.json`: one exec-form handler per event (`command` + `args`, no shell),
/// with the matchers and timeouts of the settings.json registration.
pub fn hooks(launch: Launch) -> Value {
    let mut events = Map::new();
    for event in HookEvent::ALL {
        let handler = json!({
            "type": "command",
            "command": launch.command(),
            "args": ["hook", event.cli_name()],
            "timeout": event.timeout_secs(),
        });
        let mut group = json!({ "hooks": [handler] });
        if let Some(m) = event.matcher() {
            group["matcher"] = json!(m);
        }
        events.insert(event.wire_name().into(), json!([group]));
    }
    json!({ "description": "homunculus: record, learn and recall", "hooks": events })
}

fn mcp(launch: Launch) -> Value {
    json!({ "mcpServers": { super::mcp::NAME: { "command": launch.command(), "args": ["mcp"] } } })
}

/// What writing a skills-directory plugin did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Installed,
    Updated,
    Unchanged,
}

/// Whether `dir` holds our plugin (its manifest names it), as opposed to a folder of
/// someone else's that happens to have the name.
pub fn is_ours(dir: &Path) -> bool {
    crate::fsutil::read_text(&dir.join(".claude-plugin/plugin.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .is_some_and(|m| m["name"] == NAME && m["author"]["name"] == "homunculus developers")
}

/// Writes the plugin that calls `bin` into `dir` (`init --plugin`). A folder that is
/// not ours is refused, never overwritten.
pub fn install(dir: &Path, bin: &str, dry_run: bool) -> Result<Written, PluginError> {
    let exists = dir.exists();
    if exists && !is_ours(dir) {
        return Err(PluginError::NotOurs(dir.to_path_buf()));
    }
    let mut changed = false;
    for (relative, text) in files(Launch::Binary(bin)) {
        let path = dir.join(relative);
        if crate::fsutil::read_text(&path).is_ok_and(|t| t == text) {
            continue;
        }
        changed = true;
        if !dry_run {
            crate::fsutil::create_private_dir(path.parent().expect("inside the folder"))?;
            crate::fsutil::atomic_write(&path, text.as_bytes())?;
        }
    }
    Ok(match (exists, changed) {
        (false, _) => Written::Installed,
        (true, true) => Written::Updated,
        (true, false) => Written::Unchanged,
    })
}

/// Removes our plugin folder; whether there was one. A folder that is not ours stays.
pub fn remove(dir: &Path, dry_run: bool) -> Result<bool, PluginError> {
    if !dir.exists() || !is_ours(dir) {
        return Ok(false);
    }
    if !dry_run {
        std::fs::remove_dir_all(dir)
            .map_err(|e| crate::fsutil::PathError::new("remove", dir, e))?;
    }
    Ok(true)
}

#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    #[error("{} exists and is not homunculus's plugin; move it away first", .0.display())]
    NotOurs(std::path::PathBuf),
    #[error(transparent)]
    Path(#[from] crate::fsutil::PathError),
}

/// The marketplace entry at the repository root.
pub fn marketplace() -> Value {
    json!({
        "name": NAME,
        "description": "homunculus: a memory for coding agents, in plain markdown files",
        "owner": { "name": "homunculus developers" },
        "plugins": [{
            "name": NAME,
            "source": "./plugin",
            "description": env!("CARGO_PKG_DESCRIPTION"),
            "version": env!("CARGO_PKG_VERSION"),
            "category": "productivity",
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plugin committed in the repository is exactly what this module renders:
    /// change the tables, and this test says to regenerate it (`UPDATE_PLUGIN=1`).
    #[test]
    #[allow(clippy::disallowed_methods)] // a test's own switch, and files of the repository
    fn the_repository_plugin_is_what_the_code_renders() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut wanted = files(Launch::Launcher);
        wanted.push((
            "../.claude-plugin/marketplace.json".into(),
            pretty(&marketplace()),
        ));
        for (relative, text) in wanted {
            let path = root.join("plugin").join(&relative);
            if std::env::var_os("UPDATE_PLUGIN").is_some() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &text).unwrap();
            }
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            assert_eq!(
                on_disk, text,
                "plugin/{relative} is stale: UPDATE_PLUGIN=1 cargo test"
            );
        }
    }

    #[test]
    fn hooks_are_exec_form_for_every_event() {
        let value = hooks(Launch::Binary("/opt/bin/homunculus"));
        for event in HookEvent::ALL {
            let handler = &value["hooks"][event.wire_name()][0]["hooks"][0];
            assert_eq!(handler["command"], "/opt/bin/homunculus");
            assert_eq!(handler["args"], json!(["hook", event.cli_name()]));
        }
    }
}
