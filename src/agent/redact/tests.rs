use super::*;

/// (text, the secret that must disappear)
const SECRETS: &[(&str, &str)] = &[
    (
        "aws configure set aws_access_key_id AKIAQ3EGUYT2LRNW4K7D",
        "AKIAQ3EGUYT2LRNW4K7D",
    ),
    (
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYq8Zr2TnWkV",
        "wJalrXUtnFEMI/K7MDENG",
    ),
    (
        "git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/x/y",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    (
        "GH_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz gh pr list",
        "github_pat_11ABCDEFG",
    ),
    (
        "curl -H 'PRIVATE-TOKEN: glpat-9fKq2LmZ8xTbR4vW1nYc' https://gitlab.com/api",
        "glpat-9fKq2LmZ8xTbR4vW1nYc",
    ),
    (
        "ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 claude",
        "sk-ant-api03-abcdefghij",
    ),
    (
        "openai.api_key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD'",
        "sk-proj-abcdefghijklmnop",
    ),
    (
        "stripe charges create --api-key sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    ),
    (
        "SLACK=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012",
    ),
    (
        "post to https://hooks.slack.com/services/T000/B000/Qm4Zk8Rt2Lx9Wv3N",
        "T000/B000/Qm4Zk8Rt",
    ),
    (
        "maps key AIzaSyA1234567890abcdefghijklmnopqrstuv in config",
        "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    ),
    (
        "npm config set //registry.npmjs.org/:_authToken npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "npm_abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    (
        "huggingface-cli login --token hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
        "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA7",
    ),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (truncated",
        "b3BlbnNzaC1rZXktdjEAAAAA",
    ),
    (
        "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "dozjgNryP4J3jVmNHl0w5N",
    ),
    (
        "curl -H \"Authorization: Bearer abcdef0123456789abcdef0123456789\" api",
        "abcdef0123456789abcdef0123456789",
    ),
    (
        "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ==' x",
        "dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ==",
    ),
    (
        "psql postgres://admin:s3cr3tP4ss@db.internal:5432/app",
        "s3cr3tP4ss",
    ),
    ("mysql --user=root --password=hunter2 app", "hunter2"),
    (
        "https://api.example.com/v1?token=abc123def456&page=2",
        "abc123def456",
    ),
    (
        "DB_PASSWORD='correct horse battery staple' ./run.sh",
        "correct horse battery staple",
    ),
    (
        "{\"client_secret\": \"9f8e7d6c5b4a\", \"grant\": \"x\"}",
        "9f8e7d6c5b4a",
    ),
    (
        "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=Zm9vYmFyYmF6cXV4==;EndpointSuffix=core",
        "Zm9vYmFyYmF6cXV4==",
    ),
    (
        "sendgrid SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
        "SG.abcdefghijklmnopqrstuv",
    ),
];

/// Texts that look a little like secrets and must pass unchanged.
const LOOK_ALIKES: &[&str] = &[
    "cargo test -p ledger-core parse_amount",
    "set max_tokens=4096 in the request",
    "pip install scikit-learn sk-video",
    "the AKIA prefix marks AWS access keys",
    "implement the password reset flow",
    "git commit -m 'fix token refresh race'",
    "the bearer of bad news",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop",
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----",
    "id 550e8400-e29b-41d4-a716-446655440000",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "go get example.com/mod@v1.2.3",
    "mail alice@example.com about it",
    "postgres://localhost:5432/app_test",
    "docker login --password-stdin < token.txt",
    "let token_count = tokens.len();",
    "npm_config_cache=/tmp/npm",
    "image sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
    "ghp_ is the prefix of a GitHub token",
    "xoxo, see you",
    "https://github.com/rust-lang/rust/issues/1234",
    "passwords: see the vault docs",
    "The key insight is caching.",
];

#[test]
fn secrets_are_redacted() {
    assert!(SECRETS.len() >= 20);
    for (text, secret) in SECRETS {
        let out = redact(text);
        assert!(!out.contains(secret), "not redacted: {text}\n -> {out}");
        assert!(out.contains(REDACTED), "{text}");
    }
}

#[test]
fn look_alikes_survive() {
    assert!(LOOK_ALIKES.len() >= 20);
    for text in LOOK_ALIKES {
        assert_eq!(redact(text), *text);
    }
}

#[test]
fn keys_of_pairs_are_kept() {
    assert_eq!(
        redact("mysql --password=hunter2"),
        "mysql --password=[REDACTED]"
    );
    assert_eq!(
        redact("curl -H 'Authorization: Bearer abcdef0123456789abcdef0123456789'"),
        "curl -H 'Authorization: Bearer [REDACTED]'"
    );
    assert_eq!(
        redact("postgres://u:p4ss@h/db"),
        "postgres://u:[REDACTED]@h/db"
    );
}

#[test]
fn clean_text_is_borrowed() {
    assert!(matches!(redact("cargo build"), Cow::Borrowed(_)));
}

/// Round two: the spellings a red-team pass found getting through, and their kin.
const MORE_SECRETS: &[(&str, &str)] = &[
    ("db_password=hunter2-Very-Secret", "hunter2-Very-Secret"),
    ("DB_PASSWORD: s3cr3t-p4ss", "s3cr3t-p4ss"),
    ("github_token=abc123def456ghi789", "abc123def456ghi789"),
    ("GITHUB_TOKEN: abc123def456ghi789", "abc123def456ghi789"),
    (
        "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCY",
        "wJalrXUtnFEMIK7MDENGbPxRfiCY",
    ),
    (
        "curl -u admin:pa55w0rd https://api.example.com/v1",
        "pa55w0rd",
    ),
    (
        "curl --user deploy:Tr0ub4dor https://x.example.com",
        "Tr0ub4dor",
    ),
    ("psql --password Sup3rS3cret -h db", "Sup3rS3cret"),
    (
        "vault login --token=hvs.CAESIabcdef123456",
        "hvs.CAESIabcdef123456",
    ),
    ("mysql -u root -pS3cretRoot db", "S3cretRoot"),
    ("mysqldump -uroot -pRootPw123 shop > dump.sql", "RootPw123"),
    (
        "curl -H 'X-Api-Key: 9f8e7d6c5b4a39281706' https://api.example.com",
        "9f8e7d6c5b4a39281706",
    ),
    ("x-api-key: 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
    (
        "client_secret: \"8Q~abcDEF.ghiJKL_mno\"",
        "8Q~abcDEF.ghiJKL_mno",
    ),
    (
        "{\"client_secret\": \"8Q~abcDEF.ghiJKL_mno\"}",
        "8Q~abcDEF.ghiJKL_mno",
    ),
    (
        "curl -X POST https://hooks.slack.com/services/T000/B000/Qm4Zk8Rt2Lx9Wv3N",
        "Qm4Zk8Rt2Lx9Wv3N",
    ),
    (
        "https://discord.com/api/webhooks/123456789012345678/abcDEF-ghiJKL_mnoPQR",
        "abcDEF-ghiJKL_mnoPQR",
    ),
    (
        "DATABASE_URL=postgres://app:Pa55word@db.internal:5432/app",
        "Pa55word",
    ),
    (
        "mongodb+srv://user:m0ng0Pass@cluster0.example.net/test",
        "m0ng0Pass",
    ),
    (
        "Server=db;Database=app;User Id=sa;Password=Y0urStr0ng!;",
        "Y0urStr0ng!",
    ),
    ("redis://:redisPass99@cache:6379/0", "redisPass99"),
    (
        "SENTRY_AUTH_TOKEN=sntrys_abcdefghijklmnop",
        "sntrys_abcdefghijklmnop",
    ),
    ("auth_token = 'Zm9vYmFyYmF6cXV4'", "Zm9vYmFyYmF6cXV4"),
    (
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
        "abcdefghijklmnopqrstuvwxyz012345",
    ),
    (
        "authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ==",
        "dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ",
    ),
    ("export PGPASSWORD=pgS3cret", "pgS3cret"),
    ("export MYSQL_ROOT_PASSWORD=rootS3cret", "rootS3cret"),
    (
        "stripe_secret_key=rk_live_51Habcdefghijklmnop",
        "rk_live_51Habcdefghijklmnop",
    ),
    (
        "encryption_key: 0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef",
    ),
    ("SIGNING_KEY=ed25519:abcdefghijk", "ed25519:abcdefghijk"),
    ("passphrase = correct horse battery", "correct"),
    ("jwtSecret: supersecretjwtvalue", "supersecretjwtvalue"),
    ("apiKey=\"AKx9-2mm-Q7\"", "AKx9-2mm-Q7"),
    (
        "npm config set //registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "npm_abcdefghij",
    ),
    (
        "docker login -u me --password hunter22 registry.example.com",
        "hunter22",
    ),
    ("op signin --secret-key A3-Q8ZK4T", "A3-Q8ZK4T"),
    (
        "gh auth login --with-token < token.txt; API_TOKEN=tok_live_1234567890",
        "tok_live_1234567890",
    ),
    (
        "twilio: account_sid=AC123, auth_token=0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef",
    ),
];

/// Texts that look like secrets but are not, and must stay as they are.
const MORE_LOOK_ALIKES: &[&str] = &[
    "author: Jane Doe",
    "primary_key = id",
    "sort_key: created_at",
    "the token bucket refills at 10/s",
    "password reset emails go out at 9",
    "export DB_PASSWORD=$DB_PASSWORD_FROM_VAULT",
    "password: ${DB_PASSWORD}",
    "token: <your token here>",
    "mysql -u root -p",
    "curl -u me https://example.com",
    "keyboard shortcuts: ctrl+k",
    "the secret sauce is caching",
    "auth middleware checks the session",
    "git log --author=alice",
    "monkey=banana",
    "cargo test -p store",
    "pnpm -p filter",
    "tokenizer.js handles BPE",
];

#[test]
fn round_two_spellings_are_redacted() {
    for (text, secret) in MORE_SECRETS {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
        assert!(out.contains(REDACTED), "{text} -> {out}");
    }
    assert!(SECRETS.len() + MORE_SECRETS.len() >= 60);
}

#[test]
fn round_two_look_alikes_survive() {
    for text in MORE_LOOK_ALIKES {
        assert_eq!(redact(text), *text, "{text}");
    }
}

/// Round three: shapes the first two rounds did not know (written from the forms these
/// tools document, not from a corpus entry).
const THIRD_SECRETS: &[(&str, &str)] = &[
    (
        "curl 'https://bucket.s3.amazonaws.com/a.zip?X-Amz-Expires=60&X-Amz-Signature=3f1c2b9a8d7e6f5a4b3c2d1e0f9a8b7c'",
        "3f1c2b9a8d7e6f5a4b3c2d1e0f9a8b7c",
    ),
    (
        "POST https://chat.example.com/v1/spaces/AAA/messages?key=Qw3rTy9UiOp2AsDfGhJkLz&token=Zx8CvBn7Mq",
        "Qw3rTy9UiOp2AsDfGhJkLz",
    ),
    (
        "sqlcmd -S db01 -U sa -P 'Tr0ub4dor&3x' -Q 'SELECT 1'",
        "Tr0ub4dor&3x",
    ),
    (
        "ldapsearch -x -D cn=admin,dc=ex -w S3cr3tPw! -b dc=ex",
        "S3cr3tPw!",
    ),
    ("plink -ssh admin@10.0.0.5 -pw Hx7#kq92Lm", "Hx7#kq92Lm"),
    (
        "composer config -g http-basic.repo.example.com alice 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
    ("sqlplus scott/Tiger2024x@//db:1521/ORCL", "Tiger2024x"),
    ("SECRET_KEY = b'\\x8f\\x01k\\xe2Zq\\x93'", "x8f"),
    (
        "$ gh auth token\ngho_notAprefixButLong0123456789abcdefXYZ\n",
        "gho_notAprefixButLong0123456789abcdefXYZ",
    ),
    (
        "{\n  \"api_url\": {\n    \"sensitive\": true,\n    \"type\": \"string\",\n    \"value\": \"hunter2hunter2\"\n  }\n}",
        "hunter2hunter2",
    ),
    ("password hytq jkko itvf pfyz", "hytq jkko itvf pfyz"),
    ("Mật khẩu wifi là 84736251, nhớ đổi sau nhé", "84736251"),
    (
        "-----BEGIN OpenVPN Static key V1-----\n6acef03f62675b4b1bbd03e53b187727\n-----END OpenVPN Static key V1-----",
        "6acef03f62675b4b1bbd03e53b187727",
    ),
];

const THIRD_LOOK_ALIKES: &[&str] = &[
    "ping -c 100000 10.0.0.1",
    "grep -P '^\\d{4}-[A-Z]{2}$' codes.txt",
    "mysql -h db -P 3306 -u app",
    "the password must be at least 12 characters",
    "https://example.com/search?q=signature+verification",
    "cache key: v1-deps-9f8e7d6c5b4a3928",
    "stringData:\n  API_KEY: {{ .Values.apiKey | quote }}",
    "$ op read --help",
];

#[test]
fn round_three_shapes_are_redacted() {
    all_redacted(THIRD_SECRETS);
}

#[test]
fn round_three_look_alikes_survive() {
    all_survive(THIRD_LOOK_ALIKES);
}

/// Every secret of `cases` (text, secret) is gone from its redacted text.
fn all_redacted(cases: &[(&str, &str)]) {
    for (text, secret) in cases {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
}

/// Every look-alike comes out as it went in.
fn all_survive(texts: &[&str]) {
    for text in texts {
        assert_eq!(redact(text), *text, "{text}");
    }
}

/// Shapes added in the fourth round, in examples of our own: a key's words joined by
/// `_`, a value inside a call's escaped quotes, a key file's body under its heading, a
/// child of a parent that names secrets, BIP32 and Tor keys.
const FOURTH_SECRETS: &[(&str, &str)] = &[
    (
        "[profile]\nsigning_pass_phrase=Quartz-lemon-58-delta",
        "Quartz-lemon-58-delta",
    ),
    ("[db]\nsenha_do_banco = Rv7-Kq2pX~wLm9", "Rv7-Kq2pX~wLm9"),
    (
        "\"source\": [\"client.login(key=\\\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\\\")\"]",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
    ),
    (
        "untrusted comment: signify secret key\nRWRCSwAAAACzJBN2gYc3mXgmc9JQvVLwdMt7xKjFBcQ0ErBAbtGwTk3PLZkZTRTg09Ru/qWxR9aMt1Ke",
        "RWRCSwAAAACzJBN2gYc3mXgmc9JQvVLwdMt7xKjFBcQ0ErBAbtGwTk3PLZkZTRTg09Ru/qWxR9aMt1Ke",
    ),
    (
        "{\n  \"gitlab-token\": {\n    \"git.corp.example\": \"a1b2c3d4e5f60718293a4b5c6d7e8f9012345678\"\n  }\n}",
        "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
    ),
    (
        "registry_credentials:\n  ghcr.io: Zk4pQ9rT2vW7yB1nM6sD8fH3jL5",
        "Zk4pQ9rT2vW7yB1nM6sD8fH3jL5",
    ),
    (
        "tpub and tprv: tprv8ZgxMBicQKsPd9TeAdPADNnSyH9SSUUbTVeFszDE23Ki6TBB5nCefAdHkK8Fm3qMQR6sHwA56zqRmKmxnHk37JkiFzvncDqoKmPWubu7hDF",
        "tprv8ZgxMBicQKsPd9TeAdPADNnSyH9SSUUbTVeFszDE23Ki6TBB5nCefAdHkK8Fm3qMQR6sHwA56zqRmKmxnHk37JkiFzvncDqoKmPWubu7hDF",
    ),
    (
        "250-PrivateKey=ED25519-V3:yLSDc8b11PaIHTtNtvi9lNW99IME2mdrO4k381zDkHv//WRUGrkBALBQ9MbHy2SLA/NmfS7YxmcR/FY8toRkoQ==",
        "yLSDc8b11PaIHTtNtvi9lNW99IME2mdrO4k381zDkHv",
    ),
];

/// Look-alikes of the fourth round: a secret's reference under a secret's key, a
/// vault's address with spaces, ciphertext meant to be committed, a public key file.
const FOURTH_LOOK_ALIKES: &[&str] = &[
    "  password:\n    from_secret: smtp_password",
    "DB_PASSWORD=op://Platform/Postgres Main/password",
    "config:\n  shop:apiToken:\n    secure: v1:Qm9aU2lnbmVkQ2lwaGVydGV4dEJsb2JIZXJlMTIz",
    "password: ENC[AES256_GCM,data:Zm9vYmFyYmF6cXV4,iv:bm9uY2U=,tag:dGFnZ2Vk,type:str]",
    "untrusted comment: minisign public key 5C1D4E2F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
    "sorted(rows, key=lambda r: r.created_at)",
];

#[test]
fn round_four_shapes_are_redacted() {
    all_redacted(FOURTH_SECRETS);
}

#[test]
fn round_four_look_alikes_survive() {
    all_survive(FOURTH_LOOK_ALIKES);
}

/// A corpus of secrets and look-alikes, redacted: the secrets that survived (by the
/// entry's position) and the look-alikes that did not.
struct Measured {
    secrets: usize,
    missed: Vec<(usize, String)>,
    keeps: usize,
    mangled: Vec<(usize, String)>,
}

fn measure(file: &str) -> Measured {
    #[derive(serde::Deserialize)]
    struct Corpus {
        secret: Vec<Case>,
        keep: Vec<Keep>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        category: String,
        text: String,
        secret: String,
    }
    #[derive(serde::Deserialize)]
    struct Keep {
        category: String,
        text: String,
        keep: String,
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/secrets")
        .join(file);
    let corpus: Corpus = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let missed = corpus
        .secret
        .iter()
        .enumerate()
        .filter(|(_, c)| redact(&c.text).contains(c.secret.as_str()))
        .map(|(i, c)| {
            let line = crate::text::one_line(&c.text, 140);
            (i, format!("[{}] {line}", c.category))
        })
        .collect();
    let mangled = corpus
        .keep
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            let out = redact(&k.text);
            (!out.contains(k.keep.as_str())).then(|| {
                let line = format!(
                    "[{}] {} => {}",
                    k.category,
                    crate::text::one_line(&k.text, 100),
                    crate::text::one_line(&out, 100)
                );
                (i, line)
            })
        })
        .collect();
    Measured {
        secrets: corpus.secret.len(),
        missed,
        keeps: corpus.keep.len(),
        mangled,
    }
}

/// The held-out corpus (`tests/data/secrets/corpus.toml`, written from the shapes of real
/// secrets, not from these rules): every secret gone, every look-alike intact.
#[test]
fn the_held_out_corpus() {
    let m = measure("corpus.toml");
    // The corpus is split: even entries were read while generalising the rules, odd
    // ones never were; both halves are reported and held to what they reach.
    let [read, unread]: [Vec<&String>; 2] = [0, 1].map(|half| {
        m.missed
            .iter()
            .filter(|(i, _)| i % 2 == half)
            .map(|(_, line)| line)
            .collect()
    });
    println!(
        "secrets missed: {} of {} (read while tuning), {} of {} (never read); look-alikes mangled: {} of {}",
        read.len(),
        m.secrets.div_ceil(2),
        unread.len(),
        m.secrets / 2,
        m.mangled.len(),
        m.keeps
    );
    for line in read.iter().copied().chain(m.mangled.iter().map(|(_, l)| l)) {
        println!("  {line}");
    }
    // What each half reaches now; a regression fails.
    assert!(read.len() <= 3, "{read:#?}");
    // Ninth corpus's round: 17 -> 16.
    assert!(unread.len() <= 16, "{} missed", unread.len());
    assert!(m.mangled.is_empty(), "{:#?}", m.mangled);
}

/// A blind corpus split in halves: even entries may be read while generalising, odd ones
/// never are. Prints the counts of both and the read half's misses; returns the secrets
/// missed and the look-alikes mangled, read half first.
fn measure_halves(file: &str, label: &str) -> ([usize; 2], [usize; 2]) {
    let m = measure(file);
    let half = |i: usize| i % 2;
    let missed = [0, 1].map(|h| m.missed.iter().filter(|(i, _)| half(*i) == h).count());
    let mangled = [0, 1].map(|h| m.mangled.iter().filter(|(i, _)| half(*i) == h).count());
    println!(
        "{label}: secrets missed {} of {} (read), {} of {} (never read); look-alikes mangled {} of {} (read), {} of {} (never read)",
        missed[0],
        m.secrets.div_ceil(2),
        missed[1],
        m.secrets / 2,
        mangled[0],
        m.keeps.div_ceil(2),
        mangled[1],
        m.keeps / 2,
    );
    let read = m
        .missed
        .iter()
        .chain(&m.mangled)
        .filter(|(i, _)| half(*i) == 0);
    for (_, line) in read {
        println!("  {line}");
    }
    (missed, mangled)
}

/// A second corpus (`tests/data/secrets/corpus2.toml`), written by a reviewer who never
/// read these rules, of services and syntaxes the first one does not name.
#[test]
fn the_second_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus2.toml", "second corpus");
    // First measured at 7 and 11 missed, 5 and 2 mangled; what each half reaches now.
    // Ninth corpus's round: a user and a password option on one line (7 -> 6).
    // Eleventh's: one look-alike fewer mangled (1 -> 0).
    assert!(missed[0] <= 3 && missed[1] <= 6, "{missed:?}");
    assert!(mangled[0] <= 1 && mangled[1] == 0, "{mangled:?}");
}

/// A third corpus (`tests/data/secrets/corpus3.toml`), written by a reviewer who never
/// read these rules, of shapes and wrappers the first two do not have (signed URLs, chat
/// webhooks, keys inside JSON strings, tokens CLIs print, passwords in tool flags, seeds
/// and recovery codes, prompts in seven more languages).
#[test]
fn the_third_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus3.toml", "third corpus");
    // First measured (before this round) at 18 and 18 missed, 1 and 5 mangled; what each
    // half reaches now.
    // Never-read half 10 -> 8 since a secret file's printing is read (seventh corpus).
    assert!(missed[0] == 0 && missed[1] <= 8, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 5, "{mangled:?}");
}

/// A fourth corpus (`tests/data/secrets/corpus4.toml`), written by a reviewer who never
/// read these rules, of systems and wrappers the first three do not have (CI servers and
/// package managers' auth files, less common databases and cloud CLIs, config keys in
/// other languages, history lines, unusual key formats, recovery codes, reversible router
/// passwords).
#[test]
fn the_fourth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus4.toml", "fourth corpus");
    // First measured (before this round) at 7 and 10 missed, 1 and 1 mangled; what each
    // half reaches now.
    // Never-read half 6 -> 5 since a saved cookie's value is read (seventh corpus).
    assert!(missed[0] == 0 && missed[1] <= 5, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 2, "{mangled:?}");
}

/// A fifth corpus (`tests/data/secrets/corpus5.toml`), written by a reviewer who never
/// read these rules, of shapes and contexts the first four do not have (config idioms of
/// more languages, unusual URL schemes, structured logs, environment dumps, HTTP debug
/// output, providers of AI, observability and payments, wrapped and tabular secrets).
#[test]
fn the_fifth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus5.toml", "fifth corpus");
    // First measured (before this round) at 6 and 4 missed, 4 and 5 mangled; what each
    // half reaches now.
    // Never-read half 4 -> 3 since a saved cookie's value is read (seventh corpus).
    // Ninth corpus's round: a drawn table's columns (missed 3 -> 2); a key's name that says
    // ciphertext or a lookup, kept (mangled 4 -> 3). Twelfth's: 2 -> 1 missed.
    // Thirteenth's: a date or time stamp never looks secret (mangled 3 -> 2).
    assert!(missed[0] == 0 && missed[1] <= 1, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 2, "{mangled:?}");
}

/// A sixth corpus (`tests/data/secrets/corpus6.toml`), written by a reviewer who never
/// read these rules, of what the first five do not have (token formats of 2025–26,
/// other CI systems' logs, debugger views, database GUI exports, pasted chat, shell
/// history, crash dumps, escaped and encoded values, passwords in prose in four more
/// languages, and hard look-alikes: public keys, ciphertext, test vectors).
#[test]
fn the_sixth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus6.toml", "sixth corpus");
    // Measured as it came, before any rule was changed for it: 8 and 10 missed, 4 and 4
    // mangled. Since then, from the read half: Persian's words for a password, `*_PAT`,
    // a secret store's answer, a node provider's key in a URL's path, the secret after its
    // HMAC key id, a token cut across a hex dump's rows. Twelfth's round: 9 -> 8;
    // thirteenth's: 8 -> 7 (and the read half 1 -> 0).
    assert!(missed[0] == 0 && missed[1] <= 7, "{missed:?}");
    // A mask, a prose word after `--password`, a `pubkey` and the storage emulator's
    // published key are kept since (read half 4 -> 1 mangled). Reading what a secret
    // file prints (from the seventh corpus) caught one more never-read secret here and
    // mangled one more never-read look-alike (4 -> 5), left unread.
    assert!(mangled[0] <= 1 && mangled[1] <= 5, "{mangled:?}");
}

/// What only looks like a secret after its key: a CI system's mask, Docker's own warning,
/// a public key by its short name, the storage emulator's published key. Each was
/// redacted in the seven people's transcripts or a corpus's read half.
#[test]
fn masks_prose_and_published_keys_are_kept() {
    for kept in [
        "/usr/bin/docker login -u acmeacr -p *** acmeacr.azurecr.io",
        "WARNING! Using --password via the CLI is insecure. Use --password-stdin.",
        "  token: ***",
        "ssh -o PubkeyAuthentication=no admin@192.168.127.253",
        "\"pubkey\": \"dW50cnVzdGVkIGNvbW1lbnQ6IG1pbmlzaWduIHB1YmxpYyBrZXk6IDMwQTMyOUY5NUM4OTlFRDIK\"",
        "AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;",
    ] {
        assert_eq!(redact(kept), kept, "{kept}");
    }
    // A password of stars and words is still one when it is more than a mask.
    assert!(!redact("docker login -u me -p s3cr3t*Pass registry.io").contains("s3cr3t"));
}

#[test]
fn a_personal_access_token_by_its_name_but_not_a_path() {
    let text = "$ AZURE_DEVOPS_EXT_PAT=Qx7vLm2Rt9Kp4Wz8Nb3Hc6Yd1Fg5Js0Ae az pipelines run";
    assert!(
        !redact(text).contains("Qx7vLm2Rt9Kp4Wz8"),
        "{}",
        redact(text)
    );
    let path = "export GOPATH=/home/a/go CARGO_TARGET_PATH=/tmp/x9Kp4Wz8Nb3Hc6Yd";
    assert_eq!(redact(path), path);
}

/// What says it stands in for a secret stays; a secret that merely holds such a word, or
/// a key block or command line that says "here" further on, is still redacted.
#[test]
fn placeholders_and_secrets_that_only_hold_their_words() {
    for kept in [
        "AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "export TAVILY_API_KEY=\"tvly-YOUR_API_KEY\"",
        "token: your-token-here",
        "password: changeme",
    ] {
        assert_eq!(redact(kept), kept, "{kept}");
    }
    for (text, secret) in [
        ("DB_PASSWORD=Your$Pass2024x", "Your$Pass2024x"),
        ("password: Dummy#2024abc", "Dummy#2024abc"),
        ("SECRET=fake-tundra-olive-7", "fake-tundra-olive-7"),
        (
            "curl -u your_user:pa55w0rdQ https://api.example.com/x",
            "pa55w0rdQ",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n(paste yours here)",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
}

/// A record's key names its value (`{"key": …, "value": …}`): the value is a secret only
/// when the key names one.
#[test]
fn a_record_is_judged_by_the_name_its_key_gives() {
    let record = r#"{"topic":"orders","key":"T1JELTg4MjEz","value":"eyJvcmRlcklkIjoiT1JELTg4MjEzIn0","partition":3}"#;
    assert_eq!(redact(record), record);
    let secret = r#"[{"key":"STRIPE_SECRET_KEY","value":"Zq8vT2mX9kL4pR7sW1nY"}]"#;
    assert!(
        !redact(secret).contains("Zq8vT2mX9kL4pR7sW1nY"),
        "{}",
        redact(secret)
    );
}

/// A seventh corpus (`tests/data/secrets/corpus7.toml`), written by a reviewer who never
/// read these rules: secret managers' and Kubernetes' outputs, database and broker
/// configs, payment, messaging, observability and AI providers not named before, session
/// cookies, OAuth refresh tokens, overlay networks, key blocks in other wrappers, Windows
/// command lines, passwords in prose in four more languages; and look-alikes of each.
#[test]
fn the_seventh_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus7.toml", "seventh corpus");
    // Measured as it came, on the build of the round before: 11 and 8 missed, 4 and 1
    // mangled; with this round's rules from the sixth corpus, before any for it: 11 and 7.
    // Since then, from the read half: a property list's key and value, a REPL's echo of a
    // secret-named attribute, a name ending in `pass`, letters drawn at random after a
    // secret's word, `schtasks /RP`, `sk_` with a shorter body, what a secret file prints,
    // the words for a password in more languages.
    // Then a saved cookie's value (storageState, HAR, fastlane's YAML, cookies.txt):
    // read half 4 -> 3, never-read half 7 -> 6; a `users.properties` printed: 3 -> 2.
    // Ninth corpus's round: never-read half 6 -> 5; tenth's: 5 -> 4.
    assert!(missed[0] <= 2 && missed[1] <= 4, "{missed:?}");
    // Kept since, from the read half: a certificate in base64, a locale's strings,
    // analytics cookies, an option followed by a redirection (read half 4 -> 0 mangled).
    assert!(mangled[0] == 0 && mangled[1] <= 1, "{mangled:?}");
}

/// An eighth corpus (`tests/data/secrets/corpus8.toml`), written by a reviewer who never
/// read these rules: config files and source of less common languages, infrastructure
/// outputs, diffs, Dockerfiles, HTTP traces, keys in URL fragments and query strings,
/// structured logs, shell and REPL history, Windows outputs, secret stores, database
/// and queue syntaxes, mobile, game and embedded builds, CI, prompts in four more
/// languages; and look-alikes of each.
#[test]
fn the_eighth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus8.toml", "eighth corpus");
    // Measured as it came, on this round's build before any rule for it: 6 and 10
    // missed, 2 and 2 mangled. Since then, from the read half: keys in a URL's
    // fragment, a URL written with one slash, a stored secret fetched by its name, a
    // markup element's text read apart from its tags (never-read half 10 -> 8).
    // Then a token given to a command-line login as a plain argument: read half 2 -> 1.
    // Ninth corpus's round: what a command naming a secret prints (never-read 8 -> 7);
    // tenth's: 7 -> 6.
    assert!(missed[0] <= 1 && missed[1] <= 6, "{missed:?}");
    // Kept since: a password manager's `PROTECTED`, an Android locale's strings.
    assert!(mangled[0] == 0 && mangled[1] <= 2, "{mangled:?}");
}

/// The eighth corpus's read half, as rules: each shape alone.
#[test]
fn shapes_of_the_eighth_corpus() {
    for (text, secret) in [
        (
            "link: https://send.example.com/#XLxiwJuqFTwUpOGTAA7PA/q7S8JOuE0q0YN8JjvWDVhw",
            "q7S8JOuE0q0",
        ),
        (
            "ArgumentError: Could not parse rfc1738 URL from string 'mssql+pyodbc:/etl:82MbxI5T~FlUQ5b3@sql01:1433/dw'",
            "82MbxI5T",
        ),
        (
            "$ gopass show -o infra/prod/db-password\nWnx73VOMgCL8wQFDkoegBybOcW79PmFO\n",
            "Wnx73VOMg",
        ),
        (
            "<entry><secretKey>Zq8#Lm2Vx9!Tr4Wp</secretKey></entry>",
            "Zq8#Lm2Vx9",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "Title: pfSense\nUserName: admin\nPassword: PROTECTED\nURL: https://10.0.0.1",
        "<!-- res/values-ca/strings.xml -->\n<string name=\"login_password_hint\">Contrasenya</string>",
        "Author: Jane Doe <141371150+jane-doe@users.noreply.github.com> (auth rework)",
        "https://docs.example.com/guide#section-2-installation-on-windows",
    ] {
        assert_eq!(redact(text), text);
    }
}

/// The seventh corpus's read half, as rules: each shape alone.
#[test]
fn shapes_of_the_seventh_corpus() {
    for (text, secret) in [
        (
            "<key>RCLONE_CONFIG_PASS</key>\n\t<string>qOOsIh8-klPOV81E3RbRAg</string>",
            "qOOsIh8",
        ),
        (
            ">>> client.refresh_token\n'AB11563099691shW5HrcSmPKoc50U2'",
            "AB115630",
        ),
        (
            "    logzio_token  eRAdaPfsiZMDkONQzwnbOssjusogbOZS",
            "eRAdaPfs",
        ),
        (
            "schtasks /Create /TN x /RU ACME\\svc /RP T2DH*hbgTH7to4Zuti5W /F",
            "T2DH*hbg",
        ),
        (
            "new Checkout(\"sk_oa4qbac2d7tviw5ahlqf33jf2tm\")",
            "oa4qbac2",
        ),
        (
            "$ sudo cat /var/lib/zerotier-one/identity.secret\n8eb3e1757d:0:4d518ec0388d0c121eb263cd2023e0bd77c3",
            "4d518ec0",
        ),
        ("নতুন পাসওয়ার্ড হলো _d*RJP#Y1O#oC_i1DAsh", "_d*RJP#Y"),
        ("{ \"password\": \"Contraseña\" }", "Contraseña"),
        (
            "<User>acme</User>\n<Pass encoding=\"base64\">RjNwOUs2YkBKWkguanI3ZVFu</Pass>",
            "RjNwOUs2",
        ),
        (
            "Cookie: sessionid=q7W2e9R4t1Y8u3I6o5P0; _ga=GA1.1.15771",
            "q7W2e9R4",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for kept in [
        "the token comes from AuthenticationTokenProvider now",
        "官方金鑰 `SWITCH_Official_General`",
        "密碼照剝 server 端；移除 `SubagentState.configs/plugins`、`rust_layer/src/lib.rs:270`",
        "$ cat ~/.ssh/id_ed25519.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq7W2e9R4t1Y8u3I6o5P0 me@host",
        "<key>Bypass</key>\n<string>q7W2e9R4t1Y8u3I6o5P0</string>",
        "    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJn",
        "$ jq . public/locales/es/common.json\n{ \"password\": \"Contraseña\", \"apiToken\": \"Token de API\" }",
        "> cookie: _ga=GA1.1.1577162405.1764150000; _gcl_au=1.1.1725533811.1764150000",
        "export API_KEY=\"$(security find-generic-password -s api-key -w 2>/dev/null)\"",
    ] {
        assert_eq!(redact(kept), kept, "{kept}");
    }
}

#[test]
fn a_second_value_after_a_secret_word_is_redacted_in_the_same_pass() {
    // The second value stands beyond the word's reach in the text as written, within it
    // once the first is replaced: one pass must reach as far as the next one would
    // (found by the fuzz test as "redacting twice redacts more").
    let text = "my otp is Q7fh2KxP9mZ3tW8vB1nR5cY0dL4sJ6gAq2Wm8Zr then Hx93kLmQ2pZ7vW1tR8bN";
    let once = redact(text).into_owned();
    assert!(!once.contains("Q7fh2KxP9"), "{once}");
    assert!(!once.contains("Hx93kLmQ2"), "{once}");
    assert_eq!(redact(&once), once);
}

/// A ninth corpus (`tests/data/secrets/corpus9.toml`), written by a reviewer who never
/// read these rules: config formats not used before, build caches, database shells and
/// brokers, test output and REPL sessions, cloud and secret-store CLIs, CI traces, key
/// material, webhooks, signed URLs and session cookies, OTP seeds and licences, proxies
/// and tunnels, Kubernetes, start-up errors, prompts in four more languages; and
/// look-alikes of each.
#[test]
fn the_ninth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus9.toml", "ninth corpus");
    // Measured as it came, on this round's build before any rule for it: 13 and 11
    // missed, 3 and 2 mangled. Since then, from the read half: the segment after one
    // that names a key in a URL's path, what a command that names a secret prints,
    // a drawn table's columns, a user and a password option on one command line, a
    // Nostr key, the input a validation error echoes (read half 13 -> 4); ciphertext
    // and a lookup key under a key's name, the documented TOTP example kept (3 -> 0).
    // None of it reached this corpus's never-read half; five earlier never-read halves
    // gained one each. The twelfth's round: never-read 11 -> 10.
    assert!(missed[0] <= 4 && missed[1] <= 10, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 2, "{mangled:?}");
}

/// A tenth corpus (`tests/data/secrets/corpus10.toml`), written by a reviewer who never
/// read these rules: AI gateways, log shippers, payments and SMS, feature flags, vector
/// databases and auth providers; KDL, Pkl, Starlark, psd1, Caddyfile, nginx, HAProxy and
/// systemd credentials; history lines, form and GraphQL bodies, escaped JSON in logs;
/// environment dumps of cmd.exe, PowerShell, tmux and `ps`; Windows registry exports
/// and unattend files; diffs of four VCSs; SQL dumps; mobile configs; wrapped private
/// keys; cookies and tokens in headers; recovery codes; prompts in eight more
/// languages; and look-alikes of each.
#[test]
fn the_tenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus10.toml", "tenth corpus");
    // Measured as it came, before any rule for it: 6 and 7 missed, 1 and 6 mangled.
    // Since then, from the read half: a hex body after a prefix that names a server's or
    // a secret key, an XML element that names a password and holds its value in a
    // child, a private key wrapped in base64, a wallet's key in import format, an
    // authenticator's seed file, "key" in Spanish and twenty more languages; a
    // `NAME=value` line is no printed secret (read half 6 -> 0, 1 -> 0 mangled). The
    // never-read half: 7 -> 5 missed; the seventh's and eighth's one fewer each. The
    // twelfth's round: 5 -> 4.
    assert!(missed[0] == 0 && missed[1] <= 4, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 6, "{mangled:?}");
}

/// The ninth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_ninth_corpus() {
    for (text, secret) in [
        (
            "curl -d '{}' https://chat.example.org/hooks/k3x9qz7wm1pd5rtha8y2ucn4ev",
            "k3x9qz7wm1",
        ),
        (
            "$ vaultctl get-secret-value --name /prod/billing/stripe-api-key\n5c1e9a7d-3b2f-4e8a-9d6c-1f0b2a3c4d5e\n",
            "5c1e9a7d",
        ),
        (
            "$ keycloak admin initial-password\nVq8mT3xL9wR2zK7p\n",
            "Vq8mT3xL9",
        ),
        (
            "+------+--------------------------------+\n| Name | Key                            |\n+------+--------------------------------+\n| ci   | Zx81mQ0pLw7vR3tY9bN2kD5hJ6fG4sA1 |\n+------+--------------------------------+",
            "Zx81mQ0pLw7",
        ),
        (
            "$ vsql -u dbadmin -p Kq7#vT2m9XwL -h vertica01",
            "Kq7#vT2m9XwL",
        ),
        (
            "nostr --sec nsec14cwvtpawnkadfygmckl3rvxdwv5mq6hs3u9m9gltcgjplzxh82jjcq0m62",
            "nsec14cwvtpa",
        ),
        (
            "1 validation error for Settings\nsentry_auth_token\n  String too short [type=string_too_short, input_value='Pm4vXq8tL2wZ9rKb', input_type=str]",
            "Pm4vXq8tL2",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "$ aws kms encrypt --key-id alias/app --plaintext fileb://api-secret.txt --query CiphertextBlob --output text\nAQICAHhq3sdfT0pLw7vR3tY9bN2kD5hJ6fG4\n",
        "  ActionKey: 4f0e9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7",
        "{ \"encryptedKeyset\": \"CiQAsQn2W7kLm9Xp4Rt8Yz1Vb6Nc3Hd5Jf0Gq2Ks7Lw==\" }",
        "uri = \"otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example\"",
        "| Token | Size |\n|---|---|\n| Display/D5 | 40px |",
        "$ psql -U app -h db -p 5432 ledger",
        "mysql -h db -u app -p shop < dump.sql",
        "sort -u names.txt && pwd -P >| /tmp/cwd",
    ] {
        assert_eq!(redact(text), text);
    }
}

/// An eleventh corpus (`tests/data/secrets/corpus11.toml`), written by a reviewer who
/// never read these rules: what an agent sees in a day's work — test runners and linters,
/// stack traces of six more languages, container and Kubernetes inspection, IaC and cloud
/// CLI output, config listings, dotfiles, request files, devtools' copies, notebooks,
/// database tools' history, brokers and directories, VPNs, artifact repositories, mobile
/// and game signing, framework secrets, HashiCorp tools, prompts in eight more
/// languages; and look-alikes of each.
#[test]
fn the_eleventh_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus11.toml", "eleventh corpus");
    // Measured as it came, before any rule for it: 4 and 9 missed, 4 and 3 mangled.
    // Since then, from the read half: what a console's expression naming a secret prints
    // (`terraform console`), a salt named by a command, a long random line after one,
    // an app-specific password, the words for a password in eleven more languages (read
    // half 4 -> 0); kept: an AWS resource name, a field's name as a value, a mask that
    // keeps the vendor's prefix, ciphertext in `ENC(…)`, an id under a name of ids that
    // are public by design (read half 4 -> 0 mangled). The never-read half, 9 and 3,
    // was measured four times while that last rule was narrowed (Nomad's `Secret ID`).
    // The twelfth's round: never-read 9 -> 7; the thirteenth's: 7 -> 6.
    assert!(missed[0] == 0 && missed[1] <= 6, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 3, "{mangled:?}");
}

/// A twelfth corpus (`tests/data/secrets/corpus12.toml`), written by a reviewer who
/// never read these rules: secrets in shapes nobody lists — in-house tokens with no
/// vendor prefix and often no telling name (log lines, custom headers, positional
/// arguments, chat pastes, passphrases of words, PINs), names in other languages and
/// abbreviated, prompts in eight more languages, URL-encoded and escaped values, diffs,
/// tables, heredocs, Windows listings, traces; and look-alikes of each.
#[test]
fn the_twelfth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus12.toml", "twelfth corpus");
    // Measured as it came, before any rule for it: 17 and 18 missed, 1 and 1 mangled.
    // Since then, from the read half: a value given under a name field (`- name:
    // DB_PASSWORD` then `value: …`; an entry's `key: x-svc-auth` is a name, kept), a
    // diff's `+`/`-` before a key, `pw`/`tkn`/`pswd`, a PIN option, `rdesktop -p`, a
    // password with `=` in it, a secret piped into a command that reads one from its
    // input, a login on the wire (`AUTH`, `LOGIN`, `PASS`), a one-time link's token,
    // what `secret-tool lookup` and its kin print, "key" and "secret" in more
    // languages (the header named this corpus's languages, so the never-read half's
    // prompts are not blind for that list), a random token standing free in a line, the
    // RFCs' example credentials kept, an argument in the position a usage line names
    // for a secret (read half 17 -> 4 missed, 1 -> 0 mangled). The never-read half:
    // 18 -> 13 missed, 1 -> 0 mangled (measured three times: midway, at 17; after the
    // rules; after the usage line's, unchanged).
    // The thirteenth's round: a random value under a name that says nothing of it
    // (`RELAY_SHARED=…`, `session = …`; not under an id's name): read 4 -> 2, and the
    // never-read half, measured a fourth time, 13 -> 12.
    assert!(missed[0] <= 2 && missed[1] <= 12, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] == 0, "{mangled:?}");
}

/// A thirteenth corpus (`tests/data/secrets/corpus13.toml`), written by a reviewer who
/// never read these rules: common secrets in the ordinary places an agent meets them
/// (migration tools, a process's locals and properties, IDE and local-runtime files,
/// mail and package-tool configs, commit and PR text, crash pages, HTTP clients'
/// histories, browser storage, environment dumps, temporary cloud credentials, local CI
/// runners, key files, signing secrets, ORM configs, recorded HTTP fixtures, encoded
/// blobs, prompts in eight more languages), and look-alikes of each.
#[test]
fn the_thirteenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus13.toml", "thirteenth corpus");
    // Measured as it came, before any rule for it: 6 and 1 missed, 3 and 2 mangled.
    // Since then, from the read half: a configuration listed as `section.name value`, a
    // token in a conda channel's path, OpenVPN's other keys, Laravel's `base64:` key,
    // base64 whose decoded text holds a secret, an app password after a word for a
    // password in any language (the header named this corpus's languages: Basque's word
    // was added knowing it); kept: a date or time stamp, a mask that shows the last
    // characters, Strapi's documented placeholder, a code block's opener taken for a
    // mapping, Application Insights' instrumentation key (read half 6 -> 0 missed, 3 -> 0
    // mangled). The never-read half, measured once after: 1 and 2, unchanged.
    assert!(missed[0] == 0 && missed[1] <= 1, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 2, "{mangled:?}");
}

#[test]
fn the_fourteenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus14.toml", "fourteenth corpus");
    // Measured as it came, before any rule for it (once a panic it found was mended:
    // a name after a letter of several bytes): 6 and 8 missed, 4 and 0 mangled. Since
    // then, from the read half: a `.properties` value on its continued line, an RTMP
    // stream key, `curl -u KEY:`, words for a password or a key in twenty-odd more
    // languages (the header named this corpus's eight); kept: `${NAME:?message}`, a
    // name that begins with `public`, PubNub's publish and subscribe keys, a host's name
    // or a URL's `@host:port` after a word for a key (read half 6 -> 0 missed, 4 -> 0
    // mangled). The never-read half, measured once after: 6 and 0.
    assert!(missed[0] == 0 && missed[1] <= 6, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] == 0, "{mangled:?}");
}

/// A fifteenth corpus (`tests/data/secrets/corpus15.toml`), written by a reviewer who
/// never read these rules: secrets in tool output (environment listings, decoded
/// Kubernetes secrets, cloud CLIs' files, CI logs, HTTP clients' debug logs, stack
/// traces, crash dumps), service units, web-server and IaC configs, package-tool
/// credentials, JDBC/ODBC strings, broker URLs, code in fourteen more languages, prompts
/// in eight more human languages, odd names and new vendors' tokens; and look-alikes.
#[test]
fn the_fifteenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus15.toml", "fifteenth corpus");
    // Measured as it came, before any rule for it: 5 and 7 missed, 5 and 4 mangled.
    // Since then, from the read half: a random token (base64 too) after a sentence's
    // colon in any language, a `pepper`, Apple's `kSecValueData`; kept: Lob's
    // publishable keys, TeamCity's `credentialsJSON:` references, a Helm chart's
    // `existingSecret`, Apple's `crashReporterKey` (read half 5 -> 1 missed, 5 -> 2
    // mangled). The never-read half, measured once after: 7 and 4, unchanged.
    assert!(missed[0] <= 1 && missed[1] <= 7, "{missed:?}");
    assert!(mangled[0] <= 2 && mangled[1] <= 4, "{mangled:?}");
}

/// A sixteenth corpus (`tests/data/secrets/corpus16.toml`), written by a reviewer who never
/// read the redaction code: secrets as the agent's tools carry them, decorated or escaped
/// (the Read tool's line numbers, Grep's `path:line:`, colour escapes, JSON-escaped
/// strings, diffs, shell traces, wrapped and URL-encoded values, units and CI logs), and
/// pasted into prompts in Esperanto, Māori, Javanese and Igbo.
#[test]
fn the_sixteenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus16.toml", "sixteenth corpus");
    // Measured as it came, before any rule for it: 1 and 4 missed, 2 and 0 mangled.
    // From the read half: colours stripped before the rules, a JSON string's `\n`
    // read as the line break it stands for, a product's version (`HTTP/1.1`) and a
    // query's encoded path no secret (read half 1 -> 0 missed, 2 -> 0 mangled; the
    // never-read half, measured once after: unchanged, 4 and 0).
    assert!(missed[0] == 0 && missed[1] <= 4, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] == 0, "{mangled:?}");
}

/// A seventeenth corpus (`tests/data/secrets/corpus17.toml`), written by a reviewer who
/// never read the redaction code: secrets that programs echo back in their own messages
/// (SDK errors, HTTP clients' debug logs, drivers' DSN errors, debug dumps, test diffs,
/// build and language-server logs), typed in prompts in Dhivehi, Yiddish, Sorani, Uyghur,
/// Tatar, Tigrinya, Cantonese and Assamese, and encoded or split (base64 and hex blobs,
/// string literals joined in code, passwords in URLs of unusual schemes).
#[test]
fn the_seventeenth_held_out_corpus() {
    let (missed, mangled) = measure_halves("corpus17.toml", "seventeenth corpus");
    // Measured as it came, before any rule for it: 8 and 5 missed, 0 and 1 mangled.
    // From the read half: quotation marks of other scripts (`密碼係「…」`, `«…»`) part a
    // value from the words before it, a wire log's `[\r][\n]` is the line end it
    // stands for, and the words for a password or a key in Tatar, Dhivehi and Sorani
    // (read half 8 -> 3 missed; left: a 64-hex token in an XCTest failure, a base64
    // task body, a key split across `concat!`). The never-read half, measured once
    // after: unchanged, 5 and 1.
    assert!(missed[0] <= 3 && missed[1] <= 5, "{missed:?}");
    assert!(mangled[0] == 0 && mangled[1] <= 1, "{mangled:?}");
}

/// The seventeenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_seventeenth_corpus() {
    for (text, secret) in [
        (
            "Redis 嘅密碼係「Qm7vTz2Lp9Xw4Rk8Jn3c」，點解",
            "Qm7vTz2Lp9Xw4Rk8Jn3c",
        ),
        (
            "le mot de passe est «Qm7vTz2Lp9Xw4Rk8Jn3c».",
            "Qm7vTz2Lp9Xw4Rk8Jn3c",
        ),
        (
            "wire : http-outgoing-0 >> \"X-Harbour-Key: Qm7vTz2Lp9Xw4Rk8Jn3cYd[\\r][\\n]\"",
            "Qm7vTz2Lp9Xw4Rk8Jn3cYd",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    // The line ends come back as they were shown.
    let wire = "http-outgoing-0 >> \"Host: api.harbour.example[\\r][\\n]\"";
    assert_eq!(redact(wire), wire);
    let out = redact("http-outgoing-0 >> \"X-Harbour-Key: Qm7vTz2Lp9Xw4Rk8Jn3cYd[\\r][\\n]\"");
    assert!(out.ends_with("[REDACTED][\\r][\\n]\""), "{out}");
}

/// The sixteenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_sixteenth_corpus() {
    // `bat` colours each word of `password = value` apart.
    let coloured = "\u{1b}[38;5;238m   4\u{1b}[0m \u{1b}[38;2;166;226;46mpassword\u{1b}[0m\u{1b}[38;2;248;248;242m \u{1b}[0m\u{1b}[38;2;249;38;114m=\u{1b}[0m \u{1b}[38;2;230;219;116mTern4471_Quay!\u{1b}[0m";
    let out = redact(coloured);
    assert!(!out.contains("Tern4471_Quay!"), "{out}");
    assert!(out.contains("password = "), "colours go, words stay: {out}");
    // A `.env` in one JSON string: its lines are read as lines, the escapes come back.
    let escaped = r#"{"content":"     3→SHIP_API_SECRET=Kp2wLx9QvT4mNz7RbY3c\n     4→SHIP_TOKEN=${SHIP_TOKEN}\n     5→SHIP_REGION=\n"},"uuid":"5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e"}"#;
    let out = redact(escaped);
    assert!(!out.contains("Kp2wLx9QvT4mNz7RbY3c"), "{out}");
    for kept in [
        "SHIP_TOKEN=${SHIP_TOKEN}\\n",
        "5→SHIP_REGION=\\n",
        "5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
    ] {
        assert!(out.contains(kept), "{kept} in {out}");
    }
    // An access log of a login page: a product's version and an encoded path are no
    // secrets; a query inside the encoded path still may hold one.
    let log = r#"10.1.2.3 - - [27/Nov/2026:09:30:58 +0100] "GET /login?next=%2Forders%2F5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e%2Fpdf HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11)""#;
    assert_eq!(redact(log), log);
    let hidden = r#""GET /login?next=%2Fexport%3Fkey%3DWq8Zt3Lx7Vn2Pb5Rk9Mc HTTP/1.1""#;
    assert!(!redact(hidden).contains("Wq8Zt3Lx7Vn2Pb5Rk9Mc"));
}

/// The fifteenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_fifteenth_corpus() {
    for (text, secret) in [
        (
            "Hei! Kollegi sendi mær hetta og segði at brúka tað: Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5 — hvussu?",
            "Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
        ),
        (
            "Salam! Bize şu setiri iberdi: kR8LMsQCcDTRBzqnWE764Y/0hEbVGTywXr3roDyb8hA= . Nädip saklap?",
            "kR8LMsQCcDTRBzqnWE764Y/0hEbVGTywXr3roDyb8hA=",
        ),
        (
            "APP_PEPPER=Zx81Qw2Er3Ty4Ui5Op6As7Df8Gh9Jk0L",
            "Zx81Qw2Er3Ty4Ui5Op6As7Df8Gh9Jk0L",
        ),
        (
            "my colleague sent this for the staging account: Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
            "Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
        ),
        // Only a Helm chart's `existingSecret` names a Secret; an old password is one.
        ("existing_password=Xq3!vLp9Rt2#Wm", "Xq3!vLp9Rt2#Wm"),
        (
            "    kSecValueData as String: \"q9WmZ2xT7vK4pL8sN3bY6cH1dF5gJ0rE\".data(using: .utf8)!",
            "q9WmZ2xT7vK4pL8sN3bY6cH1dF5gJ0rE",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
    for keep in [
        "new LobAutocomplete({ apiKey: 'live_pub_4c2a9e1f7b3d8a6e5f0c1b2d3e4f5a6' })",
        "password(\"env.DEPLOY_TOKEN\", \"credentialsJSON:0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e\")",
        "  existingSecret: billing-db",
        "{\"app_name\":\"Desk\",\"crashReporterKey\":\"0A1B2C3D4E5F60718293A4B5C6D7E8F901234567\"}",
        // From the round's review: a variable in keychain code, a plugin's flag, a
        // Helm value set on the command line, a digest or a key's coordinate in prose
        // or one-line JSON.
        "        kSecValueData as String: passwordData]",
        "--register-pepper-plugins=/opt/lib.so;application/x-ppapi",
        "helm install x --set auth.existingSecret=app-db",
        "the hash is: 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
        "{\"kty\": \"EC\", \"x\": \"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU\"}",
        // Base64 under a name is a digest, a public key or ciphertext, not prose.
        "PublicKey = Qm9vV2x3Ym0rZ1ZhY0dIcXl4dE1kZk5KbGpXeXE0PQ8=",
        "    secure: 42T4STFOMFtnBrzNbo0rFHAcNJcldug7diTq/IrrLasyOG1dgNUC8qm+bvtmMXmX",
    ] {
        assert_eq!(redact(keep), keep);
    }
}

/// The fourteenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_fourteenth_corpus() {
    for (text, secret) in [
        (
            "mail.password=\\\n    Zt4q!Lw9Rk2mPx7V\nmail.port=587\n",
            "Zt4q!Lw9Rk2mPx7V",
        ),
        (
            "ffmpeg -re -i in.mp4 -f flv rtmp://live.twitch.tv/app/live_48213977_Qw3rTy8uIoP2aSdF",
            "live_48213977_Qw3rTy8uIoP2aSdF",
        ),
        (
            "curl -u rk_live_51Hx9QmK2vL8pT4w: https://api.example.com/v1/items",
            "rk_live_51Hx9QmK2vL8pT4w",
        ),
        (
            "Mae'r cyfrinair yw Hq7#Lm2xPw9!Tz4 ond mae'n methu",
            "Hq7#Lm2xPw9!Tz4",
        ),
        (
            "ключ: калиди махфӣ ин аст 6cdd50e5c30d56bf0a1b2c3d4e5f6a7b8c9d",
            "6cdd50e5c30d56bf0a1b2c3d4e5f6a7b8c9d",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
    for text in [
        "      DB_PASSWORD: ${DB_PASSWORD:?set DB_PASSWORD in .env}",
        "<assemblyIdentity name=\"Acme.Core\" publicKeyToken=\"b77a5c561934e089\" />",
        "  subscribeKey: 'sub-c-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',",
        "$ nmap --script ssh-hostkey db-02.acme.internal",
        "see `postgresql://app:<your-password>@localhost:5432/app`, never a real one",
        "rtmp://localhost/live/stream1",
        "curl -u deploy-bot-readonly: https://ci.example.com/api",
    ] {
        assert_eq!(redact(text), text, "{text}");
    }
}

/// What an independent review of those rules found: close variants they leaked, and
/// harmless text they took.
#[test]
fn the_fourteenth_rounds_review() {
    for (text, secret) in [
        // A name that only begins like an RTMP URL is judged as any other.
        ("RTMP_PASSWORD=hunter22", "hunter22"),
        (
            "rtmp://streamer:hunter22@live.example.com/app/x",
            "hunter22",
        ),
        // A publish key outside PubNub is a secret.
        (
            "NUGET_PUBLISH_KEY=oy2kd7qz3m5xw8p1vt6rb9hc4nj0fgs2la7ue3yk5wq8",
            "oy2kd7qz3m5xw8p1vt6rb9hc4nj0fgs2la7ue3yk5wq8",
        ),
        // `curl -u KEY:` after a continued line, and attached.
        (
            "curl -X POST https://upload.example.io/api/v1/files \\\n  -u private_lKj9Qm2Xw8Rt5Vb3Np7Zq2: \\\n  -F file=@a.png",
            "private_lKj9Qm2Xw8Rt5Vb3Np7Zq2",
        ),
        (
            "curl -uprivate_lKj9Qm2Xw8Rt5Vb3Np7Zq2: https://api.example.io/v1",
            "private_lKj9Qm2Xw8Rt5Vb3Np7Zq2",
        ),
        // A continued value without indentation; an option's value on the next line.
        ("db.password=\\\nZt4q!Lw9Rk2mPx7V\n", "Zt4q!Lw9Rk2mPx7V"),
        (
            "psql-tool --password \\\n    Zt4q!Lw9Rk2mPx7V",
            "Zt4q!Lw9Rk2mPx7V",
        ),
        // An RTMP path with a middle segment.
        (
            "rtmp://ingest.example.tv/app/eu1/live_48213977_Qw3rTy8uIoP2aSdF",
            "live_48213977_Qw3rTy8uIoP2aSdF",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
    for text in [
        "      APP_KEY: ${APP_KEY:?APP_KEY is required}",
        "tokenizer_name = \\\n    \"bert-base-uncased\"",
        "rotate-secrets: \\\n\tbuild",
        "rtmp://localhost/live/test-stream-1",
        "rtmp://127.0.0.1/live/stream_1080p",
        "The signing key is on vault-01.corp.internal.",
        "ssh key for db-02.acme.internal:22",
    ] {
        assert_eq!(redact(text), text, "{text}");
    }
}

/// The thirteenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_thirteenth_corpus() {
    for (text, secret) in [
        (
            "$ git config --get-regexp '^sendemail'\nsendemail.smtpuser ops@example.org\nsendemail.smtppass qkrtvmbwzhe7x2ns\n",
            "qkrtvmbwzhe7x2ns",
        ),
        (
            "channels:\n  - https://conda.anaconda.org/t/tk-8f2c91d4-55ab-4e1c-9d0f-7a3b6e2c1f08/acme\n",
            "tk-8f2c91d4-55ab",
        ),
        (
            "-----BEGIN OpenVPN tls-crypt-v2 server key-----\nq8Ws2LzP0xRt5vN1q8Ws2LzP0xRt5vN1\n-----END OpenVPN tls-crypt-v2 server key-----\n",
            "q8Ws2LzP0xRt5vN1",
        ),
        (
            "$ php artisan key:generate --show\nbase64:Qm9vN3Zx8Lk2Pz5Rt1Wy4Hj6Ds9Fa0Ge3Cu7Bn2Mv8X=\n",
            "Qm9vN3Zx8Lk2Pz5Rt1Wy4Hj6Ds9Fa0Ge3Cu7Bn2Mv8X=",
        ),
        (
            "Aplikazio-pasahitza sortu dut: qwvz hktr pmbx nlfd eta ez dabil",
            "hktr pmbx",
        ),
        ("smtp_pass = qwvz hktr pmbx nlfd", "pmbx nlfd"),
        // A random value under a name that says nothing of it (the twelfth corpus's).
        (
            "+RELAY_SHARED=Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
            "Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
        ),
        (
            "session = Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
            "Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "{\"name\":\"CODECOV_TOKEN\",\"value\":\"xxxx6307\",\"created-at\":\"2026-09-14T08:22:51.913Z\"}",
        "APP_KEYS=\"toBeModified1,toBeModified2\"\nADMIN_JWT_SECRET=tobemodified\n",
        "def aws_credentials():\n    os.environ[\"AWS_SECRET_ACCESS_KEY\"] = \"testing\"\n    os.environ[\"AWS_DEFAULT_REGION\"] = \"eu-west-1\"\n",
        "InstrumentationKey=f4bf3051-679d-43f6-ace6-13fd42d58fdd;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/",
        "the `inputs` passed in? I do know that that this",
        "Reset your password when this form says so",
        "https://forum.example.org/t/how-to-rotate-deploy-keys-safely/4821",
        "https://discuss.python.org/t/python-3-12-install-fails-on-ubuntu-22-04/45678",
        "network.proxy.bypass localhost",
        "async for token in stream:\n    headers[\"Authorization\"] = f\"Bearer {token}\"\n",
        "{\"name\":\"NPM_TOKEN\",\"value\":\"••••3b07\"}",
        "request_id = Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5",
    ] {
        assert_eq!(redact(text), text);
    }
    // Redacting twice takes no more than once.
    for text in [
        "password hytq jkko itvf pfyz with this form",
        "password: hytq jkko itvf pfyz sync tryn vbkl\n",
    ] {
        let once = redact(text).into_owned();
        assert_eq!(redact(&once), once, "{text}");
    }
}

/// The twelfth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_twelfth_corpus() {
    for (text, secret) in [
        (
            "$ pkcs11-tool --login --pin 482913 --list-objects",
            "482913",
        ),
        ("$ rdesktop -u ops -p 'Xq7=Lm2#' 10.0.0.9", "Xq7=Lm2#"),
        (
            "{\"u\": \"etl\", \"pw\": \"Gh7#_kLq2WzP9vTe\"}",
            "Gh7#_kLq2WzP9vTe",
        ),
        (
            "curl -s \"https://r.int/x.csv?dt=1&tkn=Pq9vLm2XzR7tKw4sYb8N\"",
            "Pq9vLm2XzR7tKw4sYb8N",
        ),
        (
            "diff --git a/.env b/.env\n+DB_PASS='Kx82mQw0Lp7z'",
            "Kx82mQw0Lp7z",
        ),
        (
            "$ secret-tool lookup service sync user me\nwQ4-pL9!zRt2vX8k",
            "wQ4-pL9!zRt2vX8k",
        ),
        (
            "మా API కీ ఇది: Zk4mW9qLp2Xv7RtB3nYc8Hs",
            "Zk4mW9qLp2Xv7RtB3nYc8Hs",
        ),
        (
            "ਸਾਡਾ ਰਾਜ਼: 9f3a7c1e5b2d8f4a6c0e9b7d5f3a1c8e",
            "9f3a7c1e5b2d8f4a6c0e9b7d5f3a1c8e",
        ),
        (
            "https://portal.example.com/accounts/reset/MTA/d4k2qz-3f8a9c1e7b5d2f4a6c8e0b9d/",
            "d4k2qz-3f8a9c1e7b5d2f4a6c8e0b9d",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
        "        PASS [   0.412s] ledger::it budget::set_overwrites_existing_limit",
        "          - header:\n              key: x-svc-auth\n",
    ] {
        assert_eq!(redact(text), text);
    }
}

/// The tenth corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_tenth_corpus() {
    for (text, secret) in [
        (
            "client := acme.NewClient(\"acme_server_4c1d9e2a_7b3f_41d8_9a6e_2f5c8b0d7e13\")",
            "4c1d9e2a_7b3f",
        ),
        (
            "    <AdminPassword>\n        <Value>UABhAHMAcwB3AG8AcgBkADEAMgAzAEEAZABtAGkAbgA=</Value>\n        <PlainText>false</PlainText>\n    </AdminPassword>\n",
            "UABhAHMAcwB3",
        ),
        (
            "$ cat ~/.google_authenticator\nJ5QW4Z3SNRSXG2LNMFXGC43U\n\" TOTP_AUTH\n",
            "J5QW4Z3SNRSXG2",
        ),
        (
            "Aquí tienes la llave para probar: kq8Zt2Wm5Rx9Lp3Vn7Hc4Bd6",
            "kq8Zt2Wm5Rx9",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "$ grep -v -i secret .env\nAPP_CLIENT_ID=3f9a1c7e5b2d4f608a1c3e5b7d9f2a4c\n",
        "    <AdminPassword>\n        <PlainText>false</PlainText>\n    </AdminPassword>\n",
    ] {
        assert_eq!(redact(text), text);
    }
}

/// The eleventh corpus's read half, as rules: each shape alone (values made up here).
#[test]
fn shapes_of_the_eleventh_corpus() {
    for (text, secret) in [
        (
            "$ terraform console\n> nonsensitive(random_password.db.result)\n\"q8!Zt2#Wm5Rx9Lp3\"\n",
            "q8!Zt2#Wm5",
        ),
        (
            "$ wp config get NONCE_SALT --path=/srv/www\nX}7q:Lp2@Wm9#zR4$tV8^nB1&kD6*hF3!jG5%sA0\n",
            "X}7q:Lp2@Wm9",
        ),
        (
            "my app-specific password is abcd-efgh-ijkl-mnop.",
            "abcd-efgh-ijkl-mnop",
        ),
    ] {
        let out = redact(text);
        assert!(!out.contains(secret), "{out}");
    }
    for text in [
        "      key: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-Ab12Cd",
        "    secretKey: username",
        "  - Token: gho_************************************",
        "db.password=ENC(Qk5GNHdRdVlBdjJrY282NDB3dXVpV1ROSnc9PQ==)",
        "$ az ad app credential list --id 0dfeab03-d362-4802-bdd9-eb2f468af037",
        "    \"keyId\": \"75a33e29-c710-42f5-9d48-8c29068b1f4d\",",
    ] {
        assert_eq!(redact(text), text);
    }
    // Nomad's and Consul's bootstrap print the token as an id.
    let out = redact(
        "Accessor ID = 1c5e8a0b-2f7d-4e3a-9b6c-0d4f8e2a7c15\nSecret ID   = 7f3b9d2e-6a1c-4e8f-b5d0-2c9a7e4f1b36\n",
    );
    assert!(!out.contains("7f3b9d2e"), "{out}");
}
