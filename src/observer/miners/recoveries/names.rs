//! How recoveries name and compare commands: a name for people (`nix flake check`,
//! `pnpm exec playwright`), whether two commands are the same program doing the same
//! kind of thing, and the tool a runner runs.

use crate::shell::Command;

/// A command's name for people: its program and verb, the subcommand of a verb that
/// groups them (`nix flake check`), the tool behind a runner (`pnpm exec playwright`).
pub(super) fn name_of(cmd: &Command) -> String {
    let (shape, inner, after, sub) = deep_shape(cmd);
    let mut name = shape;
    for part in [sub, inner, after].into_iter().flatten() {
        if !name.split_whitespace().any(|w| w == part) && is_plain_word(&part) {
            name.push(' ');
            name.push_str(&part);
        }
    }
    name
}

fn is_plain_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 30
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}

/// Whether two commands are the same program doing the same kind of thing (`cp` and
/// `cp`, `git commit` and `git commit`, `pnpm exec playwright test` twice): such a
/// command is a retry, never a step that fixed the other. Behind a runner the tool it
/// runs and that tool's verb count (`playwright install` is a step for `playwright test`).
pub(super) fn same_program(a: &Command, b: &Command) -> bool {
    deep_shape(a) == deep_shape(b)
}

/// A command's shape with the parts that tell kinds of work apart: the subcommand of a
/// grouping verb, the tool behind a runner and its verb.
pub(super) fn deep_shape(c: &Command) -> (String, Option<String>, Option<String>, Option<String>) {
    let inner = inner_tool(c);
    let after_inner = inner.as_ref().and_then(|i| {
        c.args
            .iter()
            .skip_while(|w| !w.ends_with(i.as_str()))
            .skip(1)
            .find(|w| !w.starts_with('-'))
            .cloned()
    });
    // Verbs that group subcommands: `nix flake update` is not `nix flake check`,
    // `npm run build` not `npm run test`.
    const GROUPS: &[&str] = &[
        "flake",
        "compose",
        "submodule",
        "stash",
        "remote",
        "worktree",
        "rollout",
        "config",
        "pr",
        "issue",
        "repo",
        "run",
        "workspace",
        "services",
        "cache",
    ];
    let sub = c
        .verb()
        .filter(|v| GROUPS.contains(v))
        .and_then(|_| c.words().nth(1))
        .map(str::to_string);
    (c.shape(), inner, after_inner, sub)
}

/// Runner prefixes that run another tool: `uv run X`, `poetry run X`, `pnpm exec X`.
pub(super) fn inner_tool(cmd: &Command) -> Option<String> {
    let words: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    let after = |n: usize| {
        words
            .get(n)
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
    };
    // The first word of the value of `flag` (`--run "lspci -v"` → `lspci`).
    let value_of = |flags: &[&str]| {
        words
            .iter()
            .position(|w| flags.contains(w))
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.split_whitespace().next())
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
    };
    match (cmd.tool(), words.first().copied()) {
        // Environments that bring a missing tool along: `nix-shell -p pkg --run "x"`,
        // `nix shell nixpkgs#pkg -c x`, `devbox run x`, `mise exec -- x`.
        ("nix-shell", _) => value_of(&["--run", "--command"]),
        ("nix", Some("shell" | "develop")) => value_of(&["-c", "--command"]),
        ("devbox", Some("run")) => after(1),
        ("mise" | "rtx", Some("exec" | "x")) => value_of(&["--"]),
        ("uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye", Some("run")) => after(1),
        ("pnpm" | "yarn" | "npm" | "bun", Some("exec" | "dlx" | "x")) => after(1),
        ("bundle", Some("exec")) => after(1),
        ("npx" | "bunx" | "pnpx", _) => after(0),
        ("python" | "python3", Some("-m")) => after(1),
        // `go run github.com/x/tool/v2/cmd/tool@v2.1.6`
        ("go", Some("run")) => after(1).map(|t| t.split('@').next().unwrap_or(&t).to_string()),
        _ => None,
    }
}
