//! The `pattern:` key an observer writes into an instinct or episode so that the same
//! lesson seen again is recognised: one grammar, built and read only here.
//!
//! - `recover:<failure>=><fix>`: a recovery; `<failure>` is the failure's signature, or
//!   `<project>:<program>` when the fix is general (another tool), or `*`; `<fix>` is
//!   `use:<tool>`, `env:<NAME>`, `flag:<flag>`, `first:<step>`, `prefix:<cmd>`,
//!   `path:<program>`, `arg:<word>` or `absolute-path`;
//! - `rule:<project>:<polarity and words>`, `choice:<project>:<tool>`,
//!   `coedit:<project>:<first file>`, `rejected:<project>:<command>`,
//!   `check:<project>:<command>`, `protocol:<slip>`.

const RECOVER: &str = "recover:";
const FIX: &str = "=>";

/// A recovery's key: the failure and the fix.
pub fn recovery(failure: &str, fix: &str) -> String {
    format!("{RECOVER}{failure}{FIX}{fix}")
}

/// A recovery whose fix is the same everywhere, whatever the project and failure.
pub fn recovery_anywhere(fix: &str) -> String {
    recovery("*", fix)
}

/// A recovery keyed on the project and the failing program rather than the wording of
/// its error (the fix is another tool).
pub fn recovery_in(project: &str, program: &str, fix: &str) -> String {
    recovery(&format!("{project}:{program}"), fix)
}

/// The failure and the fix of a recovery key; `None` for any other key.
pub fn recovery_parts(key: &str) -> Option<(&str, &str)> {
    key.strip_prefix(RECOVER)?.rsplit_once(FIX)
}

pub fn is_recovery(key: &str) -> bool {
    key.starts_with(RECOVER)
}

/// The tool a recovery key says to use (`…=>use:pnpm` → `pnpm`).
pub fn recovery_uses(key: &str) -> Option<&str> {
    recovery_parts(key)?.1.strip_prefix("use:")
}

/// A key of one project: `<kind>:<project>:<what>`.
fn in_project(kind: &str, project: &str, what: &str) -> String {
    format!("{kind}:{project}:{what}")
}

/// The `<what>` of a `<kind>:<project>:<what>` key; `None` for a key of another kind.
fn what_of<'k>(kind: &str, key: &'k str) -> Option<&'k str> {
    key.strip_prefix(kind)?
        .strip_prefix(':')?
        .split_once(':')
        .map(|(_, what)| what)
}

pub fn rule(project: &str, words: &str) -> String {
    in_project("rule", project, words)
}

pub fn choice(project: &str, tool: &str) -> String {
    in_project("choice", project, tool)
}

/// The tool of a choice key (`choice:atlas:pnpm` → `pnpm`).
pub fn choice_tool(key: &str) -> Option<&str> {
    what_of("choice", key)
}

pub fn coedit(project: &str, anchor: &str) -> String {
    in_project("coedit", project, anchor)
}

pub fn rejected(project: &str, command: &str) -> String {
    in_project("rejected", project, command)
}

pub fn check(project: &str, command: &str) -> String {
    in_project("check", project, command)
}

/// The command of a check key (`check:conf:nix flake check` → `nix flake check`).
pub fn check_command(key: &str) -> Option<&str> {
    what_of("check", key)
}

pub fn protocol(slip: &str) -> String {
    format!("protocol:{slip}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_as_built() {
        let k = recovery_in("atlas", "npm", "use:pnpm");
        assert_eq!(k, "recover:atlas:npm=>use:pnpm");
        assert_eq!(recovery_parts(&k), Some(("atlas:npm", "use:pnpm")));
        assert_eq!(recovery_uses(&k), Some("pnpm"));
        // A failure that quotes `=>` keeps it: the fix is after the last one.
        let k = recovery("expected `=>` here", "first:cargo fmt");
        assert_eq!(
            recovery_parts(&k),
            Some(("expected `=>` here", "first:cargo fmt"))
        );
        assert!(is_recovery(&recovery_anywhere("absolute-path")));
        assert_eq!(
            choice_tool(&choice("atlas", "uv run pytest")),
            Some("uv run pytest")
        );
        assert_eq!(recovery_parts(&rule("atlas", "-npm")), None);
        assert_eq!(
            check_command(&check("conf", "nix flake check")),
            Some("nix flake check")
        );
        assert_eq!(check_command(&choice("conf", "pnpm")), None);
        assert_eq!(choice_tool(&check("conf", "pnpm")), None);
    }
}
