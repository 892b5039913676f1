//! The signature of a failure: the line of the error that says what went wrong, with
//! what varies between sightings (numbers, paths, hashes, versions) masked, so the same
//! failure seen through different commands or files is recognised as one.

/// Lines that say only that something failed, not why.
fn is_bare_status(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    let l = l.trim_start_matches("error: ");
    matches!(
        l.trim().trim_end_matches(':'),
        "error" | "fatal" | "warning" | "failed" | "failure" | "errors"
    ) || l.starts_with("exit code")
        || l.starts_with("exit status")
        || l.starts_with("process completed with exit code")
        || l.starts_with("command failed")
        || l.starts_with("error: command failed")
        || l.starts_with("elifecycle")
        || l.starts_with("npm err! a complete log")
        || l.trim().is_empty()
        || says_only_an_error_occurred(l)
}

/// "Error 13: an unknown error occurred", "Something went wrong.": an error, but which
/// one the other lines say.
fn says_only_an_error_occurred(lower: &str) -> bool {
    let said = lower
        .strip_prefix("error")
        .unwrap_or(lower)
        .trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
        .trim_start_matches(':')
        .trim()
        .trim_end_matches(['.', '!']);
    matches!(
        said,
        "an unknown error occurred"
            | "an unknown error has occurred"
            | "unknown error"
            | "an error occurred"
            | "an error has occurred"
            | "an unexpected error occurred"
            | "an unexpected error has occurred"
            | "unexpected error"
            | "something went wrong"
    )
}

/// Words that mark the telling line, strongest first.
const TELLING: &[&str] = &[
    "command not found",
    "no module named",
    "externally-managed-environment",
    "only-allow",
    "use \"",
    "use `",
    "please run",
    "run `",
    "requires",
    "not found",
    "no such file",
    "permission denied",
    "unknown",
    "is not a docker command",
    "error[",
    "error:",
    "err!",
    "fatal:",
    "exception",
    "cannot",
    "could not",
    "failed",
];

/// The telling line of an error excerpt (lines may be joined with ` | `).
pub fn telling_line(error: &str) -> &str {
    telling_line_among(error, &Banners::default())
}

/// Hashes of lines the project's succeeding commands print too (a shell banner, a
/// tool's greeting): such a line is never the error.
pub type Banners = std::collections::HashSet<u32>;

/// The telling line, banners aside.
pub fn telling_line_among<'a>(error: &'a str, banners: &Banners) -> &'a str {
    let lines = lines_of(error, banners);
    failure_among(&lines).unwrap_or_else(|| lines.first().copied().unwrap_or(""))
}

/// The line of `text` that says what failed, when one does (a text that may not be an
/// error at all: a pasted log).
pub fn failing_line(text: &str) -> Option<&str> {
    failure_among(&lines_of(text, &Banners::default()))
}

fn lines_of<'a>(error: &'a str, banners: &Banners) -> Vec<&'a str> {
    error
        .split(['\n', '|'])
        // Claude Code's screen, pasted back, marks a result with `⎿`.
        .map(|l| l.trim().trim_start_matches('⎿').trim_start())
        .filter(|l| !is_bare_status(l) && l.chars().any(char::is_alphabetic))
        .filter(|l| !banners.contains(&crate::agent::observation::line_hash(l)))
        .collect()
}

fn failure_among<'a>(lines: &[&'a str]) -> Option<&'a str> {
    TELLING.iter().find_map(|word| {
        lines
            .iter()
            .find(|l| l.to_ascii_lowercase().contains(word))
            .copied()
    })
}

/// An error line made to fit `max` characters for quoting: long paths give way first,
/// each to `…/` and its last two components (a Nix store path, a CI runner's work
/// folder), so that what the line says of them ("does not exist") stays; then the end
/// is clipped. The signature is unchanged by it: a path counts by its last component,
/// and a quoted one not at all.
pub fn quotable(line: &str, max: usize) -> String {
    let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    let length = |words: &[String]| words.iter().map(|w| w.chars().count() + 1).sum::<usize>();
    let mut order: Vec<usize> = (0..words.len()).collect();
    order.sort_by_key(|i| std::cmp::Reverse(words[*i].len()));
    for i in order {
        if length(&words) <= max + 1 {
            break;
        }
        if let Some(short) = shortened_path(&words[i]) {
            words[i] = short;
        }
    }
    crate::text::one_line_words(&words.join(" "), max)
}

/// `'/nix/store/…-source/home/u/obs.nix'` → `'…/u/obs.nix'`, quotes and punctuation
/// around it kept; `None` for a word that is no long path.
fn shortened_path(word: &str) -> Option<String> {
    const AROUND: &[char] = &['\'', '"', '`', '(', ')', '[', ']', '<', '>', ',', ';', ':'];
    let core = word.trim_matches(AROUND);
    let start = word.find(core)?;
    let parts: Vec<&str> = core.trim_end_matches('/').split('/').collect();
    if core.chars().count() <= 30 || parts.len() <= 3 || core.contains("://") {
        return None;
    }
    let tail = parts[parts.len() - 2..].join("/");
    Some(format!(
        "{}…/{tail}{}",
        &word[..start],
        &word[start + core.len()..]
    ))
}

/// The masked signature of an error: lower case, numbers → `N`, paths → their last
/// component, long hex → `H`, at most twelve words.
pub fn signature(error: &str) -> String {
    signature_among(error, &Banners::default())
}

/// The signature, banners aside.
pub fn signature_among(error: &str, banners: &Banners) -> String {
    let line = unquoted(telling_line_among(error, banners));
    let mut out: Vec<String> = Vec::new();
    for word in line.split_whitespace().take(16) {
        let w = word.trim_end_matches([',', ';']);
        let w = if w.contains('/') && w.len() > 1 {
            w.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(w)
                .to_string()
        } else {
            w.to_string()
        };
        let masked = mask(&w.to_ascii_lowercase());
        if !masked.is_empty() {
            out.push(masked);
        }
        if out.len() >= 12 {
            break;
        }
    }
    out.join(" ")
}

/// The line with what it quotes masked: names of resources, modules and files vary
/// between sightings of the same failure.
fn unquoted(line: &str) -> String {
    let mut out = String::new();
    let mut open: Option<char> = None;
    for c in line.chars() {
        match open {
            Some(q) if c == q || (q == '‘' && c == '’') || (q == '“' && c == '”') => {
                open = None;
                out.push('_');
                out.push(c);
            }
            Some(_) => {}
            None if matches!(c, '"' | '`' | '‘' | '“') => {
                open = Some(c);
                out.push(c);
            }
            // An apostrophe inside a word (don't) is no quote.
            None if c == '\'' && !out.ends_with(|p: char| p.is_alphanumeric()) => {
                open = Some(c);
                out.push(c);
            }
            None => out.push(c),
        }
    }
    out
}

fn mask(word: &str) -> String {
    let hexy = word.len() >= 7 && word.chars().all(|c| c.is_ascii_hexdigit());
    if hexy && word.chars().any(|c| c.is_ascii_digit()) {
        return "H".into();
    }
    let mut out = String::new();
    let mut in_number = false;
    for c in word.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else if c == '.' && in_number {
            // 1.2.3 stays one number.
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// The key that finds memories of a failure again: a hash of its signature's first
/// eight words (a memory quotes the telling line clipped, so more would not match).
/// `None` when the error says nothing but that it failed.
pub fn failure_key(error: &str) -> Option<String> {
    signature_key(&signature(error))
}

/// The key of a signature already masked (a recovery's `pattern` holds one whole).
pub fn signature_key(signature: &str) -> Option<String> {
    let words: Vec<&str> = signature.split_whitespace().take(8).collect();
    (words.len() >= 2)
        .then(|| format!("fails-{:x}", crate::text::fnv1a(words.join(" ").as_bytes())))
}

/// The failures a memory quotes whole: after `fails with "` up to `": ` (a recovery
/// instinct's trigger, an episode's lesson line) and after `failed with "` up to `"; `
/// (each sighting). A quote clipped with `…` is left out: its masked words are not the
/// failure's.
pub fn quoted_failures(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(|line| {
            let lesson = quote_after(line, "fails with \"", |rest| rest.rfind("\": "));
            let sighting = quote_after(line, "failed with \"", |rest| rest.find("\"; "));
            lesson.into_iter().chain(sighting)
        })
        .filter(|quote| !quote.ends_with('…'))
}

fn quote_after<'a>(
    line: &'a str,
    lead: &str,
    end: impl Fn(&str) -> Option<usize>,
) -> Option<&'a str> {
    let rest = &line[line.find(lead)? + lead.len()..];
    let end = end(rest).or_else(|| rest.rfind('"'))?;
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_telling_line_masked() {
        let npm = "Exit code 1 | npm ERR! code 1 | Use \"pnpm install\" for installation in this project. | npm ERR! A complete log of this run";
        assert_eq!(
            signature(npm),
            "use \"_\" for installation in this project."
        );
        let build = "Exit code 1\nUse \"pnpm install\" for installation in this project.";
        assert_eq!(
            signature(build),
            signature(npm),
            "same failure, other command"
        );
        assert_eq!(
            signature("Exit code 127\n(eval):1: command not found: pytest"),
            "(eval):N: command not found: pytest"
        );
        assert_eq!(
            signature(
                "error: externally-managed-environment\n× This environment is externally managed"
            ),
            "error: externally-managed-environment"
        );
        assert_eq!(
            signature("ModuleNotFoundError: No module named 'psycopg2' at /home/a/x/y.py:12"),
            signature("ModuleNotFoundError: No module named 'psycopg2' at /srv/b/y.py:99")
        );
        assert_eq!(signature("Exit code 1"), "");
        // Real shape (awesumsawz 0ad3f467:10): the line that says an error occurred is
        // not the one that says which.
        let sips = "Exit code 13 | Error: Can't write format: org.webmproject.webp | Error 13: an unknown error occurred | Try 'sips --help' for help using this tool";
        assert_eq!(
            telling_line(sips),
            "Error: Can't write format: org.webmproject.webp"
        );
    }

    #[test]
    fn a_memory_of_a_failure_is_found_by_the_same_failure() {
        let error = "Exit code 101\nerror: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare`";
        let trigger = format!(
            "when `cargo test` fails with \"{}\"",
            crate::text::one_line(telling_line(error), 100)
        );
        let quoted: Vec<&str> = quoted_failures(&trigger).collect();
        assert_eq!(failure_key(quoted[0]), failure_key(error));
        let lesson = "When `nix flake check` fails with \"error: Path 'x' in \"/r\" is not tracked by Git.\": run `git add` first";
        assert_eq!(
            quoted_failures(lesson).collect::<Vec<_>>(),
            ["error: Path 'x' in \"/r\" is not tracked by Git."]
        );
        let sighting = "- 2025-06-20, conf: `nix build` failed with \"error: path 'a' does not exist\"; `git add a` and then `nix build` passed; `echo \"x\"; ls`";
        assert_eq!(
            quoted_failures(sighting).collect::<Vec<_>>(),
            ["error: path 'a' does not exist"]
        );
        assert_eq!(failure_key("Exit code 1"), None);
    }

    #[test]
    fn a_long_path_gives_way_before_what_the_error_says_of_it() {
        let error = "error: path '/nix/store/vgybq44bfvr4lm4z092by4jlrkn3avl8-source/home/brojo/programs/obs.nix' does not exist";
        let quoted = quotable(error, 100);
        assert_eq!(quoted, "error: path '…/programs/obs.nix' does not exist");
        assert_eq!(signature(&quoted), signature(error));
        let go = "Error Trace: /home/runner/work/gateway/gateway/internal/cache/ttl_test.go:94: key still present after the ttl ran out";
        let quoted = quotable(go, 80);
        assert_eq!(
            quoted,
            "Error Trace: …/cache/ttl_test.go:94: key still present after the ttl ran out"
        );
        assert_eq!(signature(&quoted), signature(go));
        // Short lines and URLs stay as they are.
        assert_eq!(
            quotable("cat: /etc/x/y/z: No such file", 100),
            "cat: /etc/x/y/z: No such file"
        );
        let url = format!(
            "fetch https://example.com/a/b/c/d/e/f/g/h/i/j failed {}",
            "x".repeat(80)
        );
        assert!(
            quotable(&url, 100)
                .starts_with("fetch https://example.com/a/b/c/d/e/f/g/h/i/j failed x")
        );
    }

    #[test]
    fn a_clipped_quote_is_no_key_but_the_pattern_holds_the_whole_signature() {
        let error = "error: path '/nix/store/vgybq44bfvr4lm4z092by4jlrkn3avl8-source/home/brojo/programs/obs.nix' does not exist";
        let clipped = format!("fails with \"{}\": run", crate::text::one_line(error, 100));
        assert_eq!(quoted_failures(&clipped).count(), 0);
        assert_eq!(signature_key(&signature(error)), failure_key(error));
    }
}
