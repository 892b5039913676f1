//! Colour for people at a terminal: bold names, highlighted matches, coloured doctor
//! verdicts. Off when stdout is not a terminal or `NO_COLOR` is set (no-color.org), so
//! pipes, files and Claude Code's slash commands get plain text.

use std::io::IsTerminal;

#[derive(Debug, Clone, Copy)]
pub struct Style {
    color: bool,
}

impl Style {
    pub fn for_stdout(no_color: bool) -> Self {
        Self {
            color: !no_color && std::io::stdout().is_terminal(),
        }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn green(self, text: &str) -> String {
        self.paint("32", text)
    }

    pub fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub fn red(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// A matched word in a search snippet.
    pub fn matched(self, text: &str) -> String {
        self.paint("1;33", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_unless_coloured() {
        assert_eq!(Style { color: false }.matched("pnpm"), "pnpm");
        assert_eq!(
            Style { color: true }.matched("pnpm"),
            "\x1b[1;33mpnpm\x1b[0m"
        );
        assert_eq!(Style::for_stdout(true).bold("x"), "x", "NO_COLOR wins");
    }
}
