//! The secret half of an HMAC key pair, known by the access key id right before it
//! (`s3('…', 'AKIA…', '<secret>')` in a query log, `gcs(…, 'GOOG1…', '<secret>')`, `mc
//! alias set … AKIA… <secret>`): the secret has no shape of its own, its id has one.
//! Runs before the id itself is redacted.

use std::sync::OnceLock;

use regex::Regex;

use super::near::looks_secret;

/// How many tokens after the id the secret may stand (an option name, a region…).
const NEXT_TOKENS: usize = 3;

/// The lengths of an HMAC secret: AWS's and GCS's are 40 base64 characters.
const SECRET_LEN: std::ops::RangeInclusive<usize> = 30..=80;

/// Replaces the secret that follows an access key id on its line; `None` when none.
pub fn after_key_id(text: &str, lower: &str) -> Option<String> {
    if !["akia", "asia", "goog1"].iter().any(|p| lower.contains(p)) {
        return None;
    }
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"\b(?:(?:AKIA|ASIA)[0-9A-Z]{16}|GOOG1[0-9A-Z]{20,70})\b")
            .expect("a valid pattern")
    });
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for id in re.find_iter(text) {
        if id.start() < last {
            continue;
        }
        let line_end = text[id.end()..]
            .find('\n')
            .map_or(text.len(), |i| id.end() + i);
        let rest = &text[id.end()..line_end];
        let secret = super::pieces(rest, |c| c.is_whitespace() || "'\",;:()[]{}".contains(c))
            .take(NEXT_TOKENS)
            .find(|(_, t)| {
                SECRET_LEN.contains(&t.len())
                    && t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "/+=_-".contains(c))
                    && looks_secret(t)
            });
        if let Some((at, secret)) = secret {
            let at = id.end() + at;
            out.push_str(&text[last..at]);
            out.push_str(super::REDACTED);
            last = at + secret.len();
        }
    }
    (last > 0).then(|| {
        out.push_str(&text[last..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::after_key_id;

    fn run(text: &str) -> Option<String> {
        after_key_id(text, &text.to_ascii_lowercase())
    }

    #[test]
    fn the_secret_after_its_key_id_goes_and_nothing_further() {
        let query = "FROM s3('https://b.s3.amazonaws.com/x/*.csv', 'AKIA2OGYBAH6STMMNXNN', 'wJalrXUtnFEMI/K7MDENGbPxRfiCYzzKEY8ab12c', 'CSVWithNames')";
        let out = run(query).expect("redacted");
        assert!(
            out.contains("'AKIA2OGYBAH6STMMNXNN', '[REDACTED]', 'CSVWithNames'"),
            "{out}"
        );

        let far =
            "AKIA2OGYBAH6STMMNXNN was rotated; see commit 3f2c9a0e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f";
        assert_eq!(run(far), None);
        let next_line = "aws_access_key_id = AKIA2OGYBAH6STMMNXNN\nsha = 3f2c9a0e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f";
        assert_eq!(run(next_line), None);
    }
}
