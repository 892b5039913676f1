//! A value given under a name field: the name says what it is, the value stands apart —
//! a Kubernetes container's `- name: DB_PASSWORD` and, on the next line, `value: …`;
//! Envoy's `key: x-svc-auth` then `value: …`; ECS and CloudFormation's
//! `{"name": "API_TOKEN", "value": "…"}`; the AWS CLI's `Name=DB_PASS,Value=…`.

use std::sync::OnceLock;

use regex::Regex;

use super::layout::{hidden, secret_name};
use super::near::{looks_secret, spoken};

/// How many lines after its name a value may come (YAML puts it on the next).
const REACH_LINES: usize = 2;

/// A name field and the name it gives.
fn name_field() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?i)(?:^|[\s{,\[(-])["']?(?:name|key|header|header_?name|variable|parameter_?name)["']?\s*[:=]\s*["']?(?P<n>[A-Za-z0-9_.-]+)"#,
        )
        .expect("a valid pattern")
    })
}

/// A value field and its value (quoted whole, or up to a separator).
fn value_field() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?i)(?:^|[\s{,(-])["']?value["']?\s*[:=]\s*(?P<v>"[^"\n]*"|'[^'\n]*'|[^\s,}\])"']+)"#,
        )
        .expect("a valid pattern")
    })
}

/// The name as `hidden` judges values under it, when it names a secret: a secret's name
/// (`DB_PASSWORD`, `apiSecret`), or one that ends in a word a secret's header or
/// variable ends in (`x-svc-auth`, `STRIPE_KEY`) when the value looks random too.
fn secret_under(name: &str, value: &str) -> bool {
    let bare = value.trim_matches(['"', '\'']);
    if let Some(snake) = secret_name(name) {
        return hidden(&snake, bare);
    }
    let said = spoken(&crate::text::split_camel(name));
    let last = said.split_whitespace().next_back().unwrap_or("");
    matches!(last, "key" | "auth" | "pass" | "pwd" | "pw")
        && looks_secret(bare)
        && hidden(&said.replace(' ', "_"), bare)
}

/// Replaces every value given under a name field that names a secret; `None` when none.
pub fn named_values(text: &str, lower: &str) -> Option<String> {
    if !lower.contains("value") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    // The secret name still waiting for its value, and for how many more lines.
    let mut waiting: Option<(String, usize)> = None;
    for line in text.split_inclusive('\n') {
        let named = name_field().captures(line).and_then(|c| c.name("n"));
        let (name, from) = match (named, waiting.take()) {
            (Some(n), _) => (n.as_str().to_string(), n.end()),
            // On a later line the value field opens it (`value: …`, `- value: …`).
            (None, Some((name, left))) => {
                let opens = line
                    .trim_start()
                    .trim_start_matches("- ")
                    .trim_start_matches(['"', '\''])
                    .get(..5)
                    .is_some_and(|w| w.eq_ignore_ascii_case("value"));
                if !opens {
                    if left > 1 {
                        waiting = Some((name, left - 1));
                    }
                    out.push_str(line);
                    continue;
                }
                (name, 0)
            }
            (None, None) => {
                out.push_str(line);
                continue;
            }
        };
        match value_field()
            .captures(&line[from..])
            .and_then(|c| c.name("v"))
        {
            Some(v) if secret_under(&name, v.as_str()) => {
                let quoted = v.as_str().starts_with(['"', '\'']) as usize;
                let start = from + v.start() + quoted;
                let end = from + v.end() - quoted;
                out.push_str(&line[..start]);
                out.push_str(super::REDACTED);
                out.push_str(&line[end..]);
                changed = true;
            }
            Some(_) => out.push_str(line),
            None => {
                waiting = Some((name, REACH_LINES));
                out.push_str(line);
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(text: &str) -> String {
        named_values(text, &text.to_lowercase()).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn a_value_under_a_secret_name() {
        assert_eq!(
            redacted("env:\n  - name: DB_PASSWORD\n    value: hunter2xyz\n"),
            "env:\n  - name: DB_PASSWORD\n    value: [REDACTED]\n"
        );
        assert_eq!(
            redacted("- header:\n    key: x-svc-auth\n    value: vCzRBUnPj79BuQTnjd6Ehs\n"),
            "- header:\n    key: x-svc-auth\n    value: [REDACTED]\n"
        );
        assert_eq!(
            redacted(r#"[{"name": "API_TOKEN", "value": "q8Ws2LzP0xRt5vN1"}]"#),
            r#"[{"name": "API_TOKEN", "value": "[REDACTED]"}]"#
        );
        assert_eq!(
            redacted("--overrides Name=STRIPE_KEY,Value=rk9TqW2xZ8vLp4Hs"),
            "--overrides Name=STRIPE_KEY,Value=[REDACTED]"
        );
    }

    #[test]
    fn what_is_no_secret_stays() {
        for text in [
            "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: db, key: pw}\n",
            "env:\n  - name: LOG_LEVEL\n    value: debug-verbose-mode\n",
            "env:\n  - name: TOKEN_TTL\n    value: \"3600\"\n",
            "- name: API_KEY\n  value: ${API_KEY}\n",
            "- name: CACHE_KEY\n  value: deps-linux-abc123\n",
            "{\"name\": \"password_min_length\", \"value\": \"12\"}",
            "- name: DB_PASSWORD\n- name: OTHER\n  value: not-the-password-here\n",
        ] {
            assert_eq!(redacted(text), text);
        }
    }
}
