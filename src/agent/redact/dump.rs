//! Secrets inside a hex dump (`hexdump -C`, `xxd`), where a token is cut into rows of
//! sixteen bytes and no rule sees it whole: the dump's bytes are read back, redacted as
//! text, and the rows that held what was redacted are hidden.

use std::sync::OnceLock;

use regex::Regex;

/// A dump row: its offset, its bytes in hex, and the printable column.
fn row() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // hexdump -C: `00000020  67 68 70 5f …  |ghp_…|`; xxd: `00000020: 6768 705f …  ghp_…`.
        Regex::new(
            r"^(?P<offset>[0-9a-f]{7,8}):?(?P<hex>(?:\s{1,2}[0-9a-f]{2}(?:[0-9a-f]{2})?){1,16})\s",
        )
        .expect("a valid pattern")
    })
}

/// Replaces the rows of a hex dump whose bytes hold a secret; `None` when none.
/// `redact` is the whole redaction, applied to the bytes read back as text.
pub fn in_hex_dumps(text: &str, redact: impl Fn(&str) -> String) -> Option<String> {
    if !text.contains("00000000") {
        return None;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Each row: its line's index, its offset column, and its bytes' range in the dump.
    let mut rows: Vec<(usize, &str, std::ops::Range<usize>)> = Vec::new();
    let mut bytes: Vec<u8> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(caps) = row().captures(line) else {
            continue;
        };
        let hex: String = caps["hex"].split_whitespace().collect();
        let start = bytes.len();
        for pair in hex.as_bytes().chunks(2) {
            let pair = std::str::from_utf8(pair).unwrap_or("");
            if let Ok(b) = u8::from_str_radix(pair, 16) {
                bytes.push(b);
            }
        }
        let offset = caps.name("offset").map_or("", |m| m.as_str());
        rows.push((i, offset, start..bytes.len()));
    }
    if rows.len() < 2 {
        return None;
    }
    let decoded = String::from_utf8_lossy(&bytes).into_owned();
    let redacted = redact(&decoded);
    if redacted == decoded {
        return None;
    }
    // What changed lies between the common start and the common end of the two texts.
    let prefix = common(decoded.bytes(), redacted.bytes());
    let suffix = common(decoded.bytes().rev(), redacted.bytes().rev()).min(decoded.len() - prefix);
    let changed = prefix..decoded.len() - suffix;
    // The offset column of each line whose row held what changed.
    let mut hidden: Vec<Option<&str>> = vec![None; lines.len()];
    for (i, offset, range) in &rows {
        if range.start < changed.end && changed.start < range.end {
            hidden[*i] = Some(offset);
        }
    }
    let mut out = String::with_capacity(text.len());
    for (line, hidden) in lines.iter().zip(hidden) {
        if let Some(offset) = hidden {
            out.push_str(offset);
            out.push_str("  ");
            out.push_str(super::REDACTED);
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    Some(out)
}

fn common(a: impl Iterator<Item = u8>, b: impl Iterator<Item = u8>) -> usize {
    a.zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::in_hex_dumps;

    #[test]
    fn a_token_cut_into_rows_is_hidden_with_its_rows_only() {
        let dump = "\
00000000  23 20 63 69 0a 47 49 54  48 55 42 5f 54 4f 4b 45  |# ci.GITHUB_TOKE|
00000010  4e 3d 67 68 70 5f 79 58  7a 71 41 53 73 6e 45 73  |N=ghp_yXzqASsnEs|
00000020  32 46 6c 61 75 6c 34 76  4b 72 72 47 6e 46 46 78  |2Flaul4vKrrGnFFx|
00000030  32 6a 57 74 5a 77 64 4c  76 75 0a 4c 4f 47 3d 31  |2jWtZwdLvu.LOG=1|
00000040  0a                                                |.|
00000041
";
        let out =
            in_hex_dumps(dump, |t| crate::agent::redact::redact(t).into_owned()).expect("redacted");
        assert!(!out.contains("yXzq") && !out.contains("79 58"), "{out}");
        assert!(
            out.starts_with("00000000  23 20"),
            "the first row holds no secret: {out}"
        );
        assert!(out.contains("00000040  0a"), "{out}");
    }

    #[test]
    fn a_dump_of_nothing_secret_is_left_alone() {
        let dump = "00000000: 6865 6c6c 6f20 776f 726c 640a 6865 6c6c  hello world.hell\n00000010: 6f0a                                     o.\n";
        assert_eq!(
            in_hex_dumps(dump, |t| crate::agent::redact::redact(t).into_owned()),
            None
        );
    }
}
