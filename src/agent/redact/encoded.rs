//! Secrets inside base64, where no rule sees them: a whole `.env` encoded to fit one CI
//! variable, a Secret's `data`, a Docker config's `auth`. Each long run of base64 (a
//! line's run, or a blob wrapped over lines as `base64` prints it) is decoded; when the
//! bytes are text and redacting that text hides something, the run is hidden.

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
    let mut i = 0;
    while i < bytes.len() {
        if !is_base64(bytes[i]) || (i > 0 && is_base64(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let end = run_end(bytes, i);
        let run = &text[i..end];
        if (MIN_RUN..=MAX_RUN).contains(&run.len())
            && let Some(decoded) = decode(run)
            && redact(&decoded) != decoded
        {
            out.push_str(&text[last..i]);
            out.push_str(super::REDACTED);
            last = end;
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
/// or further when the line was all base64 and long, and the next line goes on with it.
fn run_end(bytes: &[u8], start: usize) -> usize {
    let line_start = bytes[..start]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let whole_line = bytes[line_start..start]
        .iter()
        .all(|b| matches!(b, b' ' | b'\t'));
    let mut end = start;
    loop {
        let from = end;
        while end < bytes.len() && is_base64(bytes[end]) {
            end += 1;
        }
        let line_len = end - from;
        let next_goes_on = whole_line
            && line_len >= MIN_WRAPPED_LINE
            && bytes.get(end) == Some(&b'\n')
            && bytes.get(end + 1).is_some_and(|b| is_base64(*b));
        if !next_goes_on {
            break;
        }
        end += 1;
    }
    while end < bytes.len() && bytes[end] == b'=' && end - start < MAX_RUN + 2 {
        end += 1;
    }
    end
}

/// The text a run of base64 (standard or URL-safe, wrapped or not, padded or not)
/// encodes, when it is text: valid UTF-8, with no control character but line breaks and
/// tabs.
fn decode(run: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(run.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in run.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'\n' | b'=' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    let text = String::from_utf8(bytes).ok()?;
    let is_text = text
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'));
    is_text.then_some(text)
}

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
