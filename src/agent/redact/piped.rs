//! A secret piped into a command that reads one from its standard input: `echo 'pw' |
//! docker login --password-stdin`, `echo pw | sudo -S …`, `printf '%s' 'pw' | openconnect
//! --passwd-on-stdin`, `echo 'user:pw' | chpasswd`, `printf pw | cryptsetup … --key-file=-`.

use std::sync::OnceLock;

use regex::Regex;

/// What a command says to take its secret from standard input (case matters: `sudo -s`
/// runs a shell, `sudo -S` reads the password).
const READS_A_SECRET: &[&str] = &[
    "--password-stdin",
    "--passwd-on-stdin",
    "--password-from-stdin",
    "--pass-stdin",
    "--token-stdin",
    "--with-token",
    "sudo -S",
    "chpasswd",
    "passwd --stdin",
    "--key-file=-",
    "--key-file -",
    "--passphrase-fd 0",
    "--passphrase-fd=0",
    "-passin stdin",
    "vault login -",
];

/// `echo`/`printf` with its value, then the command after the pipe.
fn piped() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"\b(?:echo|printf)(?:\s+-[a-zA-Z]+)*\s+(?:(?:'[^'\n]*%[^'\n]*'|"[^"\n]*%[^"\n]*")\s+)?(?P<v>'[^'\n]*'|"[^"\n]*"|[^\s|'"]+)\s*\|\s*(?P<cmd>[^\n|]*)"#,
        )
        .expect("a valid pattern")
    })
}

/// Replaces every secret piped into a command that reads one; `None` when none.
pub fn piped_secrets(text: &str, lower: &str) -> Option<String> {
    if !lower.contains('|') || !READS_A_SECRET.iter().any(|r| text.contains(r)) {
        return None;
    }
    let mut spans: Vec<(usize, &str)> = Vec::new();
    for caps in piped().captures_iter(text) {
        let (Some(v), Some(cmd)) = (caps.name("v"), caps.name("cmd")) else {
            continue;
        };
        if !READS_A_SECRET.iter().any(|r| cmd.as_str().contains(r)) {
            continue;
        }
        let quoted = v.as_str().starts_with(['\'', '"']) as usize;
        let mut start = v.start() + quoted;
        let mut value = &text[start..v.end() - quoted];
        // `user:password` for chpasswd: the user is no secret.
        if cmd.as_str().contains("chpasswd")
            && let Some((user, _)) = value.split_once(':')
        {
            start += user.len() + 1;
            value = &value[user.len() + 1..];
        }
        let value = value.trim_end_matches("\\n");
        if value.is_empty()
            || value.starts_with('$')
            || value.contains(super::REDACTED)
            || super::value::is_placeholder(value)
        {
            continue;
        }
        spans.push((start, value));
    }
    super::redacted_spans(text, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(text: &str) -> String {
        piped_secrets(text, &text.to_lowercase()).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn a_secret_piped_into_a_command_that_reads_one() {
        for (text, want) in [
            (
                "$ echo 'hunter2X9' | docker login -u me --password-stdin reg.io",
                "$ echo '[REDACTED]' | docker login -u me --password-stdin reg.io",
            ),
            (
                "$ echo Tr0ub4dor | sudo -S apt update",
                "$ echo [REDACTED] | sudo -S apt update",
            ),
            (
                "$ printf '%s\\n' 'Gate-Code-77' | openconnect --user ops --passwd-on-stdin vpn",
                "$ printf '%s\\n' '[REDACTED]' | openconnect --user ops --passwd-on-stdin vpn",
            ),
            (
                "$ echo 'ops:N3wPass!' | chpasswd",
                "$ echo 'ops:[REDACTED]' | chpasswd",
            ),
        ] {
            assert_eq!(redacted(text), want);
        }
    }

    #[test]
    fn what_is_no_secret_stays() {
        for text in [
            "$ echo $REGISTRY_TOKEN | docker login -u me --password-stdin reg.io",
            "$ echo \"${PW}\" | sudo -S true",
            "$ echo 'ls -la' | sudo -s",
            "$ echo hello | grep h",
            "$ echo '<your-password>' | docker login --password-stdin",
        ] {
            assert_eq!(redacted(text), text);
        }
    }
}
