//! A secret passed in the position a program's usage line names for one: after
//! `usage: rotate-dns.sh <env> <region> <key> [--dry-run]`, the third argument of
//! `./scripts/rotate-dns.sh prod eu-2 bf0d…` is the key, whatever its shape (a hex key
//! looks like any commit id).

/// Words of a placeholder that names a secret (`<key>`, `<api-token>`, `<PASSWORD>`).
const SECRET_PLACEHOLDERS: &[&str] = &[
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pass",
    "pw",
    "apikey",
    "credential",
];

/// The shortest argument taken for a secret in such a position.
const MIN_SECRET: usize = 6;

/// A usage line's program (its file name) and the positions of its arguments that take
/// a secret; `None` when it names none. Options and optional groups (`[--dry-run]`)
/// take no position.
fn usage(line: &str) -> Option<(&str, Vec<usize>)> {
    let lower = line.to_ascii_lowercase();
    let at = lower.find("usage:")?;
    let mut words = line[at + "usage:".len()..].split_whitespace();
    let program = words.next()?.rsplit('/').next()?;
    let positions: Vec<&str> = words
        .filter(|w| !w.starts_with(['[', '-']) && !w.ends_with(']'))
        .collect();
    let secret: Vec<usize> = positions
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            w.starts_with('<') && {
                let name = w.trim_matches(['<', '>']).to_ascii_lowercase();
                name.split(['-', '_', ' '])
                    .any(|part| SECRET_PLACEHOLDERS.contains(&part))
            }
        })
        .map(|(i, _)| i)
        .collect();
    (!program.is_empty() && !secret.is_empty()).then_some((program, secret))
}

/// Replaces the arguments given in a secret's position to a program whose usage line
/// the text shows; `None` when none.
pub fn positional_secrets(text: &str, lower: &str) -> Option<String> {
    if !lower.contains("usage:") {
        return None;
    }
    let mut known: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut spans: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if let Some(named) = usage(line) {
            known.push(named);
            continue;
        }
        let words: Vec<(usize, &str)> = super::pieces(line, char::is_whitespace).collect();
        // The first word that calls a program whose usage was shown.
        let Some((call, secret)) = words.iter().enumerate().find_map(|(i, (_, w))| {
            let name = w.rsplit('/').next().unwrap_or(w);
            known
                .iter()
                .find(|(program, _)| *program == name)
                .map(|(_, secret)| (i, secret))
        }) else {
            continue;
        };
        let args: Vec<&(usize, &str)> = words[call + 1..]
            .iter()
            .filter(|(_, w)| !w.starts_with('-'))
            .collect();
        for &position in secret {
            if let Some((at, arg)) = args.get(position)
                && arg.chars().count() >= MIN_SECRET
                && !arg.starts_with(['$', '<', '"', '\''])
                && !super::value::is_placeholder(arg)
            {
                spans.push((start + at, arg));
            }
        }
    }
    super::redacted_spans(text, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(text: &str) -> String {
        positional_secrets(text, &text.to_lowercase()).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn the_argument_in_a_secrets_position() {
        let text = "$ ./deploy.sh\nusage: deploy.sh <env> <api-token> [--force]\n$ ./deploy.sh prod 3f9a1c7e5b2d8f4a6c0e --force\n";
        assert_eq!(
            redacted(text),
            "$ ./deploy.sh\nusage: deploy.sh <env> <api-token> [--force]\n$ ./deploy.sh prod [REDACTED] --force\n"
        );
    }

    #[test]
    fn other_positions_and_programs_stay() {
        for text in [
            "usage: deploy.sh <env> <region>\n$ ./deploy.sh prod eu-west-1-long\n",
            "usage: deploy.sh <env> <token>\n$ ./other.sh prod 3f9a1c7e5b2d8f4a6c0e\n",
            "usage: deploy.sh <env> <token>\n$ ./deploy.sh prod $DEPLOY_TOKEN\n",
            "usage: git commit [-m <msg>]\n$ git commit -m 'fix the key rotation'\n",
        ] {
            assert_eq!(redacted(text), text);
        }
    }
}
