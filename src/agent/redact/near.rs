//! Secrets no shape gives away, found by what stands next to them: a long, mixed token
//! a few words after a word for a secret in any language ("Use this key to call the
//! staging API: YUTY…", "mot de passe : 7C~!…", "API密钥是 j6hd…", "API 키는 ce43…",
//! "пароль: …"), the words of a seed phrase, and the values of a Kubernetes Secret's
//! `data`.

/// Words that announce a secret, lower case (with every word for a password, below).
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
    "llave",
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
    "encrypt",
    "kata sandi",
    "sandi",
    "kunci",
    "पासवर्ड",
    "कुंजी",
    "mật khẩu",
    "khóa",
    "كلمة المرور",
    "كلمة السر",
    "مفتاح",
    "رمز عبور",
    "گذرواژه",
    "รหัสผ่าน",
    "סיסמה",
    "κωδικός",
    "heslo",
    "lösenord",
    "salasana",
    "jelszó",
    "parolă",
    "密鑰",
    "金鑰",
    "權杖",
    // "Key" in more languages.
    "atslēga",
    "кілт",
    "բանալի",
    "açar",
    "किल्ली",
    "ufunguo",
    "চাবি",
    "გასაღები",
    "võti",
    "nøgle",
    "nøkkel",
    "nyckel",
    "klíč",
    "kľúč",
    "kulcs",
    "avain",
    "cheie",
    "κλειδί",
    "מפתח",
    "కీ",
    "ಕೀ",
    "കീ",
    "કી",
    "ચાવી",
    "ਕੁੰਜੀ",
    "சாவி",
    "යතුර",
    "चाबी",
    "ачкыч",
    "kalit",
    "çelës",
    "ključ",
    "кључ",
    "клуч",
    "raktas",
    "lykill",
    "gakoa",
    "eochair",
    "allwedd",
    "ቁልፍ",
    "ກະແຈ",
    "သော့",
    // "Secret" in more languages.
    "secreto",
    "segredo",
    "segreto",
    "geheim",
    "hemlig",
    "hemmelig",
    "salainen",
    "salajane",
    "slepen",
    "slapt",
    "titkos",
    "tajn",
    "sekret",
    "gizli",
    "rahasia",
    "bí mật",
    "秘密",
    "비밀",
    "μυστικ",
    "गुप्त",
    "राज़",
    "ਗੁਪਤ",
    "ਰਾਜ਼",
    "ગુપ્ત",
    "গোপন",
    "ரகசிய",
    "రహస్య",
    "ರಹಸ್ಯ",
    "രഹസ്യ",
    "құпия",
    "жашыруун",
    "maxfiy",
    // Written from common usage, for languages the lists above lacked.
    "cyfrinach",
    "rúnda",
    "ukhiye",
    "imfihlo",
    "калид",
    "махф",
    "คีย์",
    "กุญแจ",
    "ความลับ",
    "ŝlosilo",
    "کلید",
    "کلیل",
];

/// Words that announce a password, which may be only digits ("şifresi 39406414").
const PASSWORD_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passcode",
    "mot de passe",
    "passwort",
    "kennwort",
    "contraseña",
    "senha",
    "şifre",
    "parola",
    "hasło",
    "wachtwoord",
    "пароль",
    "密码",
    "パスワード",
    "비밀번호",
    "kata sandi",
    "पासवर्ड",
    "mật khẩu",
    "كلمة المرور",
    "رمز عبور",
    "گذرواژه",
    "heslo",
    "lösenord",
    "salasana",
    "jelszó",
    "密碼",
    "패스워드",
    "পাসওয়ার্ড",
    "پاس ورڈ",
    "கடவுச்சொல்",
    "పాస్‌వర్డ్",
    "nenosiri",
    "kata laluan",
    "slaptažodis",
    "parool",
    "lozinka",
    "adgangskode",
    "passord",
    "lykilorð",
    "fjalëkalim",
    "პაროლი",
    "գաղտնաբառ",
    "parole",
    "құпия сөз",
    "parol",
    "şifrə",
    "ពាក្យសម្ងាត់",
    "парола",
    "лозинка",
    "geslo",
    "contrasenya",
    "pasahitz",
    "нууц үг",
    "මුරපදය",
    "ລະຫັດຜ່ານ",
    "စကားဝှက်",
    "پټنوم",
    "የይለፍ ቃል",
    "сырсөз",
    "серсүз",
    "ޕާސްވޯޑ",
    "гузарвожа",
    "പാസ്‌വേഡ്",
    "ಪಾಸ್‌ವರ್ಡ್",
    "પાસવર્ડ",
    "ਪਾਸਵਰਡ",
    // Written from common usage, for languages the list above lacked.
    "cyfrinair",
    "pasfhocal",
    "focal faire",
    "facal faire",
    "wagwoord",
    "wachtwurd",
    "passwuert",
    "iphasiwedi",
    "סיסמה",
    "סיסמא",
    "κωδικός πρόσβασης",
    "συνθηματικ",
    "รหัสผ่าน",
    "contrasinal",
    "ପାସୱାର୍ଡ",
    "pasvorto",
    "kalmar sirri",
    "furaha sirta",
    "tenimiafina",
    "kelma sigrieta",
    "şîfre",
    "loyniorð",
];

/// How far before a bare-looking value (all digits, all lower-case letters) its secret
/// word must stand: right before it, as in "şifresi 39406414".
pub(super) const CLOSE: usize = 32;

/// How far before a token a secret word may stand (characters, same line).
const REACH: usize = 48;

/// Which kinds of ASCII characters a token holds: lower case, upper case, digits,
/// punctuation.
pub(super) fn char_kinds(token: &str) -> [bool; 4] {
    [
        token.chars().any(|c| c.is_ascii_lowercase()),
        token.chars().any(|c| c.is_ascii_uppercase()),
        token.chars().any(|c| c.is_ascii_digit()),
        token.chars().any(|c| c.is_ascii_punctuation()),
    ]
}

/// How many runs of digits a token holds (`ab12cd3` has two): a name in code has its
/// number in one place, a string drawn at random scatters them.
pub(super) fn digit_runs(b: &[u8]) -> usize {
    b.windows(2)
        .filter(|w| !w[0].is_ascii_digit() && w[1].is_ascii_digit())
        .count()
        + usize::from(b.first().is_some_and(u8::is_ascii_digit))
}

/// A path as a query carries it (`?next=%2Fbookings%2F…`), with no query of its own
/// (`%3Ftoken%3D…` may hold one).
fn is_encoded_path(token: &str) -> bool {
    token
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case("%2f"))
        && !token.to_ascii_lowercase().contains("%3d")
}

/// A product and its version as a protocol names them (`HTTP/1.1`, `Mozilla/5.0`,
/// `curl/8.4.0`, `python-requests/2.31.0`): an access log's words, never a secret.
fn is_product(token: &str) -> bool {
    token.split_once('/').is_some_and(|(name, version)| {
        name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !version.is_empty()
            && version
                .split('.')
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Whether a token looks like a secret: long enough, and mixed (three kinds of
/// character), or a long run of hex or base32.
pub(super) fn looks_secret(token: &str) -> bool {
    let n = token.chars().count();
    let [lower, upper, digit, symbol] = char_kinds(token);
    let kinds = [lower, upper, digit, symbol].iter().filter(|k| **k).count();
    let hex = n >= 24 && token.chars().all(|c| c.is_ascii_hexdigit()) && digit;
    let base32 = n >= 16
        && token
            .chars()
            .all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c))
        && digit;
    // Words, hyphenated or as a path (`Stripe Prod/secret key` in a vault's address).
    let plain_word = token
        .chars()
        .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '/'));
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
        && !is_encoded_path(token)
        && !is_product(token)
        && !super::value::is_shell_syntax(token)
        && !super::value::is_timestamp(token)
        && !is_address(token)
        && !super::value::is_public_by_prefix(token)
        && ((n >= 8 && kinds >= 3) || (n >= 20 && kinds >= 2 && !symbol) || hex || base32)
}

/// A host's name (`relay-01.sorvane.internal`) or what follows a URL's `@`
/// (`@localhost:5432/ledger`): where a secret is used, never one.
fn is_address(token: &str) -> bool {
    // The end of a sentence or a clause is no part of it.
    let token = token.trim_end_matches(['`', '\'', '"', ',', ')', '.', ';', ':']);
    let bare = token.strip_prefix('@').unwrap_or(token);
    let (host, rest) = bare.split_at(bare.find([':', '/']).unwrap_or(bare.len()));
    let labels: Vec<&str> = host.split('.').collect();
    let named = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_lowercase()));
    // After an `@`, a single name will do (`@localhost:5432`), with a port or a path.
    let local = token.starts_with('@')
        && !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && (rest.starts_with(':') && rest[1..].starts_with(|c: char| c.is_ascii_digit())
            || rest.starts_with('/'));
    // A port is digits, then a path or nothing (`db-02.acme.internal:5432/app`).
    let port_ok = rest.strip_prefix(':').is_none_or(|p| {
        let digits = p.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && (p.len() == digits || p[digits..].starts_with('/'))
    });
    named && port_ok || local
}

/// Whether a text holds a word for a secret or for a password.
fn says_secret(said: &str) -> bool {
    SECRET_WORDS.iter().any(|w| said.contains(w)) || says_password(said)
}

/// Whether a text holds a word for a password.
pub(super) fn says_password(said: &str) -> bool {
    PASSWORD_WORDS.iter().any(|w| said.contains(w))
}

/// For a token no shape gives away, what must be said right before it
/// for it to be a secret: a password of six digits or more after a word for a password,
/// or twenty lower-case letters or more after any word for a secret (a generated key in
/// one case), or letters drawn at random.
fn bare_secret_words(token: &str) -> Option<fn(&str) -> bool> {
    let n = token.chars().count();
    if n >= 6 && token.chars().all(|c| c.is_ascii_digit()) || is_app_password(token) {
        Some(says_password)
    } else if n >= 20 && token.chars().all(|c| c.is_ascii_lowercase()) || random_letters(token) {
        Some(says_secret)
    } else {
        None
    }
}

/// An app-specific password as Apple and Google hand them out: four groups of four
/// lower-case letters (`wxyz-abcd-efgh-ijkl`).
fn is_app_password(token: &str) -> bool {
    // The end of a sentence is no part of it.
    let groups: Vec<&str> = token.trim_end_matches('.').split('-').collect();
    groups.len() == 4
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.bytes().all(|b| b.is_ascii_lowercase()))
}

/// A name in code: words of letters joined by `_`, `.`, `/`, `-` or `:`, no digit; or
/// a source file's path, with its line (`src/lib.rs:270`).
fn is_identifier(token: &str) -> bool {
    let token = token.trim_matches(|c: char| !c.is_alphanumeric());
    let file = token.split(':').next().unwrap_or(token);
    let source_path = file.contains('/')
        && file.rsplit_once('.').is_some_and(|(_, ext)| {
            (1..=4).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_lowercase())
        })
        && token[file.len()..]
            .trim_start_matches(':')
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':');
    if source_path {
        return true;
    }
    let parts: Vec<&str> = token.split(['_', '.', '/', '-', ':']).collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| p.len() >= 2 && p.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Letters only, drawn at random (Logz.io's tokens are 32 letters of both cases): long,
/// and its capitals run together as no name's do (`AuthenticationTokenProvider` has
/// none side by side; a random string has one pair in four).
fn random_letters(token: &str) -> bool {
    let b = token.as_bytes();
    let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = b.iter().filter(|c| c.is_ascii_lowercase()).count();
    let capitals_together = capitals_together(b);
    // `XMLHTTPRequestHandler` has capitals together, but few words begin inside it.
    let words_begun = b
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    b.len() >= 20
        && upper + lower == b.len()
        && upper >= 5
        && lower >= 5
        && capitals_together >= 3
        && words_begun >= 4
}

/// How many capitals stand right after another: none in most names
/// (`AuthenticationTokenProvider`), one pair in four in a random string.
pub(super) fn capitals_together(b: &[u8]) -> usize {
    b.windows(2)
        .filter(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase())
        .count()
}

/// Whether the words before a token say its key is no secret: a public key, a cache's
/// key ("Cache restored from key: …"), an idempotency or primary key.
pub(super) fn says_public(before: &str) -> bool {
    // The name's words, last first: `"encryptedKeyset": "` gives `encryptedkeyset`.
    let mut words = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let name = [words.next(), words.next()];
    before.contains("public")
        || before.contains("pubkey")
        || super::value::is_site_key(before)
        || (before.contains("cache") && before.contains("key"))
        || super::value::PUBLIC.iter().any(|p| {
            [" key", "-key", "_key"]
                .iter()
                .any(|k| before.contains(&format!("{p}{k}")))
                // `ActionKey`, `sortKey`: the qualifier starts the word (a
                // `transactionKey` is a gateway's secret).
                || name.iter().flatten().any(|w| *w == format!("{p}key"))
        })
        // Ciphertext under a key's name: `encryptedKeyset`, `hashed_password`.
        || name.iter().flatten().any(|w| {
            ["encrypted", "hashed", "wrapped", "ciphertext", "sealed"]
                .iter()
                .any(|s| w.starts_with(s))
        })
}

/// Whether the name right before a value says it identifies something that is no
/// secret: `--id`, `"keyId":`, `client_id=`, `TENANT_ID:` (a UUID or a fingerprint there
/// names an object). Only names of ids that are public by design, and not when the word
/// before says secret: Nomad's `Secret ID = …` is the token itself.
fn names_an_id(before: &str) -> bool {
    const PUBLIC_IDS: &[&str] = &[
        "id",
        "keyid",
        "clientid",
        "appid",
        "applicationid",
        "tenantid",
        "objectid",
        "accountid",
        "projectid",
        "subscriptionid",
        "userid",
        "orgid",
        "organizationid",
        "requestid",
        "traceid",
        "accessorid",
        "deviceid",
        "instanceid",
        "resourceid",
    ];
    let mut words = before
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ':' | '='))
        .rsplit(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-')))
        .map(|w| w.to_ascii_lowercase().replace(['_', '-'], ""));
    let name = words.next().unwrap_or_default();
    let qualifier = words.find(|w| !w.is_empty()).unwrap_or_default();
    let secret = ["secret", "token", "pass", "session", "auth"]
        .iter()
        .any(|w| qualifier.contains(w));
    PUBLIC_IDS.contains(&name.as_str()) && !secret
}

/// A value shaped as ids are: a UUID, or one run of hex or of base64 (a key's
/// fingerprint). A token's vendor prefix (`hvs.`, `tskey-`) or dots say otherwise.
fn is_plain_id(value: &str) -> bool {
    super::value::is_uuid(value)
        || value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
}

/// Text as the words for a secret are matched in: lower case, with a key's words joined
/// by `_` or `-` read apart (`mot_de_passe`, `pass_phrase`).
pub(super) fn spoken(text: &str) -> String {
    text.to_lowercase().replace(['_', '-'], " ")
}

/// Replaces every token that looks like a secret and follows a secret word closely.
pub fn near_words(text: &str) -> Option<String> {
    let said = spoken(text);
    if !says_secret(&said) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let mut last = 0;
        let mut rebuilt = String::with_capacity(line.len());
        for (start, token) in values(line) {
            let bare = token.trim_matches(|c: char| {
                matches!(
                    c,
                    '"' | '\'' | '\\' | ',' | ';' | ')' | '(' | '，' | '。' | '`'
                )
            });
            // Only a token of a secret's shape is worth looking behind; a name in code
            // (`SWITCH_Official_General`, `SubagentState.configs`) is none.
            let mixed = looks_secret(bare) && !is_identifier(bare);
            let close_words = bare_secret_words(bare);
            if (!mixed && close_words.is_none())
                || bare.contains("[REDACTED]")
                || super::value::is_placeholder(bare)
            {
                continue;
            }
            // What stands before the token is read as this pass leaves it: a value
            // redacted earlier on the line is `[REDACTED]` here as it will be in the
            // text's next redaction, so both passes reach as far (redacting twice
            // redacts no more).
            let prefix = format!("{rebuilt}{}", &line[last..start]);
            let reach = |chars: usize| {
                let from = prefix.char_indices().rev().nth(chars).map_or(0, |(i, _)| i);
                prefix[from..].to_lowercase()
            };
            let before = reach(REACH);
            let said = spoken(&before);
            let secret = (mixed && says_secret(&said))
                || close_words.is_some_and(|says| says(&spoken(&reach(CLOSE))));
            let at = start + token.find(bare).unwrap_or(0);
            if !secret
                || says_public(&before)
                || names_an_id(&prefix) && is_plain_id(bare)
                || before.ends_with("enc(")
                || super::value::in_record(&prefix)
                || names_a_record(&prefix, &line[at + bare.len()..])
            {
                continue;
            }
            // Base64's padding goes with its value.
            let padding = line[at + bare.len()..]
                .chars()
                .take_while(|c| *c == '=')
                .count();
            rebuilt.push_str(&line[last..at]);
            rebuilt.push_str(super::REDACTED);
            last = at + bare.len() + padding;
            changed = true;
        }
        rebuilt.push_str(&line[last..]);
        out.push_str(&rebuilt);
    }
    changed.then_some(out)
}

/// Whether the value between `before` and `after` is a record's key (`"key": "ORD-1",
/// "value": …`): a name, not a secret.
fn names_a_record(before: &str, after: &str) -> bool {
    let before = before.trim_end_matches(|c: char| c == '"' || c == ':' || c.is_whitespace());
    before.len() >= 4
        && before.is_char_boundary(before.len() - 4)
        && before[before.len() - 4..].eq_ignore_ascii_case("\"key")
        && super::value::record_key("key", after)
}

/// The values a line may hold, with their byte offsets: its words, and within a word
/// what stands apart by `=`, brackets, quotes and commas
/// (`pass_phrase=X`, `login(key=\"X\")`), so that a key written in the same word counts
/// as standing before its value.
/// A word that is ciphertext (SOPS's `ENC[AES256_GCM,data:…]`) holds none.
fn values(line: &str) -> impl Iterator<Item = (usize, &str)> {
    tokens(line)
        .filter(|(_, word)| !word.trim_start_matches(['"', '\'']).starts_with("ENC["))
        .flat_map(|(start, word)| {
            // CJK prose runs words together with its own punctuation (`127.0.0.1`，`/tftp`);
            // markup puts its text between tags (`<string name="…">Contrasenya</string>`).
            let apart = |c: char| {
                matches!(
                    c,
                    '=' | '('
                        | '<'
                        | '>'
                        | ')'
                        | '"'
                        | '\''
                        | ','
                        | ';'
                        | '，'
                        | '、'
                        | '；'
                        | '：'
                        | '（'
                        | '）'
                        | '。'
                        | '`'
                        // Quotation marks of other scripts: `密碼係「…」`, `“…”`, `«…»`.
                        | '「'
                        | '」'
                        | '『'
                        | '』'
                        | '【'
                        | '】'
                        | '“'
                        | '”'
                        | '„'
                        | '«'
                        | '»'
                        | '‹'
                        | '›'
                )
            };
            // What stands in angle brackets is a tag, an address or a placeholder
            // (`<jane@example.com>`, `<NEW>`), not a value; an HTML entity is markup.
            super::pieces(word, apart)
                .filter(move |(at, t)| !word[..*at].ends_with('<') && !t.contains("&nbsp"))
                .map(move |(at, t)| (start + at, t))
        })
}

/// The whitespace-separated tokens of a line, with their byte offsets.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    super::pieces(line, char::is_whitespace)
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
                // A template's expression (`{{ .Values.apiKey }}`) or a variable names
                // where the value comes from.
                if let Some((key, value)) = line.split_once(": ")
                    && !value.trim().is_empty()
                    && !value.trim_start().starts_with(['{', '$', '<'])
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

/// What a command prints when its output is the secret itself (`op read …`, `gh auth
/// token`, `aws ecr get-login-password`), shown after the command in a shell transcript:
/// the next line, when it is one token.
pub fn printed_secret(text: &str, lower: &str) -> Option<String> {
    const PRINTS_A_SECRET: &[&str] = &[
        "op read",
        "gh auth token",
        "heroku auth:token",
        "get-login-password",
        "print-access-token",
        "print-identity-token",
        "find-generic-password -w",
        "pass show",
        "doppler secrets get",
        "kubectl create token",
        "secrets versions access",
        "vault kv get -field",
        "vault read -field",
        "vault print token",
        "secret-tool lookup",
        "kwallet-query -r",
        "kwallet-query --read-password",
        "keyring get",
        "find-internet-password -w",
        "bw get password",
        "lpass show --password",
        "rbw get",
    ];
    let prints = |line: &str| {
        PRINTS_A_SECRET.iter().any(|c| line.contains(c)) || fetches_a_named_secret(line)
    };
    let may_name_one = (text.contains("$ ") || text.contains("> "))
        && SECRET_NAMES.iter().any(|n| lower.contains(n));
    if !may_name_one && !PRINTS_A_SECRET.iter().any(|c| text.contains(c)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut after_command = false;
    // After a command that only names a secret: what follows must look like one.
    let mut after_named = false;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let one_token = !trimmed.is_empty() && !trimmed.contains(char::is_whitespace);
        let named_only = after_named && !looks_secret(trimmed) && !is_long_random(trimmed);
        if after_command
            && one_token
            && !named_only
            && !is_assignment(trimmed)
            && trimmed.len() >= 8
            && !trimmed.starts_with(['$', '#', '>'])
        {
            out.push_str(&line.replacen(trimmed, super::REDACTED, 1));
            changed = true;
            after_command = false;
            continue;
        }
        let printing = prints(line);
        after_named = !printing && names_a_secret(line);
        after_command = printing || after_named;
        out.push_str(line);
    }
    changed.then_some(out)
}

/// A long token of three kinds of characters or more that names no place: what a
/// command naming a secret prints, even in punctuation a shell would read (WordPress's
/// salts: `Ca.[d$P6@n1%b/L9…`).
fn is_long_random(token: &str) -> bool {
    token.chars().count() >= 32
        && char_kinds(token).iter().filter(|k| **k).count() >= 3
        && !token.contains(char::is_whitespace)
        && !token.contains("://")
        && !token.starts_with(['/', '~', '.', '{', '['])
}

/// `NAME=value`: a pair, which the pair rules judge by its name (`grep -v secret .env`
/// prints `CLIENT_ID=…`, not a secret), never a printed value (base64 ends in `=`).
fn is_assignment(line: &str) -> bool {
    line.split_once('=').is_some_and(|(name, value)| {
        !value.is_empty()
            && !value.starts_with('=')
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    })
}

/// A prompt's command that reads one secret by its name (`$ conjur variable get -i
/// prod/db-password`, `$ gopass show -o infra/api-token`): a verb that fetches, and a
/// last argument whose last part names a password, a token or a secret.
fn fetches_a_named_secret(line: &str) -> bool {
    let Some(command) = line.trim_start().strip_prefix("$ ") else {
        return false;
    };
    let words: Vec<&str> = command.split_whitespace().collect();
    const FETCH: &[&str] = &[
        "get", "show", "read", "print", "value", "reveal", "access", "fetch", "retrieve", "decrypt",
    ];
    let Some(last) = words.last() else {
        return false;
    };
    let name = last
        .trim_matches(['"', '\''])
        .rsplit(['/', ':', '.'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    // `get`, or a verb in a compound (`get-secret-value`, `print_token`).
    let fetches = |w: &&str| w.split(['-', '_']).any(|part| FETCH.contains(&part));
    words.len() >= 3
        && words[1..words.len() - 1].iter().any(fetches)
        && SECRET_NAMES.iter().any(|s| name.contains(s))
}

/// A prompt's command that names a secret without setting one (`$ argocd admin
/// initial-password`, `$ az acr credential show … --query passwords[0].value`): what
/// it prints alone on the next line is that secret when it looks like one.
fn names_a_secret(line: &str) -> bool {
    // A shell's prompt, or a console's (`terraform console`, a Node REPL).
    let line = line.trim_start();
    let Some((prompt, command)) = ["$ ", "> ", ">>> "]
        .iter()
        .find_map(|prompt| Some((*prompt, line.strip_prefix(prompt)?)))
    else {
        return false;
    };
    // A shell's first word is the program; a console's is already the expression.
    let program = usize::from(prompt == "$ ");
    // Setting one (`passwd`, `--password X`, `TOKEN=x`) prints none; encrypting,
    // hashing or signing one prints what is safe to show. An option's value
    // (`--path=/var/www`) sets nothing secret.
    const TRANSFORMS: &[&str] = &["encrypt", "hash", "sign", "digest", "encode", "seal"];
    let words: Vec<&str> = command.split_whitespace().collect();
    let sets_a_secret = words.iter().any(|w| {
        w.split_once('=').is_some_and(|(name, _)| {
            let name = name.to_ascii_lowercase();
            !name.starts_with('-') || SECRET_NAMES.iter().any(|s| name.contains(s))
        })
    });
    if sets_a_secret
        || words
            .iter()
            .any(|w| TRANSFORMS.iter().any(|t| w.eq_ignore_ascii_case(t)))
    {
        return false;
    }
    // A file's name (`fileb://api-secret.txt`) says what the file holds, not what prints.
    let file = |w: &str| {
        w.contains("://")
            || w.rsplit_once('.').is_some_and(|(_, ext)| {
                ext.len() <= 4 && ext.chars().all(|c| c.is_ascii_alphabetic())
            })
    };
    words
        .iter()
        .skip(program)
        .filter(|w| !w.starts_with('-') && !file(w))
        .any(|w| {
            let w = w.to_ascii_lowercase();
            SECRET_NAMES.iter().any(|s| w.contains(s))
        })
}

/// What the name of a stored secret says it holds.
const SECRET_NAMES: &[&str] = &[
    "password", "passwd", "token", "secret", "apikey", "api-key", "api_key", "salt",
];

/// The values Terraform marks sensitive in `terraform output -json` (`"sensitive": true`
/// and, a line or two further, `"value": "…"`).
pub fn sensitive_values(text: &str) -> Option<String> {
    if !text.contains("\"sensitive\": true") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut pending = 0;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        if line.contains("\"sensitive\": true") {
            pending = 3;
        } else if pending > 0 {
            pending -= 1;
            if let Some((key, value)) = line.split_once("\"value\": \"")
                && let Some(end) = value.find('"')
            {
                out.push_str(key);
                out.push_str("\"value\": \"");
                out.push_str(super::REDACTED);
                out.push_str(&value[end..]);
                changed = true;
                pending = 0;
                continue;
            }
        }
        out.push_str(line);
    }
    changed.then_some(out)
}
