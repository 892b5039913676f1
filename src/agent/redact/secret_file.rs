//! What a file that says it holds a secret prints (`cat /run/secrets/db_password`, `sudo
//! cat /var/lib/zerotier-one/identity.secret`, `type C:\keys\api.token`): every token of
//! a secret's shape in its output, up to the next command.

use super::near::looks_secret;

/// Commands that print a file.
const PRINTS: &[&str] = &[
    "cat ",
    "bat ",
    "head ",
    "tail ",
    "type ",
    "get-content ",
    "more ",
];

/// Words of a file's name that say it holds a secret (not `.pem`, which is as often a
/// certificate; a private key's block is redacted by its markers).
const SECRET_FILE_WORDS: &[&str] = &[
    "secret",
    "password",
    "private",
    "token",
    "credential",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    ".key",
    // An authenticator's seed file (`~/.google_authenticator`: the TOTP seed first).
    "authenticator",
    // A server's user list with their passwords (ActiveMQ Artemis, Tomcat's realm).
    "users.properties",
];

/// Replaces the secret-shaped tokens a secret file's printing shows; `None` when none.
pub fn printed_file(text: &str, lower: &str) -> Option<String> {
    if !PRINTS.iter().any(|p| lower.contains(p))
        || !SECRET_FILE_WORDS.iter().any(|w| lower.contains(w))
    {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut printing = false;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(command) = command_of(trimmed) {
            printing = prints_a_secret_file(command);
            out.push_str(line);
            continue;
        }
        if !printing {
            out.push_str(line);
            continue;
        }
        let secrets = tokens(line)
            .filter(|(_, t)| t.len() >= 16 && looks_secret(t) && !t.contains(super::REDACTED));
        changed |= super::push_redacted(&mut out, line, secrets);
    }
    changed.then_some(out)
}

/// The command of a shell transcript's line (`$ cat x`, `PS C:\> type x`; not `# x`,
/// which is as often a comment in the file).
fn command_of(line: &str) -> Option<&str> {
    if let Some(rest) = line.strip_prefix("$ ") {
        return Some(rest);
    }
    let (prompt, rest) = line.split_once("> ")?;
    (prompt.starts_with("PS ") || prompt.contains(":\\")).then_some(rest)
}

/// Whether a command prints a file whose name says it holds a secret (not its public
/// half, nor the system's user list).
fn prints_a_secret_file(command: &str) -> bool {
    let lower = command.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let printing = words
        .iter()
        .position(|w| PRINTS.iter().any(|p| p.trim_end() == *w));
    let Some(at) = printing else {
        return false;
    };
    // The files are the arguments up to a pipe.
    words[at + 1..]
        .iter()
        .take_while(|w| !matches!(**w, "|" | "&&" | ";" | ">"))
        .filter(|w| !w.starts_with('-'))
        .any(|file| {
            let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
            SECRET_FILE_WORDS.iter().any(|w| name.contains(w))
                && !name.ends_with(".pub")
                // Design tokens and a tokenizer's files hold none.
                && !name.contains("tokens")
                && !name.contains("tokeniz")
                && !name.contains("public")
                && !name.contains("example")
                && !name.contains("sample")
                // Ciphertext is meant to be committed (SOPS, sealed secrets).
                && !["sealed", "encrypted", ".enc", "sops"].iter().any(|c| name.contains(c))
        })
}

/// The tokens of a line, split at spaces, quotes, `=`, `,` and `:` (an identity file's
/// `address:0:public:private`), with their byte offsets.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    super::pieces(line, |c| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '=' | ',' | ':')
    })
}

#[cfg(test)]
mod tests {
    use super::printed_file;

    fn run(text: &str) -> Option<String> {
        printed_file(text, &text.to_lowercase())
    }

    #[test]
    fn a_secret_files_content_goes_up_to_the_next_command() {
        let text = "$ cat /run/secrets/db_password\nq7W2e9R4t1Y8u3I6o5P0\n$ cat README.md\nSee q7W2e9R4t1Y8u3I6o5P1 for the build id.\n";
        let out = run(text).expect("redacted");
        assert!(!out.contains("q7W2e9R4t1Y8u3I6o5P0"), "{out}");
        assert!(out.contains("q7W2e9R4t1Y8u3I6o5P1"), "{out}");
    }

    #[test]
    fn a_public_key_and_the_user_list_are_printed_as_they_are() {
        for text in [
            "$ cat ~/.ssh/id_ed25519.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq7W2e9R4t1Y8u3I6o5P0 me@host\n",
            "$ cat /etc/passwd | head -2\nroot:x:0:0:root:/root:/bin/bash\n",
            "$ cat .env.example\nAPI_TOKEN=q7W2e9R4t1Y8u3I6o5P0\n",
        ] {
            assert_eq!(run(text), None, "{text}");
        }
    }
}
