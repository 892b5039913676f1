//! A token given to a command-line tool's login as a plain argument (`sem connect HOST
//! TOKEN`, `ngrok config add-authtoken TOKEN`, `snyk auth TOKEN`, `wandb login KEY`),
//! where no option's name says what it is.

use super::near::looks_secret;

/// The verbs after which a tool takes its credentials.
const LOGIN_VERBS: &[&str] = &[
    "login",
    "connect",
    "auth",
    "authenticate",
    "authtoken",
    "add-authtoken",
];

/// The shortest argument taken for a token: longer than a host's or a user's name.
const MIN_TOKEN: usize = 20;

/// Replaces the token of every login command line; `None` when there is none.
pub fn login_tokens(text: &str, lower: &str) -> Option<String> {
    if !LOGIN_VERBS.iter().any(|v| lower.contains(v)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        // A command's verb is written in lower case; most lines hold none.
        if !LOGIN_VERBS.iter().any(|v| line.contains(v)) {
            out.push_str(line);
            continue;
        }
        let words: Vec<(usize, &str)> = super::pieces(line, char::is_whitespace).collect();
        // A command line: a program's name first (after a prompt's `$`), the verb
        // among its first words; prose ("failed to connect to …") is none.
        let command = words.first().is_some_and(|(_, w)| {
            w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "$>_-./".contains(c))
        });
        let verb = words
            .iter()
            .take(4)
            .position(|(_, w)| LOGIN_VERBS.contains(w))
            .filter(|_| command);
        // The next two arguments (a host may come first), never an option's value;
        // each one of them a token goes, so that a second pass finds nothing more.
        let tokens: Vec<(usize, &str)> = verb.map_or_else(Vec::new, |v| {
            words[v + 1..]
                .iter()
                .enumerate()
                .take(2)
                .filter(|(i, (_, w))| {
                    let after_option = *i > 0 && words[v + *i].1.starts_with('-');
                    !after_option && is_token(w)
                })
                .map(|(_, found)| *found)
                .collect()
        });
        changed |= super::push_redacted(&mut out, line, tokens);
    }
    changed.then_some(out)
}

/// A long token drawn at random: not an option, a host, a path, an address or an id
/// made of hex and dashes (a tenant's UUID).
fn is_token(word: &str) -> bool {
    word.chars().count() >= MIN_TOKEN
        && !word.starts_with('-')
        && !word.contains(['.', '/', '@', ':', '='])
        && !word.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        && looks_secret(word)
        && !word.contains(super::REDACTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Option<String> {
        login_tokens(text, &text.to_ascii_lowercase())
    }

    #[test]
    fn a_token_given_to_a_login_goes() {
        assert_eq!(
            run("$ sem connect acme.semaphoreci.com iPDy8IrNP8J5YC39yYmK\nconnected").as_deref(),
            Some("$ sem connect acme.semaphoreci.com [REDACTED]\nconnected")
        );
        assert_eq!(
            run("ngrok config add-authtoken 2bXq9LmT4vRk8ZpW1nYc7Hs3Jd6_5fGh").as_deref(),
            Some("ngrok config add-authtoken [REDACTED]")
        );
        // Two of them go in one pass: a second finds nothing more.
        let both = run("x login Q7fh2KxP9mZ3tW8vB1nR5c Hx93kLmQ2pZ7vW1tR8bNq").unwrap();
        assert_eq!(both, "x login [REDACTED] [REDACTED]");
        assert_eq!(run(&both), None);
    }

    #[test]
    fn hosts_users_and_ids_stay() {
        for text in [
            "az login --tenant 72f988bf-86f1-41af-91ab-2d7cd011db47",
            "docker login registry.gitlab.com -u deploy-bot",
            "kubectl auth can-i create deployments --namespace prod",
            "gh auth login --hostname github.example.com --git-protocol ssh",
            "ssh: connect to host 10.0.0.5 port 22: Connection refused",
            "Failed to connect to OrderProcessingService2Client after 3 retries",
        ] {
            assert_eq!(run(text), None, "{text}");
        }
    }
}
