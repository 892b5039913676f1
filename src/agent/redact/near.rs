//! Secrets no shape gives away, found by what stands next to them: a long, mixed token
//! a few words after a word for a secret in any language ("Use this key to call the
//! staging API: YUTY…", "mot de passe : 7C~!…", "API密钥是 j6hd…", "API 키는 ce43…",
//! "пароль: …"), the words of a seed phrase, and the values of a Kubernetes Secret's
//! `data`.

/// Words that announce a secret, lower case.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "pass ",
    "api key",
    "apikey",
    "api-key",
    "key",
    "token",
    "secret",
    "credential",
    "auth",
    "login",
    "mot de passe",
    "clé",
    "clef",
    "jeton",
    "passwort",
    "kennwort",
    "schlüssel",
    "contraseña",
    "clave",
    "senha",
    "chave",
    "密码",
    "密钥",
    "口令",
    "令牌",
    "秘钥",
    "パスワード",
    "鍵",
    "トークン",
    "비밀번호",
    "암호",
    "키",
    "토큰",
    "пароль",
    "ключ",
    "токен",
    "секрет",
    "chiave",
    "hasło",
    "klucz",
    "wachtwoord",
    "sleutel",
    "şifre",
    "parola",
    "anahtar",
    "seed",
    "totp",
    "2fa",
    "otp",
    "signing",
    "hmac",
];

/// How far before a token a secret word may stand (characters, same line).
const REACH: usize = 48;

/// Whether a token looks like a secret: long enough, and mixed (three kinds of
/// character), or a long run of hex or base32.
fn looks_secret(token: &str) -> bool {
    let n = token.chars().count();
    let lower = token.chars().any(|c| c.is_ascii_lowercase());
    let upper = token.chars().any(|c| c.is_ascii_uppercase());
    let digit = token.chars().any(|c| c.is_ascii_digit());
    let symbol = token.chars().any(|c| c.is_ascii_punctuation());
    let kinds = [lower, upper, digit, symbol].iter().filter(|k| **k).count();
    let hex = n >= 24 && token.chars().all(|c| c.is_ascii_hexdigit()) && digit;
    let base32 = n >= 16
        && token
            .chars()
            .all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c))
        && digit;
    let plain_word = token
        .chars()
        .all(|c| c.is_alphabetic() || c == '-' || c == '\'');
    // A name that says where a secret is (`process.env.GITHUB_TOKEN`, `os.environ[…]`,
    // `secrets.NPM_TOKEN`, `std::env::var(…)`, `WEBHOOK_SECRET`), not one.
    let env_name = token.contains('_')
        && token
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let reference = ["env", "secrets.", "::", "(", "[", "${"]
        .iter()
        .any(|r| token.contains(r))
        || super::value::is_reference(token);
    // `NAME=<your-key>`, `NAME=$VAR`: an assignment is judged by its value.
    let assigned = super::value::assignment(token).is_some_and(|(_, value)| {
        value.starts_with(['<', '$', '{']) || super::value::is_reference(value)
    });
    !plain_word
        && !env_name
        && !reference
        && !assigned
        && !token.contains("://")
        && !token.starts_with(['/', '~', '.', '$', '<', '{', '['])
        && ((n >= 8 && kinds >= 3) || (n >= 20 && kinds >= 2 && !symbol) || hex || base32)
}

/// Whether the words before a token say its key is no secret: a public key, a cache's
/// key ("Cache restored from key: …"), an idempotency or primary key.
fn says_public(before: &str) -> bool {
    before.contains("public")
        || before.contains("cache")
        || super::value::PUBLIC.iter().any(|p| {
            [" key", "-key", "_key"]
                .iter()
                .any(|k| before.contains(&format!("{p}{k}")))
        })
}

/// Replaces every token that looks like a secret and follows a secret word closely.
pub fn near_words(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    if !SECRET_WORDS.iter().any(|w| lower.contains(w)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let mut last = 0;
        let mut rebuilt = String::with_capacity(line.len());
        for (start, token) in tokens(line) {
            let bare = token.trim_matches(|c: char| {
                matches!(c, '"' | '\'' | ',' | ';' | ')' | '(' | '，' | '。' | '`')
            });
            if !looks_secret(bare) || bare.contains("[REDACTED]") {
                continue;
            }
            let from = line[..start]
                .char_indices()
                .rev()
                .nth(REACH)
                .map_or(0, |(i, _)| i);
            let before = line[from..start].to_lowercase();
            if !SECRET_WORDS.iter().any(|w| before.contains(w)) || says_public(&before) {
                continue;
            }
            let at = start + token.find(bare).unwrap_or(0);
            rebuilt.push_str(&line[last..at]);
            rebuilt.push_str(super::REDACTED);
            last = at + bare.len();
            changed = true;
        }
        rebuilt.push_str(&line[last..]);
        out.push_str(&rebuilt);
    }
    changed.then_some(out)
}

/// The whitespace-separated tokens of a line, with their byte offsets.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace()
        .map(move |t| (t.as_ptr() as usize - line.as_ptr() as usize, t))
}

/// The words of a seed or recovery phrase (twelve or more, lower case) after the words
/// that announce one.
pub fn seed_phrase(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = ["seed phrase", "recovery phrase", "mnemonic", "seed words"]
        .iter()
        .filter_map(|w| lower.find(w).map(|i| i + w.len()))
        .min()?;
    let rest = &text[at..];
    let mut words = 0;
    let mut end = 0;
    let mut started: Option<usize> = None;
    for (i, token) in tokens(rest) {
        let word = token.trim_end_matches([',', '.', '?', '!']);
        let is_word = word.len() >= 3 && word.chars().all(|c| c.is_ascii_lowercase());
        if is_word {
            started.get_or_insert(i);
            words += 1;
            end = i + word.len();
        } else if started.is_some() {
            break;
        }
    }
    let start = started?;
    (words >= 12).then(|| {
        format!(
            "{}{}{}",
            &text[..at + start],
            super::REDACTED,
            &text[at + end..]
        )
    })
}

/// The values under `data:` and `stringData:` of a Kubernetes Secret manifest.
pub fn k8s_secret(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if !lower.contains("kind: secret") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut inside: Option<usize> = None;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if let Some(base) = inside {
            if trimmed.is_empty() || indent > base {
                if let Some((key, value)) = line.split_once(": ")
                    && !value.trim().is_empty()
                {
                    out.push_str(key);
                    out.push_str(": ");
                    out.push_str(super::REDACTED);
                    if line.ends_with('\n') {
                        out.push('\n');
                    }
                    changed = true;
                    continue;
                }
                out.push_str(line);
                continue;
            }
            inside = None;
        }
        if matches!(trimmed, "data:" | "stringData:") {
            inside = Some(indent);
        }
        out.push_str(line);
    }
    changed.then_some(out)
}
