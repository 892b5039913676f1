//! Whether the value of a `key=value` pair is a secret or only names one (`$VAR`,
//! `process.env.X`, `<placeholder>`, a count, a type, a colour).

/// What a key is when it says "key" and is no secret: a table's, a public one, a cache's.
pub(super) const PUBLIC: &[&str] = &[
    "primary",
    "foreign",
    "public",
    "publishable",
    "sort",
    "partition",
    "cache",
    "idempotency",
    "unique",
    "lookup",
    "hash",
    "map",
    "row",
    "composite",
    "natural",
    "pub",
    "action",
    "object",
    "dedup",
    "instrumentation",
    // Apple's crash reports (`.ips`): an anonymous id of the machine.
    "crashreporter",
];

/// A value public by its vendor's prefix: PubNub's publish and subscribe keys ship in
/// every browser bundle (its secret key is `sec-c-…`).
pub(super) fn is_public_by_prefix(value: &str) -> bool {
    let v = value.trim_matches(['"', '\'', '`']);
    // Lob's publishable keys (`live_pub_…`, `test_pub_…`) are meant for browser code too.
    ["pub-c-", "sub-c-", "live_pub_", "test_pub_"]
        .iter()
        .any(|p| v.starts_with(p))
}

/// An RTMP URL on this machine or the local network (`rtmp://localhost/live/`): a test
/// stream's name, not an ingest's key.
fn is_local_stream(key: &str) -> bool {
    let host = key
        .split("://")
        .nth(1)
        .unwrap_or("")
        .split(['/', ':'])
        .next()
        .unwrap_or("");
    host == "localhost"
        || host.starts_with("127.")
        || host == "0.0.0.0"
        || host.ends_with(".local")
        || host.starts_with("192.168.")
        || host.starts_with("10.")
}

/// A value that says it stands in for a secret: documentation's `…EXAMPLEKEY`,
/// `tvly-YOUR_API_KEY`, `your-token-here`, `xxxxxxxx`, `changeme`. Every word of it must
/// say so (after a vendor's short prefix): `Your$Pass2024` is a password.
pub(super) fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    // A CI system's or a UI's mask (`-p ***`, `••••••`) hides the secret already; the
    // storage emulator's account key (Azurite, `devstoreaccount1`) is published in
    // Microsoft's documentation for every developer to use.
    // A password manager's or a plan's word for a hidden value (KeePassXC's `PROTECTED`,
    // Terraform's `(sensitive value)`) stands where the secret would.
    let bare = lower.trim_matches(|c: char| matches!(c, '<' | '>' | '(' | ')' | '[' | ']'));
    if matches!(
        bare,
        "protected" | "hidden" | "masked" | "redacted" | "sensitive" | "sensitive value"
    ) {
        return true;
    }
    // A mask may keep the vendor's prefix (`gh auth status`: `gho_****…`).
    let masked = value
        .split_once(['_', '-'])
        .filter(|(prefix, _)| {
            (1..=10).contains(&prefix.len()) && prefix.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .map_or(value, |(_, rest)| rest);
    if masked.chars().all(|c| matches!(c, '*' | '•' | '●'))
        || value.starts_with(AZURITE_KEY)
        || value.starts_with(TOTP_EXAMPLE)
        || RFC_EXAMPLES
            .iter()
            .any(|e| value.starts_with(e.trim_end_matches('=')))
        || is_public_block(value)
    {
        return !value.is_empty();
    }
    // A CI system's mask that shows the last characters (CircleCI's `xxxx6307`).
    let shown = lower.trim_start_matches(['x', '*', '•']);
    let (all, kept) = (lower.chars().count(), shown.chars().count());
    if all - kept >= 4 && kept <= 4 && shown.chars().all(|c| c.is_ascii_alphanumeric()) {
        return true;
    }
    if [
        "xxxxxx",
        "placeholder",
        "tobemodified",
        "changeme",
        "replace_me",
        "replace-me",
    ]
    .iter()
    .any(|w| lower.contains(w))
        || lower.ends_with("example")
        || lower.ends_with("examplekey")
    {
        return true;
    }
    const SAYS_SO: &[&str] = &[
        "your", "here", "my", "the", "a", "api", "key", "token", "secret", "password", "pass",
        "access", "id", "client", "app", "auth", "bot", "personal", "private", "value", "goes",
        "put", "insert", "replace", "with", "actual", "real", "new", "example", "sample",
    ];
    let parts: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let words = match parts.split_first() {
        // A vendor's prefix (`tvly-`, `sk_`) is no word of the placeholder.
        Some((first, rest)) if first.len() <= 6 && !SAYS_SO.contains(first) => rest,
        _ => &parts[..],
    };
    words.iter().any(|w| matches!(*w, "your" | "here")) && words.iter().all(|w| SAYS_SO.contains(w))
}

/// The key every copy of Azure's storage emulator accepts, as documented by Microsoft.
const AZURITE_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw";

/// The TOTP secret of the Key Uri Format's documented example (Google Authenticator's
/// wiki), copied into parsers' tests everywhere.
const TOTP_EXAMPLE: &str = "JBSWY3DPEHPK3PXP";

/// The credentials the RFCs print as examples, copied into documentation and tests
/// everywhere: RFC 7617's `Aladdin:open sesame` (as Basic credentials), RFC 6749's access
/// and refresh tokens, authorization code and client secret.
const RFC_EXAMPLES: &[&str] = &[
    "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    "2YotnFZFEjr1zCsicMWpAA",
    "tGzv3JOkF0XG5Qx2TlKWIA",
    "SplxlOBeZQQYbYS6WxSbIA",
    "7Fjfp0ZBr1KtDRbnfVdmIw",
];

/// Words of prose, never a secret after an option's name: Docker's own warning says
/// "Using --password via the CLI is insecure".
const PROSE: &[&str] = &[
    "via", "for", "to", "is", "are", "and", "or", "the", "of", "with", "in", "on", "from", "when",
    "if", "not", "instead", "option", "flag",
];

/// A certificate or public key in base64, as kubeconfig's `certificate-authority-data`
/// holds one: it begins with `-----BEGIN CERTIFICATE` or `-----BEGIN PUBLIC KEY` encoded.
fn is_public_block(value: &str) -> bool {
    const ENCODED: &[&str] = &[
        "LS0tLS1CRUdJTiBDRVJUSUZJQ0FU", // -----BEGIN CERTIFICAT
        "LS0tLS1CRUdJTiBQVUJMSUMgS0VZ", // -----BEGIN PUBLIC KEY
        "LS0tLS1CRUdJTiBYNTA5IENSTA",   // -----BEGIN X509 CRL
    ];
    ENCODED.iter().any(|e| value.starts_with(e))
}

/// Shell syntax where an option's value would stand (`-w 2>/dev/null`, `-p | tee`): the
/// option was given no value.
pub(super) fn is_shell_syntax(value: &str) -> bool {
    // Not XML's `>value</Pass>`: a redirection goes to a path, a descriptor or appends.
    let v = value.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
    // A lone backslash continues the line: the value is on the next one.
    v == ">" || value == "\\" || [">/", ">&", ">>", "|"].iter().any(|p| v.starts_with(p))
}

/// Cookies analytics tools set on every visitor (Google Analytics' `_ga`, `_gid`, Ads'
/// `_gcl_au`, Meta's `_fbp`, Hotjar's `_hjSessionUser_…`, Segment's `ajs_anonymous_id`,
/// Matomo's `_pk_id…`, Microsoft's `_clck`, `_uetsid`): ids of a browser, not credentials.
const ANALYTICS_COOKIES: &[&str] = &[
    "_ga",
    "_gid",
    "_gat",
    "_gcl_",
    "__utm",
    "_fbp",
    "_fbc",
    "_hj",
    "ajs_anonymous_id",
    "ajs_user_id",
    "_pk_id",
    "_pk_ses",
    "_clck",
    "_clsk",
    "_uetsid",
    "_uetvid",
    "_dc_gtm",
];

/// Whether the name a pair's key ends with is an analytics cookie's.
fn is_analytics_cookie(key: &str) -> bool {
    let name = key
        .trim_end_matches(['=', ' '])
        .rsplit(|c: char| c.is_whitespace() || matches!(c, ';' | ':' | '\'' | '"'))
        .next()
        .unwrap_or("");
    is_analytics_name(name)
}

/// Whether a cookie's name is an analytics tool's.
pub(super) fn is_analytics_name(name: &str) -> bool {
    ANALYTICS_COOKIES.iter().any(|c| name.starts_with(c))
}

/// A string of a user interface (`"password": "Contraseña"`, `"forgotPassword":
/// "¿Olvidaste tu contraseña?"`): words of any script, no digit or symbol of a key.
pub(super) fn is_ui_string(value: &str) -> bool {
    // An XML resource's text (Android's `<string name="…">Contrasenya</string>`).
    let v = value.strip_prefix('>').map_or(value, |text| {
        text.split_once("</").map_or(text, |(text, _)| text)
    });
    let v = v.trim_matches(['"', '\'']);
    v.chars().any(char::is_alphabetic)
        && v.chars().all(|c| {
            c.is_alphabetic()
                || c == ' '
                || matches!(
                    c,
                    '¿' | '?' | '¡' | '!' | '.' | ',' | ':' | '\'' | '-' | '…'
                )
        })
        && (v.contains(' ') || v.chars().count() <= 24)
}

/// Whether a value is a word of prose, not a secret.
pub(super) fn is_prose(value: &str) -> bool {
    PROSE.iter().any(|w| value.eq_ignore_ascii_case(w))
}

/// A site key (reCAPTCHA's, hCaptcha's, Turnstile's) is in every page's HTML.
pub(super) fn is_site_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    ["sitekey", "site_key", "site-key"]
        .iter()
        .any(|k| key.contains(k))
}

/// Whether a pair is a record's key, followed by its value (`{"key": "ORD-1", "value":
/// …}` of Kafka, AWS tags, Consul): the key is a name, not a secret. `after` is the text
/// after the pair.
pub(super) fn record_key(key: &str, after: &str) -> bool {
    let key = key
        .trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, '=' | ':' | '"' | '\'' | '{' | ',' | ';' | '(')
        })
        .to_ascii_lowercase();
    let after = after.trim_start_matches(['"', '\'']).trim_start();
    key == "key"
        && after
            .strip_prefix(',')
            .map(|rest| rest.trim_start().trim_start_matches(['"', '\'']))
            .is_some_and(|rest| {
                rest.get(..5)
                    .is_some_and(|w| w.eq_ignore_ascii_case("value"))
            })
}

/// The value of a record (`"key": "ORD-1", "value": "…"`) whose key names no secret, as
/// the text `before` it ends: the word "key" there names the record, not a secret.
pub(super) fn in_record(before: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r#"(?i)"key"\s*:\s*"([^"]*)"\s*,\s*"value"\s*:\s*"?$"#)
            .expect("a valid pattern")
    });
    re.captures(before).is_some_and(|c| {
        let name = super::near::spoken(&c[1]);
        !["pass", "secret", "token", "key", "auth", "credential"]
            .iter()
            .any(|w| name.contains(w))
    })
}

/// `NAME=value` as its name (letters, digits and `_`, possibly none, in one case: a
/// password's own `=` has both around it, `TaM4A2=9`) and value.
pub(super) fn assignment(text: &str) -> Option<(&str, &str)> {
    text.split_once('=').filter(|(name, _)| {
        name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !(name.chars().any(|c| c.is_ascii_uppercase())
                && name.chars().any(|c| c.is_ascii_lowercase()))
    })
}

/// Whether the value of a `key=value` pair is a secret: not a reference to one
/// (`$VAR`, `${VAR}`, `<placeholder>`) and not a plain count (`max_tokens=4096`).
pub(super) fn is_secret_value(key: &str, value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    // `key: NAME=<your-key>`: an assignment is judged by its own name and value.
    if let Some((name, assigned)) = assignment(v)
        && !name.is_empty()
        && !assigned.is_empty()
    {
        return is_secret_value(name, assigned);
    }
    let key = key
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '=' | ':' | '"' | '\''))
        .to_ascii_lowercase();
    // `token_count`, `password_min_length`, `token_url`: about a secret, not one.
    const ABOUT: &[&str] = &[
        "count",
        "len",
        "length",
        "size",
        "limit",
        "max",
        "min",
        "ttl",
        "type",
        "name",
        "kind",
        "url",
        "uri",
        "endpoint",
        "file",
        "path",
        "env",
        "expiry",
        "expires",
        "prompt",
        "policy",
        "hint",
        "field",
        "header",
        "id",
        "algorithm",
        "mode",
        "format",
        "scheme",
        "strategy",
        "method",
        "bg",
        "fg",
        "color",
        "colour",
        "style",
        "label",
        "enabled",
        "required",
        "stdin",
        "warning",
        "check",
        "command",
        "cmd",
        "dir",
        "store",
        "ref",
    ];
    // The name's own part: after a dotted path (`auth.existingSecret`).
    let head = key
        .rsplit(['.', ' '])
        .next()
        .unwrap_or(&key)
        .trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    // `from_secret: registry_password`, `secret_ref`: where the secret comes from; a Helm
    // chart's `existingSecret: app-db`, the Kubernetes Secret to read it from.
    let from = head.starts_with("from_")
        || head.starts_with("from-")
        || head.starts_with("existingsecret");
    // `encryptedKeyset`, `hashed_password`, `wrapped_key`: what is stored is ciphertext.
    let sealed = ["encrypted", "hashed", "wrapped", "ciphertext"]
        .iter()
        .any(|w| head.starts_with(w));
    let about = from
        || ABOUT.iter().any(|a| {
            key.strip_suffix(a)
                .is_some_and(|k| k.ends_with(['_', '-', '.']))
        });
    // The name proper: the key's last word (`<assemblyIdentity … publicKeyToken=`).
    let name = trailing_name(key.trim_end_matches(|c: char| !is_name_char(c)));
    // `publicKey`, `public_key`, `publicKeyToken` (.NET's strong name): public by name.
    let public = is_site_key(&key)
        || name.starts_with("public")
            && !["secret", "pass", "private"].iter().any(|w| name.contains(w))
        // PubNub's publish and subscribe keys ship in every browser bundle (its secret
        // key is `sec-c-…`): by the value, since a `publish_key` elsewhere is a secret.
        || is_public_by_prefix(v)
        || PUBLIC.iter().any(|p| {
            key.strip_suffix("key")
                .map(|k| k.strip_suffix(['_', '-']).unwrap_or(k))
                .is_some_and(|k| k.ends_with(p))
        });
    // Keychain code names a variable (`kSecValueData as String: passwordData`); only a
    // literal is the secret. A `pepper` inside a longer name (Chromium's
    // `--register-pepper-plugins`) is a plugin's, not a hash's.
    let code = key.contains("ksecvaluedata") && !value.trim_start().starts_with(['"', '\''])
        || key.contains("pepper") && !key.ends_with("pepper") && {
            // Without its pepper, the name says no secret.
            let rest = key.replace("pepper", "");
            !super::SECRET_NAME_WORDS.iter().any(|w| rest.contains(w))
        };
    // `Authorization: Bearer …`: the scheme is not the secret, what follows it is.
    let scheme = key.ends_with("authorization")
        && matches!(
            v.to_ascii_lowercase().as_str(),
            "bearer" | "basic" | "token" | "apikey" | "bot" | "digest" | "ssws"
        );
    // A file a key or certificate is read from, and a boolean flag (`--no-auth-warning`).
    let file = v.starts_with("~/")
        || v.starts_with("./")
        || v.starts_with("../")
        || [
            ".pem", ".key", ".crt", ".json", ".txt", ".env", ".p12", ".pfx", ".gpg", ".asc",
        ]
        .iter()
        .any(|ext| v.to_ascii_lowercase().ends_with(ext));
    // In a URL, `host:8080/path@…` is a port, not a password.
    let port = key.contains("://") && {
        let digits = v.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && v[digits..].starts_with('/')
    };
    // Where only the value's look tells a key from a name: the user of `curl -u USER:`
    // with no password, an RTMP URL's last segment (`/live/stream1` is a test stream).
    let judged_by_look = key.ends_with(" -u")
        || key.ends_with(" --user")
        || (key.starts_with("rtmp://") || key.starts_with("rtmps://"))
            && key.ends_with('/')
            && !key.contains('@');
    !(v.is_empty()
        || judged_by_look && (!super::near::looks_secret(v) || is_local_stream(&key))
        || is_placeholder(v)
        || is_prose(v)
        || is_shell_syntax(v)
        || is_analytics_cookie(&key)
        || port
        || sealed
        || code
        || about
        || public
        || scheme
        || file
        || key.starts_with("--no-")
        || v.starts_with(['$', '<', '{'])
        || v.contains('(')
        || v.len() < 12 && v.chars().all(|c| c.is_ascii_digit())
        || is_field_name(v)
        || names_an_entry(&key, v)
        || is_reference(v))
}

/// A map entry's `key:` whose value is a name of words (`key: x-svc-auth`, Envoy's
/// header to add; `key: cache-deps`): what the entry is called, not a key. A key's
/// value has digits or capitals; a passphrase would stand under a word for one.
fn names_an_entry(key: &str, value: &str) -> bool {
    let name = key
        .rsplit(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-')))
        .next()
        .unwrap_or("");
    name == "key"
        && value.contains(['-', '_'])
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || matches!(c, '-' | '_'))
}

/// Whether a token is a date or a time stamp (`2026-09-14`, `2026-09-14T08:22:51.913Z`,
/// `2026-09-14 08:22:51+02:00`): digits in a calendar's shape, never a secret.
pub(super) fn is_timestamp(token: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$",
        )
        .expect("a valid pattern")
    })
    .is_match(token)
}

/// A character of a setting's or a variable's name (`smtp.pass`, `RELAY_SHARED`,
/// `api-key`).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The name `text` ends with: what follows its last character that is no part of a name
/// (which may be `é`, several bytes long), or nothing.
pub(super) fn trailing_name(text: &str) -> &str {
    let at = text
        .char_indices()
        .rev()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &text[at..]
}

/// A UUID (`8-4-4-4-12` hex digits): what names a resource or an object.
pub(super) fn is_uuid(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts
            .iter()
            .all(|p| p.chars().all(|c| c.is_ascii_hexdigit()))
}

/// Whether the text before a key ends inside an AWS resource name
/// (`arn:aws:secretsmanager:…:secret:prod/db-p9S2C7`): the secret's name, not its value.
pub(super) fn in_arn(before: &str) -> bool {
    let token = before.rsplit(char::is_whitespace).next().unwrap_or("");
    token.trim_start_matches(['"', '\'']).starts_with("arn:")
}

/// A value that is the name of a field (`secretKey: username` in an ExternalSecret says
/// which key of a Secret gets the value): a name, or at most a default no one keeps.
fn is_field_name(value: &str) -> bool {
    const FIELDS: &[&str] = &[
        "username", "user", "password", "passwd", "token", "secret", "key", "email", "host",
        "port", "database",
    ];
    FIELDS.contains(&value.to_ascii_lowercase().as_str())
}

/// A value that names where a secret is instead of being one: a dotted name
/// (`var.db_password`, `process.env.GITHUB_TOKEN`), an index (`os.environ["X"]`), a type
/// (`str`), a literal (`true`, `null`), a colour (`#0f172a`).
pub(super) fn is_reference(value: &str) -> bool {
    let lower = value.trim_end_matches([';', ')', ',']).to_ascii_lowercase();
    let dotted = lower.split('.').count() > 1
        && lower
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        && lower.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && !lower.chars().any(|c| c.is_ascii_digit());
    let colour = lower.starts_with('#')
        && (4..=9).contains(&lower.len())
        && lower[1..].chars().all(|c| c.is_ascii_hexdigit());
    // A secret manager's address (1Password's `op://vault/item/field`, Vault's
    // `vault:path#key`, an AWS resource name `arn:aws:secretsmanager:…`).
    // TeamCity's `credentialsJSON:<uuid>`, a token stored in the server.
    let manager = ["op://", "vault:", "arn:aws", "credentialsjson:"]
        .iter()
        .any(|p| lower.starts_with(p));
    dotted
        || colour
        || manager
        || lower.contains('[')
        || matches!(
            lower.as_str(),
            "true"
                | "false"
                | "null"
                | "none"
                | "nil"
                | "undefined"
                | "str"
                | "string"
                | "int"
                | "bool"
                | "bytes"
                | "secret"
                | "password"
                | "token"
                | "required"
                | "optional"
        )
}
