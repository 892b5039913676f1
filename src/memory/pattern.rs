//! The `pattern:` key an observer writes into an instinct or episode so that the same
//! lesson seen again is recognised: one grammar, built and read only here.
//!
//! - `recover:<failure>=><fix>`: a recovery; `<failure>` is the failure's signature, or
//!   `<project>:<program>` when the fix is general (another tool), or `*`; `<fix>` is
//!   `use:<tool>`, `env:<NAME>`, `flag:<flag>`, `first:<step>`, `prefix:<cmd>`,
//!   `path:<program>`, `arg:<word>` or `absolute-path`;
//! - `rule:<project>:<polarity and words>`, `choice:<project>:<tool>`,
//!   `coedit:<project>:<first file>`, `rejected:<project>:<command>`, `protocol:<slip>`.

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

pub fn rule(project: &str, words: &str) -> String {
    format!("rule:{project}:{words}")
}

pub fn choice(project: &str, tool: &str) -> String {
    format!("choice:{project}:{tool}")
}

/// The tool of a choice key (`choice:atlas:pnpm` → `pnpm`).
pub fn choice_tool(key: &str) -> Option<&str> {
    key.strip_prefix("choice:")?.split_once(':').map(|(_, t)| t)
}

pub fn coedit(project: &str, anchor: &str) -> String {
    format!("coedit:{project}:{anchor}")
}

pub fn rejected(project: &str, command: &str) -> String {
    format!("rejected:{project}:{command}")
}

pub fn check(project: &str, command: &str) -> String {
    format!("check:{project}:{command}")
}

/// The command of a check key (`check:conf:nix flake check` → `nix flake check`).
pub fn check_command(key: &str) -> Option<&str> {
    key.strip_prefix("check:")?.split_once(':').map(|(_, c)| c)
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
    }
}
