//! A search hit's one-line excerpt, with the words the query matched kept apart so the
//! caller can mark them (bold on a terminal, brackets in tests).

/// A one-line excerpt with the words the query matched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snippet {
    /// Pieces of text, every other one matched (the first is not).
    pieces: Vec<String>,
}

impl Snippet {
    pub(super) fn new(fragment: &str, ranges: &[std::ops::Range<usize>]) -> Self {
        let mut pieces = Vec::new();
        let mut at = 0;
        for r in ranges {
            pieces.push(one_line(&fragment[at..r.start]));
            pieces.push(one_line(&fragment[r.clone()]));
            at = r.end;
        }
        pieces.push(one_line(&fragment[at..]));
        Self { pieces }
    }

    /// The excerpt without `title` at its start: a body opens with the title the hit
    /// already shows on the line above.
    pub fn after_title(&self, title: &str) -> Snippet {
        let plain: String = self.pieces.concat();
        let lead = plain.len() - plain.trim_start().len();
        let title = title.trim();
        if title.is_empty() || !plain[lead..].starts_with(title) {
            return self.clone();
        }
        // Byte offsets into the pieces joined; the title ends on a character boundary.
        let mut skip = lead + title.len();
        let mut pieces = self.pieces.clone();
        for piece in &mut pieces {
            let n = skip.min(piece.len());
            *piece = piece[n..].to_string();
            skip -= n;
            if skip == 0 {
                break;
            }
        }
        Snippet { pieces }
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.iter().all(String::is_empty)
    }

    /// The excerpt with each matched word passed through `matched`.
    pub fn render(&self, matched: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        // Memory text reaches a terminal: no escape sequence of its own gets through.
        for (n, piece) in self.pieces.iter().enumerate() {
            let piece = crate::text::strip_ansi(piece);
            if n % 2 == 1 {
                if !piece.is_empty() {
                    out.push_str(&matched(&piece));
                }
            } else {
                out.push_str(&piece);
            }
        }
        out.trim().to_string()
    }
}

/// Whitespace runs as one space, heading markers dropped (they say nothing in a
/// one-line snippet); a piece keeps one space at either end where it had any.
fn one_line(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.chars().all(|c| c == '#'))
        .collect();
    if words.is_empty() {
        return if text.is_empty() {
            String::new()
        } else {
            " ".into()
        };
    }
    let lead = if text.starts_with(char::is_whitespace) {
        " "
    } else {
        ""
    };
    let trail = if text.ends_with(char::is_whitespace) {
        " "
    } else {
        ""
    };
    format!("{lead}{}{trail}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_mark_their_matches_on_one_line() {
        let s = Snippet::new("## Use\n\nuse cargo  nextest run", &[12..17, 19..26]);
        assert_eq!(
            s.render(|w| format!("[{w}]")),
            "Use use [cargo] [nextest] run"
        );
        assert_eq!(s.render(str::to_string), "Use use cargo nextest run");
        // The title the hit shows above is not repeated; a match inside it is cut too.
        let s = Snippet::new("# Use nextest\n\nuse cargo nextest run", &[6..13, 25..32]);
        assert_eq!(
            s.after_title("Use nextest").render(|w| format!("[{w}]")),
            "use cargo [nextest] run"
        );
        assert_eq!(
            s.after_title("Other").render(str::to_string),
            "Use nextest use cargo nextest run"
        );
    }
}
