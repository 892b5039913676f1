//! Secrets inside base64, where no rule sees them: a whole `.env` encoded to fit one CI
//! variable, a Secret's `data`, a Docker config's `auth`. Each long run of base64 (a
//! line's run, or a blob wrapped over lines as `base64` prints it) is decoded; when the
//! bytes are text and redacting that text hides something, the run is hidden.

use base64::Engine;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// The shortest run decoded: 30 bytes, a `user:password` or a short `.env`.
const MIN_RUN: usize = 40;
/// The longest run decoded: a bundle of configuration, not an image.
const MAX_RUN: usize = 64 * 1024;
/// The shortest line of a wrapped blob that the next line continues (`base64` wraps at
/// 76, PEM bodies at 64).
const MIN_WRAPPED_LINE: usize = 60;

/// Replaces every base64 run whose decoded text holds a secret; `None` when none.
/// `redact` is the whole redaction, applied to the decoded text.
pub fn in_base64(text: &str, redact: impl Fn(&str) -> String) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut line_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            line_start = i + 1;
        }
        if !is_base64(bytes[i]) || (i > 0 && is_base64(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let whole_line = bytes[line_start..i]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'));
        // A short last line may be the blob's end or the next line's word ("Done"):
        // the lines joined are read first, then the first line alone.
        let first_line = run_end(bytes, i, false);
        let end = if whole_line {
            run_end(bytes, i, true)
        } else {
            first_line
        };
        let holds_secret = |run: &str| {
            (MIN_RUN..=MAX_RUN).contains(&run.len())
                && decode(run).is_some_and(|decoded| redact(&decoded) != decoded)
        };
        let end = if holds_secret(&text[i..end]) {
            Some(end)
        } else {
            (first_line != end && holds_secret(&text[i..first_line])).then_some(first_line)
        };
        if let Some(end) = end {
            out.push_str(&text[last..i]);
            out.push_str(super::REDACTED);
            last = end;
        }
        let end = end.unwrap_or(first_line);
        // A wrapped run spans lines: the line it ends on starts after its last break.
        if let Some(n) = bytes[i..end].iter().rposition(|b| *b == b'\n') {
            line_start = i + n + 1;
        }
        i = end.max(i + 1);
    }
    (last > 0).then(|| {
        out.push_str(&text[last..]);
        out
    })
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
}

/// Where the run that starts at `start` ends, with its padding: at the end of its line,
/// or further when it fills a long line of its own (`whole_line`) and the next line is
/// all base64 too (`base64` wraps at 76, `\n` or `\r\n`).
fn run_end(bytes: &[u8], start: usize, whole_line: bool) -> usize {
    let mut end = start;
    loop {
        let from = end;
        while end < bytes.len() && is_base64(bytes[end]) {
            end += 1;
        }
        let line_break = match (bytes.get(end), bytes.get(end + 1)) {
            (Some(b'\n'), _) => 1,
            (Some(b'\r'), Some(b'\n')) => 2,
            _ => 0,
        };
        let next = end + line_break;
        let goes_on = whole_line
            && end - from >= MIN_WRAPPED_LINE
            && line_break > 0
            && line_is_base64(&bytes[next..]);
        if !goes_on {
            break;
        }
        end = next;
    }
    while end < bytes.len() && bytes[end] == b'=' && end - start < MAX_RUN + 2 {
        end += 1;
    }
    end
}

/// Whether the line that `rest` starts with is base64 and nothing else (its padding at
/// the end).
fn line_is_base64(rest: &[u8]) -> bool {
    let line = &rest[..rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len())];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let body = line.iter().rposition(|b| *b != b'=').map_or(0, |i| i + 1);
    body > 0 && line[..body].iter().all(|b| is_base64(*b))
}

/// The text a run of base64 (standard or URL-safe, wrapped or not, padded or not)
/// encodes, when it is text: valid UTF-8, with no control character but line breaks and
/// tabs.
fn decode(run: &str) -> Option<String> {
    // One alphabet for both (URL-safe's `-` and `_` are the standard `+` and `/`), and
    // neither line breaks nor padding; six bits left over make no byte.
    let mut clean: Vec<u8> = run
        .bytes()
        .filter(|b| !matches!(b, b'\n' | b'\r' | b'='))
        .map(|b| match b {
            b'-' => b'+',
            b'_' => b'/',
            b => b,
        })
        .collect();
    if clean.len() % 4 == 1 {
        clean.pop();
    }
    let bytes = LENIENT.decode(&clean).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let is_text = text
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'));
    is_text.then_some(text)
}

/// The standard alphabet, unpadded, its last character's spare bits not checked (a
/// run cut from text need not end where its encoder did).
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

#[cfg(test)]
mod tests {
    use super::{decode, in_base64};

    fn hidden(text: &str) -> Option<String> {
        in_base64(text, |t| crate::agent::redact::redact(t).into_owned())
    }

    #[test]
    fn decodes_standard_and_url_safe_base64() {
        assert_eq!(decode("aGVsbG8gd29ybGQ=").as_deref(), Some("hello world"));
        assert_eq!(decode("Pz8_Pz8-").as_deref(), Some("?????>"));
        // Binary is no text.
        assert_eq!(decode("iVBORw0KGgoAAAANSUhEUgAA"), None);
    }

    #[test]
    fn an_encoded_env_with_a_secret_is_hidden() {
        // DATABASE_URL=postgres://shop:Zo8U5yG9x8hDKA@db.internal:5432/shop
        let blob = "REFUQUJBU0VfVVJMPXBvc3RncmVzOi8vc2hvcDpabzhVNXlHOXg4aERLQUBkYi5pbnRlcm5hbDo1NDMyL3Nob3AK";
        let out = hidden(&format!("the secret is:\n\n{blob}\n")).unwrap();
        assert_eq!(out, "the secret is:\n\n[REDACTED]\n");
    }

    #[test]
    fn a_wrapped_blob_is_read_whole() {
        // The same .env, wrapped at 76 as `base64` prints it.
        let blob = "REFUQUJBU0VfVVJMPXBvc3RncmVzOi8vc2hvcDpabzhVNXlHOXg4aERLQUBkYi5pbnRlcm5hbDo1\nNDMyL3Nob3AK";
        let out = hidden(&format!("$ base64 .env\n{blob}\n$ ")).unwrap();
        assert_eq!(out, "$ base64 .env\n[REDACTED]\n$ ");
    }

    #[test]
    fn a_wrapped_blob_ends_where_base64_ends() {
        // 57 bytes encode to exactly 76 characters; the next line is a word, not more of
        // the blob.
        let env = "DATABASE_URL=postgres://shop:Zo8U5yG9x8hDKA@db.int:5432/s";
        assert_eq!(env.len(), 57);
        let blob = "REFUQUJBU0VfVVJMPXBvc3RncmVzOi8vc2hvcDpabzhVNXlHOXg4aERLQUBkYi5pbnQ6NTQzMi9z";
        assert_eq!(decode(blob).as_deref(), Some(env));
        assert_eq!(
            hidden(&format!("{blob}\nDone\n")).unwrap(),
            "[REDACTED]\nDone\n"
        );
        // Windows' line breaks join a wrapped blob too.
        let wrapped = "REFUQUJBU0VfVVJMPXBvc3RncmVzOi8vc2hvcDpabzhVNXlHOXg4aERLQUBkYi5pbnRlcm5hbDo1\r\nNDMyL3Nob3AK\r\n";
        assert_eq!(hidden(wrapped).unwrap(), "[REDACTED]\r\n");
    }

    #[test]
    fn a_long_line_of_words_is_read_once() {
        // Quadratic reading would take minutes here.
        let line = "word ".repeat(400_000);
        assert_eq!(hidden(&line), None);
    }

    #[test]
    fn what_encodes_no_secret_stays() {
        for text in [
            // {"alg":"RS256","kid":"2024-07-rotation","typ":"JWT","use":"sig"}
            "eyJhbGciOiJSUzI1NiIsImtpZCI6IjIwMjQtMDctcm90YXRpb24iLCJ0eXAiOiJKV1QiLCJ1c2UiOiJzaWcifQ",
            // A path is no blob.
            "/usr/local/lib/python3.12/site-packages/homunculus_plugins/__init__.py",
            // A digest.
            "sha512-Vq7Fh3mOb2xE4c9PqJfWnE9cK4S6tZ8yVwQ0fXrL1aGmBdHsTuIoPlKjNhYgFeDcBaZyXwVuTsRqPoNmLkJiHg==",
        ] {
            assert_eq!(hidden(text), None, "{text}");
        }
    }
}
