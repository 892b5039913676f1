//! Secret redaction: API keys and tokens of the common providers, private key blocks,
//! JWTs, bearer and basic credentials, `password=`/`token=` pairs, secret-named
//! variables and credentials in URLs become `[REDACTED]` before anything is written or
//! indexed. Each rule has cheap literal prefilters, so a text that mentions none of them
//! compiles no regex at all (hooks run on every tool call).

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

pub const REDACTED: &str = "[REDACTED]";

struct Rule {
    /// Lower-case literals; the rule runs only if the lower-cased text contains one.
    prefilter: &'static [&'static str],
    pattern: &'static str,
    /// The replacement; `$k` keeps the named group `k` (the key part of a pair).
    replace: &'static str,
}

/// Whether the value of a `key=value` pair is a secret: not a reference to one
/// (`$VAR`, `${VAR}`, `<placeholder>`) and not a plain count (`max_tokens=4096`).
fn is_secret_value(key: &str, value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    let key = key
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '=' | ':' | '"' | '\''))
        .to_ascii_lowercase();
    // `token_count`, `password_min_length`, `token_url`: about a secret, not one.
    const ABOUT: &[&str] = &[
        "count", "len", "length", "size", "limit", "max", "min", "ttl", "type", "name", "kind",
        "url", "uri", "endpoint", "file", "path", "env", "expiry", "expires", "prompt", "policy",
        "hint", "field", "header", "id",
    ];
    let about = ABOUT.iter().any(|a| {
        key.ends_with(&format!("_{a}"))
            || key.ends_with(&format!("-{a}"))
            || key.ends_with(&format!(".{a}"))
    });
    !(v.is_empty()
        || about
        || v.starts_with(['$', '<', '{'])
        || v.contains('(')
        || v.len() < 12 && v.chars().all(|c| c.is_ascii_digit()))
}

const RULES: &[Rule] = &[
    Rule {
        prefilter: &["-----begin"],
        pattern: r"-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END[A-Z ]*PRIVATE KEY( BLOCK)?-----|\z)",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["akia", "asia"],
        pattern: r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["glpat-"],
        pattern: r"\bglpat-[A-Za-z0-9_-]{20,}",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["sk-", "sk_", "rk_"],
        pattern: r"\b(?:sk-ant-[A-Za-z0-9_-]{20,}|sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,})",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["discord", "webhook.office.com", "hooks.zapier.com"],
        pattern: r"https://(?:(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]+|[A-Za-z0-9.-]*webhook\.office\.com/[^\s]+|hooks\.zapier\.com/hooks/catch/[^\s]+)",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["xox", "hooks.slack.com"],
        pattern: r"\b(?:xox[abprs]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+)",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["aiza"],
        pattern: r"\bAIza[0-9A-Za-z_-]{35}\b",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["npm_", "pypi-", "hf_", "dop_v1_", "sg."],
        pattern: r"\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|hf_[A-Za-z0-9]{30,}|dop_v1_[a-f0-9]{64}|SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})\b",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["eyj"],
        pattern: r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        replace: REDACTED,
    },
    Rule {
        prefilter: &["bearer", "basic", "token "],
        pattern: r"(?i)(?P<k>\b(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{20,}",
        replace: "${k}[REDACTED]",
    },
    Rule {
        prefilter: &["://"],
        pattern: r"(?P<k>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^\s/:@]*:[^\s/@]+@",
        replace: "${k}[REDACTED]@",
    },
    Rule {
        // Any key that names a secret, in any case and separator style, as `key=value`,
        // `key: value`, `"key": "value"` or a header (`X-Api-Key: …`). A value that is a
        // reference (`$VAR`, `${VAR}`, `<placeholder>`) is no secret and stays.
        prefilter: &[
            "pass",
            "pwd",
            "token",
            "secret",
            "key",
            "auth",
            "credential",
        ],
        pattern: r#"(?i)(?P<k>\b[a-z0-9_.-]*(?:password|passwd|passphrase|pwd|token|secret|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|accountkey|credentials?|auth[_-]?token|authorization)(?:[_.-][a-z0-9_.-]*)?["']?\s*[=:]\s*(?:bearer\s+|basic\s+)?)(?P<v>"[^"$<\n][^"\n]*"|'[^'$<\n][^'\n]*'|[^\s&;,'"$<{][^\s&;,'"]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Command-line options that take a secret: `--password X`, `--token=X`,
        // `curl -u user:pass`, `--user user:pass`, mysql's `-pX`.
        prefilter: &[
            "--pass",
            "--token",
            "--secret",
            "--private-key",
            "--access-key",
            "--api-key",
            "--apikey",
            "--auth",
            "--client-secret",
            "curl",
        ],
        pattern: r#"(?P<k>(?:--(?:password|passwd|token|secret|secret-key|private-key|access-key|api-key|apikey|auth-token|client-secret)(?:=|\s+)|(?:\bcurl\b[^\n]*?\s(?:-u|--user)\s+[^\s:]+:)))(?:"[^"\n]*"|'[^'\n]*'|[^\s"'$][^\s]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        prefilter: &["mysql", "mariadb"],
        pattern: r"(?P<k>\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p)[^\s-][^\s]*",
        replace: "${k}[REDACTED]",
    },
    Rule {
        prefilter: &[
            "secret",
            "token",
            "password",
            "passwd",
            "api_key",
            "apikey",
            "access_key",
            "private_key",
        ],
        pattern: r#"(?P<k>\b[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*\s*=\s*)(?P<v>"[^"\n]*"|'[^'\n]*'|[^\s;&]+)"#,
        replace: "${k}[REDACTED]",
    },
];

fn compiled(i: usize) -> &'static Regex {
    static CACHE: [OnceLock<Regex>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    CACHE[i].get_or_init(|| Regex::new(RULES[i].pattern).expect("redaction patterns are valid"))
}

/// Returns `text` with every secret replaced by `[REDACTED]`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut out = Cow::Borrowed(text);
    for (i, rule) in RULES.iter().enumerate() {
        if !rule.prefilter.iter().any(|p| lower.contains(p)) {
            continue;
        }
        let re = compiled(i);
        // Pairs keep references and counts; every other rule replaces what it matches.
        let replaced = if re.capture_names().any(|n| n == Some("v")) {
            re.replace_all(&out, |caps: &regex::Captures| match caps.name("v") {
                Some(v)
                    if !is_secret_value(caps.name("k").map_or("", |k| k.as_str()), v.as_str()) =>
                {
                    caps[0].to_string()
                }
                _ => format!("{}{REDACTED}", caps.name("k").map_or("", |k| k.as_str())),
            })
        } else {
            re.replace_all(&out, rule.replace)
        };
        if let Cow::Owned(replaced) = replaced {
            out = Cow::Owned(replaced);
        }
    }
    out
}

#[cfg(test)]
mod tests;
