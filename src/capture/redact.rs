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
        pattern: r"(?P<k>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^\s/:@]+:[^\s/@]+@",
        replace: "${k}[REDACTED]@",
    },
    Rule {
        prefilter: &[
            "pass",
            "pwd",
            "token",
            "secret",
            "key",
            "auth",
            "credential",
        ],
        pattern: r#"(?i)(?P<k>\b(?:password|passwd|pwd|token|secret|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|auth[_-]?token|accountkey|credentials?)["']?\s*[=:]\s*)(?:"[^"\n]*"|'[^'\n]*'|[^\s&;,'"]+)"#,
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
        pattern: r#"(?P<k>\b[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*\s*=\s*)(?:"[^"\n]*"|'[^'\n]*'|[^\s;&]+)"#,
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
        if let Cow::Owned(replaced) = re.replace_all(&out, rule.replace) {
            out = Cow::Owned(replaced);
        }
    }
    out
}

#[cfg(test)]
mod tests;
