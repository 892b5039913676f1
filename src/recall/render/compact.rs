//! An episode's story made to fit one line: its commands shortened so that what failed,
//! with what error, and what then passed all survive the line's budget.

use std::borrow::Cow;

/// The most characters of one command kept in a line.
const MAX_COMMAND: usize = 60;

/// `gist` with each command in backticks shortened: a long absolute path to its file's
/// name (`/Users/me/Downloads/clip.png` → `…/clip.png`: the program and the file carry
/// the lesson, the folders rarely do), then the command clipped.
pub(super) fn short_commands(gist: &str) -> Cow<'_, str> {
    if !gist.contains('`') {
        return gist.into();
    }
    let mut out = String::with_capacity(gist.len());
    // Odd pieces of a split at backticks are inside them.
    for (n, piece) in gist.split('`').enumerate() {
        if n > 0 {
            out.push('`');
        }
        if n % 2 == 1 {
            out.push_str(&short(piece));
        } else {
            out.push_str(piece);
        }
    }
    if out == gist { gist.into() } else { out.into() }
}

fn short(command: &str) -> String {
    let words: Vec<String> = command.split(' ').map(short_path).collect();
    let joined = words.join(" ");
    if joined.chars().count() <= MAX_COMMAND {
        return joined;
    }
    let clipped = crate::text::clip_chars(&joined, MAX_COMMAND - 1);
    format!("{}…", clipped.trim_end_matches('…').trim_end())
}

/// An absolute path of three folders or more as `…/` and its last part; quotes kept.
fn short_path(word: &str) -> String {
    let quote = word.starts_with(['"', '\'']).then(|| &word[..1]);
    let bare = word.trim_start_matches(['"', '\'']);
    let absolute = bare.starts_with('/') || bare.starts_with("~/");
    if !absolute || bare.matches('/').count() < 3 || bare.ends_with('/') {
        return word.to_string();
    }
    let last = bare.rsplit('/').next().unwrap_or(bare);
    format!("{}…/{last}", quote.unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::short_commands;

    #[test]
    fn a_long_command_gives_way_to_the_error_and_the_fix() {
        let story = "`for q in 90 80; do ffmpeg -i /Users/me/Downloads/hero-vial.png -quality $q \"/Users/me/Downloads/hero_${q}.webp\" & done` failed with \"Error opening output files: Encoder not found\"; `convert /Users/me/Downloads/hero-vial.png -resize 600x600 -quality 80 /Users/me/Downloads/hero.webp` then passed";
        let short = short_commands(story);
        assert!(short.contains("ffmpeg -i …/hero-vial.png"), "{short}");
        assert!(
            short.contains("`convert …/hero-vial.png -resize 600x600"),
            "{short}"
        );
        assert!(short.contains("Encoder not found"), "{short}");
        assert!(short.ends_with("then passed"), "{short}");
        assert!(
            short.chars().count() < story.chars().count() - 60,
            "{short}"
        );
        // Short commands and relative paths are the lesson itself: kept as written.
        let plain = "`cargo test` failed with \"DATABASE_URL must be set\"; `DATABASE_URL=sqlite::memory: cargo test` then passed";
        assert_eq!(short_commands(plain), plain);
        let relative = "`git add hosts/desktop/default.nix` then passed";
        assert_eq!(short_commands(relative), relative);
    }
}
