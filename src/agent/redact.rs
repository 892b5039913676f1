//! Secret redaction: API keys and tokens of the common providers, private key blocks,
//! JWTs, bearer and basic credentials, `password=`/`token=` pairs, secret-named
//! variables and credentials in URLs become `[REDACTED]` before anything is written or
//! indexed. Each rule has cheap literal prefilters, so a text that mentions none of them
//! compiles no regex at all (hooks run on every tool call).

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

mod app_password;
mod cookie_jar;
mod dump;
mod email;
mod encoded;
mod fragment;
mod key_pair;
mod layout;
mod listed;
mod login;
mod named;
mod near;
mod nested;
mod piped;
mod random;
mod secret_file;
mod shape;
mod store;
mod url_path;
mod usage;
mod validation;
mod value;
mod wire;
mod wrapped;

pub use email::mask_emails;

use value::is_secret_value;

pub const REDACTED: &str = "[REDACTED]";

struct Rule {
    /// Lower-case literals; the rule runs only if the lower-cased text contains one.
    prefilter: &'static [&'static str],
    pattern: &'static str,
    /// The replacement; `$k` keeps the named group `k` (the key part of a pair).
    replace: &'static str,
}

/// What a key that names a secret holds, lower case: the literals the rule for
/// `key=value` pairs needs (and what tells a name that says "secret" besides a `pepper`).
const SECRET_NAME_WORDS: &[&str] = &[
    "pass",
    "pwd",
    "token",
    "secret",
    "key",
    "auth",
    "credential",
    "pepper",
    "ksecvaluedata",
];

const RULES: &[Rule] = &[
    Rule {
        // A Java `.properties` value continued on the next line (`password=\`): the
        // value is the next line's first word.
        prefilter: &["\\\n", "\\\r\n"],
        pattern: r#"(?im)(?P<k>^[ \t]*[\w.-]*(?:password|passwd|secret|token|api[_.-]?key|private[_.-]?key|credentials?)[\w.-]*[ \t]*=[ \t]*)(?P<c>\\\r?\n[ \t]*)(?P<v>[^\s\\]+)"#,
        replace: "${k}${c}[REDACTED]",
    },
    Rule {
        prefilter: &["-----begin"],
        // OpenVPN's keys (static, tls-crypt-v2 client and server) are as secret as a
        // private one.
        pattern: r"-----BEGIN(?:[A-Z ]*PRIVATE KEY( BLOCK)?| OpenVPN [A-Za-z0-9 -]*?key(?: V1)?)-----[\s\S]*?(-----END(?:[A-Z ]*PRIVATE KEY( BLOCK)?| OpenVPN [A-Za-z0-9 -]*?key(?: V1)?)-----|\z)",
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
        prefilter: &[":/"],
        // A password may hold `/`; a port and a path (`host:8080/@scope`) is none.
        // A URL written with one slash (`mssql+pyodbc:/user:pass@host`, echoed by the
        // parser that refused it) holds its password all the same.
        pattern: r"(?P<k>\b[a-zA-Z][a-zA-Z0-9+.-]*://?[^\s/:@]*:)(?P<v>[^\s@]+)@",
        replace: "${k}[REDACTED]@",
    },
    Rule {
        // Any key that names a secret, in any case and separator style, as `key=value`,
        // `key: value`, `"key": "value"`, Ruby's and PHP's `"key" => "value"` or a header
        // (`X-Api-Key: …`), and two names that say "secret" in other words: a
        // password hash's `pepper`, and Apple's keychain item data (`kSecValueData as
        // String: …`). A value that is a reference (`$VAR`, `${VAR}`,
        // `<placeholder>`) is no secret and stays. A quoted value not closed on its line
        // (a multi-line `.env` value) is a secret to the end of the line.
        prefilter: SECRET_NAME_WORDS,
        pattern: r#"(?i)(?P<k>\b[a-z0-9_.-]*(?:password|passwd|passphrase|pwd|token|secret|pepper|ksecvaluedata(?: as string)?|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|accountkey|credentials?|auth[_-]?token|authorization)(?:[_.-][a-z0-9_.-]*)?["']?\s*(?:=>|[=:])[ \t]*(?:bearer\s+|basic\s+)?)(?P<v>[bBrR]{1,2}"[^"\n]*"|[bBrR]{1,2}'[^'\n]*'|"[^"$<\n][^"\n]*(?:"|(?m:$))|'[^'$<\n][^'\n]*(?:'|(?m:$))|[^\s&;,'"$<{][^\s&;,'"]*)"#,
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
        pattern: r#"(?P<k>(?:--(?:password|passwd|token|secret|secret-key|private-key|access-key|api-key|apikey|auth-token|client-secret)(?:=|\s+(?:\\\r?\n\s*)?)|(?:\bcurl\b[^\n]*?\s(?:-u|--user)\s+[^\s:]+:)))(?:"[^"\n]*"|'[^'\n]*'|[^\s"'$][^\s]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // `curl -u KEY:` with nothing after the colon: the user is the API key (Stripe,
        // ImageKit, Mailgun's `api:` aside), the empty password says so.
        prefilter: &["curl"],
        pattern: r#"(?P<k>\bcurl\b(?:[^\n]|\\\r?\n)*?\s(?:-u\s*|--user\s+)["']?)(?P<v>[^\s:'"$<{][^\s:'"]{15,}):(?P<t>["']?(?:\s|$))"#,
        replace: "${k}[REDACTED]:${t}",
    },
    Rule {
        // An RTMP ingest URL ends in the stream key (`rtmp://a.rtmp.youtube.com/live2/KEY`,
        // Twitch's `/app/live_…`): whoever has it broadcasts as the channel.
        prefilter: &["rtmp"],
        pattern: r#"(?P<k>\brtmps?://[^\s/'"]+/(?:[^\s/'"]+/)+)(?P<v>[^\s/'"?]{8,})(?P<t>[\s'"?]|$)"#,
        replace: "${k}[REDACTED]${t}",
    },
    Rule {
        prefilter: &["mysql", "mariadb"],
        pattern: r"(?P<k>\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p)(?P<v>[^\s-][^\s]*)",
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
            "_pat",
        ],
        // A name ending in `_PAT` holds a personal access token (`GH_PAT`,
        // `AZURE_DEVOPS_EXT_PAT`); `_PATH` does not, so the name must end there.
        pattern: r#"(?P<k>\b(?:[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*|[A-Z0-9_]*_PAT)\s*=\s*)(?P<v>"[^"\n]*"|'[^'\n]*'|[^\s;&]+)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // More providers' token shapes: xAI, Stripe webhooks, Google OAuth, Docker Hub,
        // Telegram bots, Mailgun, age, Postman, Notion, Airtable, Asana, OpenRouter,
        // Shopify, Linear, Square, Twilio keys, GitLab's other tokens, a Nostr
        // private key (`nsec1…`, bech32).
        prefilter: &[
            "xai-",
            "whsec_",
            "ya29.",
            "dckr_pat_",
            ":aa",
            "key-",
            "age-secret-key-",
            "pmak-",
            "secret_",
            "ntn_",
            "airtable",
            "sk-or-",
            "shpat_",
            "shpss_",
            "lin_api_",
            "sq0",
            "gldt-",
            "glptt-",
            "glrt-",
            "glcbt-",
            "twilio",
            "asana",
            "nsec1",
        ],
        pattern: r"\b(?:nsec1[02-9ac-hj-np-z]{58}|xai-[A-Za-z0-9]{40,}|whsec_[A-Za-z0-9+/=]{24,}|ya29\.[A-Za-z0-9_-]{20,}|dckr_pat_[A-Za-z0-9_-]{20,}|(?:bot)?[0-9]{8,10}:AA[A-Za-z0-9_-]{30,}|key-[0-9a-f]{32}|AGE-SECRET-KEY-1[0-9A-Z]{50,}|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|secret_[A-Za-z0-9]{40,}|ntn_[A-Za-z0-9]{40,}|pat[A-Za-z0-9]{14}\.[0-9a-f]{64}|[0-9]/[0-9]{10,}/[0-9]{10,}:[0-9a-f]{32}|sk-or-v1-[0-9a-f]{64}|shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}|lin_api_[A-Za-z0-9]{40}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|gl(?:dt|ptt|rt|cbt)-[A-Za-z0-9_-]{20,}|SK[0-9a-f]{32})\b",
        replace: REDACTED,
    },
    Rule {
        // A URL's query parameter that names a signature, a key or a token: Azure's
        // `sig=`, S3's `X-Amz-Signature=`, CloudFront's `Signature=`, GCS's
        // `X-Goog-Signature=`, a chat webhook's `key=` or `access_token=`.
        prefilter: &[
            "sig=",
            "signature=",
            "key=",
            "token=",
            "secret=",
            "password=",
            "passwd=",
            "credential=",
            "tkn=",
            "pw=",
        ],
        // Abbreviated too: `tkn=`, `pw=`.
        pattern: r"(?i)(?P<k>[?&](?:[a-z0-9_-]*[_-])?(?:signature|sig|key|apikey|token|tkn|secret|password|passwd|pw|credential)=)(?P<v>[A-Za-z0-9%+/=_~.-]{16,})",
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Programs whose short option takes a password and that these rules cannot tell
        // from a port or a pattern otherwise: `sqlcmd -P`, `bcp -P`, `mosquitto_pub -P`,
        // `ipmitool -P`, `ldapsearch -w`, PuTTY's `-pw`, `signtool /p`, `snmpwalk -A/-X`,
        // `lftp -u user,pw`, `smbclient -U user%pw`.
        prefilter: &[
            "sqlcmd",
            "bcp ",
            "mosquitto_",
            "ipmitool",
            "ldap",
            "-pw",
            "signtool",
            "snmp",
            "lftp",
            "smbclient",
        ],
        pattern: r#"(?P<k>\b(?:(?:sqlcmd|bcp|mosquitto_(?:pub|sub|rr)|ipmitool)\b[^\n]*?\s-P\s*|ldap(?:search|modify|add|delete|passwd|whoami)\b[^\n]*?\s-w\s*|(?:plink|pscp|psftp)\b[^\n]*?\s-pw\s+|signtool\b[^\n]*?\s/p\s+|snmp[a-z]*\b[^\n]*?\s-[AX]\s*|lftp\b[^\n]*?\s-u\s+[^\s,]+,|smbclient\b[^\n]*?\s-U\s+[^\s%]+%))(?P<v>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // A configuration listed as `section.name value` (`git config --get-regexp`,
        // `--list` of tools that print a space): the name says what the value is.
        prefilter: &["pass", "token", "secret", "apikey", "api-key", "api_key"],
        pattern: r#"(?im)^(?P<k>[ \t]*[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.(?:[a-z0-9]+[_-])*(?:(?:smtp|imap|pop|mail|db|ldap|proxy|http|user|admin|root|auth|app)?pass(?:word|wd|phrase)?|token|secret|apikey|api-key|api_key)[ \t]+)(?P<v>[^\s'"]+)[ \t]*$"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Laravel's application key as `key:generate --show` prints it: `base64:` and 32
        // random bytes.
        prefilter: &["base64:"],
        pattern: r"\bbase64:[A-Za-z0-9+/]{43}=(?P<t>[^A-Za-z0-9+/=]|$)",
        replace: "base64:[REDACTED]${t}",
    },
    Rule {
        // A package manager's stored login, `config http-basic.<repo> <user> <password>`
        // (Composer and Poetry).
        prefilter: &["http-basic."],
        pattern: r#"(?P<k>\bhttp-basic\.\S+\s+\S+\s+)(?P<v>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Oracle's `user/password@host` (`jdbc:oracle:thin:hr/pw@//db:1521/x`, `sqlplus
        // hr/pw@db`).
        prefilter: &["jdbc:oracle:", "sqlplus"],
        pattern: r"(?P<k>\b(?:jdbc:oracle:[a-z]+:|sqlplus\s+(?:-\S+\s+)*)[^/\s:@]+/)(?P<v>[^@\s/]+)@",
        replace: "${k}[REDACTED]@",
    },
    Rule {
        // Key formats of their own: a BIP32 extended private key (`xprv…`, `tprv…`,
        // `zprv…`) and a Tor onion service's key as its control port takes and prints it
        // (`ED25519-V3:…`, `RSA1024:…`).
        prefilter: &["prv", "ed25519-v3:", "rsa1024:"],
        pattern: r"\b(?:[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{100,112}\b|(?:ED25519-V3|RSA1024):[A-Za-z0-9+/]{40,}={0,2})",
        replace: REDACTED,
    },
    Rule {
        // Password hashes: crypt(3) (`$6$…`, `$y$…`, `$2b$…`, `$argon2id$…`) and LDAP's.
        prefilter: &[
            "$1$", "$2", "$5$", "$6$", "$y$", "$gy$", "$7$", "$argon2", "{ssha", "{sha", "{crypt",
            "{pbkdf2",
        ],
        pattern: r"(?:\$(?:1|2[abxy]?|5|6|y|gy|7|argon2(?:id|i|d))\$[^\s'\x22]{8,}|\{(?:SSHA|SHA|SSHA256|SSHA512|SHA256|SHA512|CRYPT|PBKDF2[^}]*)\}[A-Za-z0-9+/=.$]{8,})",
        replace: REDACTED,
    },
    Rule {
        // SQL: `… PASSWORD 'x'`, `IDENTIFIED BY 'x'` (or unquoted).
        prefilter: &["password '", "password \"", "identified by"],
        pattern: r#"(?i)(?P<k>\bPASSWORD\s+|\bIDENTIFIED\s+BY\s+)(?P<v>'[^'\n]*'|"[^"\n]*"|[^\s;'"][^\s;]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // A DSN without a scheme (`app:pw@tcp(db:3306)/x`, `user:pw@host:5432`).
        prefilter: &["@"],
        pattern: r#"(?P<k>(?:^|[\s"'=(])[A-Za-z0-9_.-]+:)(?P<v>[^\s@"':/]{6,})@(?:tcp\(|unix\(|[A-Za-z0-9.-]+[:/])"#,
        replace: "${k}[REDACTED]@",
    },
    Rule {
        // Any option whose name says it takes a secret: `--passphrase X`,
        // `--account-key=X`, `--postman-api-key X`, `--from-literal=K=V`.
        prefilter: &[
            "pass",
            "token",
            "secret",
            "key",
            "auth",
            "credential",
            "from-literal",
        ],
        pattern: r#"(?i)(?P<k>--(?:[a-z0-9]+-)*(?:pass|passphrase|password|passwd|token|secret|key|apikey|auth|credentials?)(?:-[a-z0-9]+)*(?:=|\s+)|--from-literal=[^=\s]+=)(?P<v>"[^"\n]*"|'[^'\n]*'|[^\s"'-][^\s]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // A smart card's or a token's PIN on the command line (`pkcs11-tool --pin 0109`,
        // `--so-pin`, `--puk`): digits, which the pair rules keep as a count.
        prefilter: &["pin", "puk"],
        pattern: r"(?P<k>--(?:[a-z]+-)?(?:pin|puk)(?:=|\s+))\d{4,12}\b",
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Programs whose short option takes a password: `sshpass -p`, `docker login -p`,
        // `zip -P`, `redis-cli -a`, `xfreerdp /p:`, `rdesktop -p`, `htpasswd -b user pw`, `net use … pw`,
        // Windows' `schtasks … /RP pw` (the run-as password) and `/P pw`.
        prefilter: &[
            "sshpass",
            "login",
            "zip",
            "7z",
            "redis-cli",
            "/p:",
            "htpasswd",
            "net use",
            "--secret",
            "schtasks",
            "rdesktop",
        ],
        pattern: r#"(?P<k>\s/p:|\brdesktop\b[^\n]*?\s-p\s+|\bschtasks\b[^\n]*?\s/R?P\s+|\b(?:sshpass\s+-p\s*|(?:docker|podman|nerdctl|buildah|skopeo|oras|helm\s+registry)\s+login\b[^\n]*?\s-p\s*|(?:zip|unzip|7z|7za)\b[^\n]*?\s-[pP]\s*|redis-cli\b[^\n]*?\s-a\s+|htpasswd\s+-b\S*\s+\S+\s+\S+\s+|net\s+use\s+\S+\s+\S+\s+|config\s+set\s+--secret\s+\S+\s+))(?P<v>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // A credential pair on a command line: a user option, then `-p`/`-P` with a value
        // (`exaplus -u SYS -p pw`, `sqlcmd -U sa -P pw`). A number there is a port
        // (`psql -U app -p 5432`).
        prefilter: &[" -u ", " -user ", " --user ", " --username "],
        // Both options of one command (no `|`, `;` or `&` between them). MySQL's `-p db`
        // asks for the password and names the database: a line with `my` in it
        // (`mysql`, `mysqldump`) is left to the rule for `-ppass`.
        pattern: r"(?m)^(?P<k>(?:[^m\n]|m[^y\n])*?[ \t]-(?:u|U|user|-user|-username)[ \t=]\S+(?:[^m\n|;&]|m[^y\n|;&])*?[ \t]-[pP][ \t]+)(?P<v>(?:[^\s\d<>|&;-]|\d+[^\s\d<>|&;])\S*)",
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Any Authorization scheme (`ApiKey`, `Bot`, `SSWS`, `Token`, …) and headers that
        // name a key, token, secret or auth (`X-Auth-Key`, `X-Api-Token`).
        prefilter: &[
            "authorization",
            "key:",
            "token:",
            "secret:",
            "auth",
            "password:",
            "-api:",
        ],
        pattern: r#"(?i)(?P<k>\bauthorization\s*:\s*[A-Za-z-]+\s+|\bx-[a-z0-9-]*(?:key|token|secret|auth|password)[a-z0-9-]*\s*:\s*|\bx-[a-z0-9-]+-api\s*:\s*)(?P<v>[^\s'"]{8,})"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // A cookie's values (`Cookie: sessionid=…; csrftoken=…`, `curl -b 'sid=…'`).
        prefilter: &["cookie", "-b "],
        pattern: r#"(?i)(?P<k>(?:\bcookie["']?\s*:\s*["']?|\s-b\s+['"]?|;\s*)[A-Za-z0-9_.%-]+=)(?P<v>[^;\s'"]{8,})"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Keys said with a shell's own syntax: fish's `set -gx DB_PASSWORD x`, an escaped
        // `DATABASE_PASSWORD\=x`, PowerShell's `ConvertTo-SecureString "x"`, an XML
        // `key="…Password" value="x"`, Python's `auth=("user", "pw")`.
        prefilter: &["set -", "\\=", "convertto-securestring", "value=", "auth"],
        pattern: r#"(?i)(?P<k>\bset\s+-[a-z]*x[a-z]*\s+[a-z0-9_]*(?:secret|token|pass|key)[a-z0-9_]*\s+|\b[a-z0-9_]*(?:secret|token|pass|key)[a-z0-9_]*\\=|convertto-securestring\s+(?:-string\s+)?|key="[^"\n]*(?:password|secret|token|apikey|api_key)[^"\n]*"\s+value="|\bauth\s*=\s*\(\s*["'][^"'\n]*["']\s*,\s*)(?P<v>"[^"\n]*"|'[^'\n]*'|[^\s"'][^\s"]*)"#,
        replace: "${k}[REDACTED]",
    },
    Rule {
        // Secret-named keys the pair rule above does not name: `pass`, `DB_PASS`,
        // `SMTP_PASS`, `ansible_ssh_pass`, `DD_APP_KEY`, `SESSION_KEY`, `"auth"`,
        // `sessionid`, `seed`, and the short names `pw`, `pswd`, `tkn`. A diff's `+` or
        // `-` before a line's key is no part of it (`+DB_PASS=…` in `git show`).
        prefilter: &[
            "pass", "_key", "auth", "session", "seed", "sid", "pw", "psw", "tkn",
        ],
        pattern: r#"(?im)(?P<k>(?:^[+-]?|[\s"'{,;(])["']?(?:[a-z0-9_.-]*[_.-])?(?:pass|pw|pswd|psw|pword|tkn|key|auth|sessionid|session_id|sid|seed)["']?\s*[=:][ \t]*)(?P<v>"[^"$<\n][^"\n]*"|'[^'$<\n][^'\n]*'|[^\s&;,'"$<{][^\s&;,'"]*)"#,
        replace: "${k}[REDACTED]",
    },
];

/// The pieces of `text` between separators, never empty, with their byte offsets in it.
fn pieces(text: &str, separator: impl Fn(char) -> bool) -> impl Iterator<Item = (usize, &str)> {
    text.split(separator)
        .filter(|p| !p.is_empty())
        .map(move |p| (p.as_ptr() as usize - text.as_ptr() as usize, p))
}

/// Appends `text` to `out` with each of `spans` (a piece of `text` and its byte offset,
/// in order and apart) replaced by `[REDACTED]`; whether any was.
fn push_redacted<'t>(
    out: &mut String,
    text: &str,
    spans: impl IntoIterator<Item = (usize, &'t str)>,
) -> bool {
    let mut last = 0;
    let mut any = false;
    for (at, piece) in spans {
        out.push_str(&text[last..at]);
        out.push_str(REDACTED);
        last = at + piece.len();
        any = true;
    }
    out.push_str(&text[last..]);
    any
}

/// `text` with `spans` redacted (as `push_redacted`), or `None` when there is none.
fn redacted_spans(text: &str, spans: Vec<(usize, &str)>) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    push_redacted(&mut out, text, spans).then_some(out)
}

/// A rule that finds secrets by what stands around them: the text redacted, if it holds one.
type Finder<'a> = dyn Fn(&str) -> Option<String> + 'a;

fn compiled(i: usize) -> &'static Regex {
    static CACHE: [OnceLock<Regex>; RULES.len()] = [const { OnceLock::new() }; RULES.len()];
    CACHE[i].get_or_init(|| Regex::new(RULES[i].pattern).expect("redaction patterns are valid"))
}

/// Returns `text` with every secret replaced by `[REDACTED]`.
pub fn redact(text: &str) -> Cow<'_, str> {
    // Terminal colours cut `password = value` into pieces no rule reads whole (`bat`,
    // `jq -C`, `grep --color=always`), and nothing kept has use for them.
    if text.contains('\u{1b}') {
        return Cow::Owned(redact(&crate::text::strip_ansi(text)).into_owned());
    }
    // A wire log shows each line's end as text (Apache HttpClient's `"X-Key: v[\r][\n]"`),
    // glued to the value: read as the whitespace it stands for, shown again after.
    if text.contains("[\\r]") && !text.contains(['\u{b}', '\u{c}']) {
        let spaced = text
            .replace("[\\r]", "\u{b}\u{b}\u{b}\u{b}")
            .replace("[\\n]", "\u{c}\u{c}\u{c}\u{c}");
        return match redact(&spaced) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(out) => Cow::Owned(
                out.replace("\u{b}\u{b}\u{b}\u{b}", "[\\r]")
                    .replace("\u{c}\u{c}\u{c}\u{c}", "[\\n]"),
            ),
        };
    }
    // A file inside one JSON string (a tool's result in a session log, a ConfigMap's
    // `.env`) has `\n` for its line breaks: the rules read it as the lines it holds.
    // The vertical tab is whitespace that no value takes in, and text never holds it
    // here; the length stays, so the escapes come back where they were.
    if !text.contains(['\n', '\u{b}']) && text.matches("\\n").nth(1).is_some() {
        let lined = text.replace("\\n", "\u{b}\n");
        let out = redact_lines(&lined);
        return match out {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(out) => Cow::Owned(out.replace("\u{b}\n", "\\n").replace('\n', "\\n")),
        };
    }
    redact_lines(text)
}

/// `redact` of text whose line breaks are its own.
fn redact_lines(text: &str) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut out = match key_pair::after_key_id(text, &lower) {
        Some(replaced) => Cow::Owned(replaced),
        None => Cow::Borrowed(text),
    };
    // Before the rules: `password: <value>` would take an app password's first group
    // and leave three.
    if let Some(replaced) = app_password::app_password(&out) {
        out = Cow::Owned(replaced);
    }
    // A locale's strings name secrets in every language and hold none.
    let ui_strings = [
        "locales/",
        "/locale/",
        "i18n",
        "l10n",
        "translations/",
        "/lang/",
        "/res/values",
        "strings.xml",
        "localizable.strings",
        ".xliff",
    ]
    .iter()
    .any(|w| lower.contains(w));
    for (i, rule) in RULES.iter().enumerate() {
        if !rule.prefilter.iter().any(|p| lower.contains(p)) {
            continue;
        }
        let re = compiled(i);
        // Pairs keep references and counts; every other rule replaces what it matches,
        // but for documentation's keys (`AKIAIOSFODNN7EXAMPLE`), which stand in for a
        // secret. Only a match that is one token is judged so (a key block or a command
        // line that says "here" further on is still a secret).
        let pair = re.capture_names().any(|n| n == Some("v"));
        let hay: &str = &out;
        let replaced = re.replace_all(hay, |caps: &regex::Captures| {
            let whole = &caps[0];
            let kept = if pair {
                caps.name("v").is_some_and(|v| {
                    let key = caps.name("k").map_or("", |k| k.as_str());
                    let start = caps.get(0).map_or(0, |m| m.start());
                    let after = &hay[caps.get(0).map_or(0, |m| m.end())..];
                    !is_secret_value(key, v.as_str())
                        || value::in_arn(&hay[..start])
                        // `${NAME:?message}`: the shell's error message, not a value.
                        || v.as_str().starts_with('?')
                            && (hay[..start].ends_with("${")
                                || hay[..start].ends_with('$') && whole.starts_with('{'))
                        || value::record_key(key, after)
                        || ui_strings && value::is_ui_string(v.as_str())
                })
            } else {
                // What follows an option's name (`--password ***`, Docker's "--password
                // via the CLI") is judged alone.
                let value = caps.name("k").map_or(whole, |k| {
                    &whole[k.end() - caps.get(0).map_or(0, |m| m.start())..]
                });
                value.len() <= 64
                    && !value.contains(char::is_whitespace)
                    && (value::is_placeholder(value)
                        || value::is_prose(value)
                        || value::is_shell_syntax(value))
            };
            if kept {
                whole.to_string()
            } else {
                let mut replaced = String::new();
                caps.expand(rule.replace, &mut replaced);
                replaced
            }
        });
        if let Cow::Owned(replaced) = replaced {
            out = Cow::Owned(replaced);
        }
    }
    // What no shape gives away: found by what stands next to it. A finder's literal
    // prefilter reads the text as it came (a redaction never removes the words it looks
    // for), so a large output is lower-cased once.
    let finders: [&Finder; 27] = [
        &wrapped::wrapped_private_keys,
        &|t: &str| wrapped::wallet_keys(t, &lower),
        &near::k8s_secret,
        &|t: &str| store::fetched_values(t, &lower),
        &|t: &str| url_path::keys_in_paths(t, &lower),
        &|t: &str| url_path::keys_after_names(t, &lower),
        &|t: &str| url_path::one_time_links(t, &lower),
        &|t: &str| fragment::keys_in_fragments(t, &lower),
        &|t: &str| login::login_tokens(t, &lower),
        &|t: &str| secret_file::printed_file(t, &lower),
        &|t: &str| cookie_jar::saved_cookies(t, &lower),
        &near::seed_phrase,
        &near::sensitive_values,
        &|t: &str| near::printed_secret(t, &lower),
        &near::near_words,
        &nested::under_secret_names,
        &layout::secret_columns,
        &layout::value_on_next_line,
        &|t: &str| named::named_values(t, &lower),
        &|t: &str| piped::piped_secrets(t, &lower),
        &|t: &str| usage::positional_secrets(t, &lower),
        &wire::wire_logins,
        &layout::terraform_sensitive,
        &validation::echoed_inputs,
        &shape::prefixed_keys,
        &random::free_tokens,
        &listed::list_item_passwords,
    ];
    for find in finders {
        if let Some(replaced) = find(&out) {
            out = Cow::Owned(replaced);
        }
    }
    if let Some(replaced) = dump::in_hex_dumps(&out, |bytes| redact(bytes).into_owned()) {
        out = Cow::Owned(replaced);
    }
    if let Some(replaced) = encoded::in_base64(&out, |decoded| redact(decoded).into_owned()) {
        out = Cow::Owned(replaced);
    }
    out
}

#[cfg(test)]
mod tests;
