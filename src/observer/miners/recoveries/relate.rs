//! How a successful command relates to the failed one when it is the command changed:
//! the same tool from another place, a variable or a flag added, an argument respelled,
//! a runner, a sibling tool or the program the error names.

use super::Fix;
use super::fixes::{path_missing, prefixed, says_missing};
use super::names::inner_tool;
use crate::observer::miners::code;
use crate::shell::{self, Command};

impl Fix {
    fn new(key: String, advice: String, title: String) -> Self {
        Fix {
            key,
            advice,
            title,
            step: None,
        }
    }
}

/// The failed command and the one that worked after it.
struct Pair<'a> {
    fail: &'a Command,
    next: &'a Command,
    /// The error, lower case.
    error: String,
    /// The whole line that worked, set-up steps included, as code.
    shown: String,
    /// The tools' names (`docker compose` is one tool).
    from: String,
    to: String,
}

/// How a successful command relates to the failed one, if it is its fix.
pub(super) fn relate(
    fail: &Command,
    fail_line: &str,
    error: &str,
    next: &Command,
    next_cmds: &[Command],
) -> Option<Fix> {
    let whole: Vec<String> = next_cmds.iter().map(Command::text).collect();
    let pair = Pair {
        fail,
        next,
        error: error.to_ascii_lowercase(),
        shown: code(&whole.join(" && ")),
        from: tool_name(fail),
        to: tool_name(next),
    };
    if let Some(fix) = pair.other_place() {
        return Some(fix);
    }
    if let Some(decided) = pair.changed() {
        return decided;
    }
    if let Some(fix) = pair.through_a_runner() {
        return Some(fix);
    }
    if pair.to == pair.from && next.args == fail.args {
        return prefixed(next, next_cmds);
    }
    pair.another_tool(fail_line)
}

impl Pair<'_> {
    /// The same tool from another place (`.venv/bin/pytest` for `pytest`).
    fn other_place(&self) -> Option<Fix> {
        let (fail, next) = (self.fail, self.next);
        (fail.tool() == next.tool() && fail.program != next.program).then(|| {
            Fix::new(
                format!("path:{}", next.program),
                format!(
                    "run `{}` (not `{}`): {}",
                    next.program, fail.program, self.shown
                ),
                format!("{} for {}", next.program, fail.shape()),
            )
        })
    }

    /// The same program (and, behind a runner, the same tool), changed: `Some` when
    /// that decides it (a fix, or another run that is none), `None` to look further.
    fn changed(&self) -> Option<Option<Fix>> {
        let (fail, next) = (self.fail, self.next);
        let same_verb = fail.verb() == next.verb();
        // A changed verb is a fix only for tools whose verb names what they do (a make
        // target, a cargo subcommand), not for one given a file (`pytest b.py`).
        let verb_is_a_verb = shell::takes_verb(fail.tool());
        if self.from != self.to
            || inner_tool(fail) != inner_tool(next)
            || !(same_verb || verb_is_a_verb)
        {
            return None;
        }
        if same_verb && let Some(fix) = self.new_variable() {
            return Some(Some(fix));
        }
        // A flag is the fix only when the command runs the same targets.
        if same_verb
            && fail.words().eq(next.words())
            && let Some(fix) = self.new_flag()
        {
            return Some(Some(fix));
        }
        if let Some(decided) = self.changed_words(same_verb, verb_is_a_verb) {
            return Some(decided);
        }
        // Another target of the same command (`pytest b.py` after `pytest a.py`) is
        // another run, not a fix.
        same_verb.then_some(None)
    }

    fn new_variable(&self) -> Option<Fix> {
        let name = self
            .next
            .env_names()
            .find(|n| !self.fail.env_names().any(|o| o == *n))?;
        Some(Fix::new(
            format!("env:{name}"),
            format!("set {name}: {}", self.shown),
            format!("{} needs {name}", self.fail.shape()),
        ))
    }

    fn new_flag(&self) -> Option<Fix> {
        let flag = self
            .next
            .flags()
            .find(|f| !self.fail.flags().any(|o| o == *f))?;
        Some(Fix::new(
            format!("flag:{flag}"),
            format!("add `{flag}`: {}", self.shown),
            format!("{} needs {flag}", self.fail.shape()),
        ))
    }

    /// Words the error named, gone from the command that worked: the same target
    /// spelled right, the path from the root, or the target that exists.
    fn changed_words(&self, same_verb: bool, verb_is_a_verb: bool) -> Option<Option<Fix>> {
        let (fail, next) = (self.fail, self.next);
        let old_words: Vec<&str> = fail.words().collect();
        let new_words: Vec<&str> = next.words().collect();
        let gone: Vec<&str> = old_words
            .iter()
            .copied()
            .filter(|w| !new_words.contains(w))
            .collect();
        if !gone
            .iter()
            .any(|w| self.error.contains(&w.to_ascii_lowercase()))
        {
            return None;
        }
        let changed: Vec<&str> = new_words
            .iter()
            .copied()
            .filter(|w| !old_words.contains(w))
            .collect();
        if self.spelled_from_the_root(&gone, &changed) {
            return Some(Some(Fix::new(
                "absolute-path".into(),
                format!(
                    "use absolute paths: the shell stays in the folder an earlier `cd` moved to; {}",
                    self.shown
                ),
                "absolute paths in the shell".into(),
            )));
        }
        // Another host, script or package is another story: only the same target
        // spelled right (a path corrected, a name mistyped) is the fix, or, for a tool
        // whose first word names what it does, the target that exists where the error
        // said the asked one does not (`make test` → "No rule to make target"; `make
        // check`).
        let missing_verb = verb_is_a_verb
            && !same_verb
            && gone.contains(&fail.verb().unwrap_or(""))
            && says_missing(&self.error);
        if !missing_verb && !respelled(&gone, &changed, fail.tool()) {
            return Some(None);
        }
        Some(Some(Fix::new(
            format!("arg:{}", changed.first().copied().unwrap_or("")),
            format!("run {} instead", self.shown),
            format!("{} instead of {}", next.shape(), fail.shape()),
        )))
    }

    /// The same relative path, now spelled from the root, after the error said it was
    /// missing: the shell was elsewhere. Any other absolute path is another target.
    fn spelled_from_the_root(&self, gone: &[&str], changed: &[&str]) -> bool {
        path_missing(&self.error)
            && gone.iter().any(|g| {
                let relative = g.trim_start_matches("./");
                !g.starts_with(['/', '~'])
                    && relative.len() > 1
                    && changed.iter().any(|c| {
                        (c.starts_with('/') || c.contains(":\\"))
                            && c.ends_with(&format!("/{relative}"))
                    })
            })
    }

    /// Run through a runner (`uv run pytest`), or the runner's module changed
    /// (`python3 -m unittest` after `python3 -m pytest`).
    fn through_a_runner(&self) -> Option<Fix> {
        let (fail, next) = (self.fail, self.next);
        let inner = inner_tool(next)?;
        let fail_inner = inner_tool(fail).unwrap_or_else(|| fail.tool().to_string());
        if inner == fail_inner && next.tool() != fail.tool() {
            let runner = format!("{} {}", next.tool(), next.verb().unwrap_or(""));
            return Some(Fix::new(
                format!("use:{runner}"),
                format!("run it through `{runner}`: {}", self.shown),
                format!("{runner} {fail_inner}"),
            ));
        }
        (fail.tool() == next.tool() && siblings(&fail_inner, &inner)).then(|| {
            Fix::new(
                format!("use:{inner}"),
                format!("use {inner} instead of {fail_inner}: {}", self.shown),
                format!("{inner} instead of {fail_inner}"),
            )
        })
    }

    /// A sibling tool, or the program the error names.
    fn another_tool(&self, fail_line: &str) -> Option<Fix> {
        let (from, to) = (&self.from, &self.to);
        let named =
            to.len() > 1 && names_program(&self.error, to) && !fail_line.contains(to.as_str());
        (siblings(from, to) || named || self.same_job()).then(|| {
            Fix::new(
                format!("use:{to}"),
                format!("use {to} instead of {from}: {}", self.shown),
                format!("{to} instead of {from}"),
            )
        })
    }
}

impl Pair<'_> {
    /// Another program did the same job on the same files (`sips "$f" … --out
    /// "${base}.webp"` failed, `magick "$f" … "${base}.webp"` worked): the failed tool
    /// cannot do it here. Never a look, and never when the error says a file is missing
    /// (then the files changed, not the tool).
    fn same_job(&self) -> bool {
        let (fail, next) = (self.fail, self.next);
        if shell::is_diagnostic(fail) || shell::is_diagnostic(next) || path_missing(&self.error) {
            return false;
        }
        let files = |c: &Command| -> std::collections::BTreeSet<String> {
            c.words()
                .filter(|w| names_a_file(w))
                .map(str::to_string)
                .collect()
        };
        files(fail).intersection(&files(next)).count() >= 2
    }
}

/// A word that names a file: a path, a shell variable, or a name with an extension
/// of letters (not a number or a version).
fn names_a_file(word: &str) -> bool {
    word.contains(['/', '$'])
        || word.rsplit_once('.').is_some_and(|(_, ext)| {
            !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        })
}

/// Tools that stand in for one another.
const SIBLINGS: &[&[&str]] = &[
    &["npm", "pnpm", "yarn", "bun"],
    &["npx", "pnpx", "bunx"],
    &["pip", "pip3", "uv", "poetry", "pipx", "conda"],
    &["python", "python3"],
    &["docker-compose", "docker compose"],
    &["cargo test", "cargo nextest"],
    &["pytest", "unittest", "nose2"],
    &["yarn", "corepack"],
];

fn siblings(a: &str, b: &str) -> bool {
    a != b && SIBLINGS.iter().any(|g| g.contains(&a) && g.contains(&b))
}

/// A name for the fixing tool: `docker compose` is one tool, `cargo nextest` too.
fn tool_name(cmd: &Command) -> String {
    match (cmd.tool(), cmd.verb()) {
        ("docker", Some("compose")) => "docker compose".into(),
        ("cargo", Some("nextest")) => "cargo nextest".into(),
        ("cargo", Some("test")) => "cargo test".into(),
        ("apt" | "apt-get", Some("install")) => "apt install".into(),
        _ => cmd.tool().to_string(),
    }
}

/// Whether the words that replaced the ones the error named are the same target spelled
/// right (`test/x.py` → `tests/x.py`, `confg.yml` → `config.yml`), not another one. A
/// remote tool's changed argument is another host or address: never.
fn respelled(gone: &[&str], changed: &[&str], tool: &str) -> bool {
    const REMOTE: &[&str] = &[
        "ssh",
        "scp",
        "rsync",
        "sftp",
        "mosh",
        "curl",
        "wget",
        "ping",
        "nc",
        "telnet",
        "http",
        "xh",
        "dig",
        "nslookup",
        "host",
        "snmpget",
        "snmpwalk",
        "mysql",
        "psql",
        "redis-cli",
    ];
    if REMOTE.contains(&tool) {
        return false;
    }
    gone.iter().any(|g| {
        changed.iter().any(|c| {
            let ratio = similar::TextDiff::from_chars(*g, *c).ratio();
            ratio >= 0.75 || (c.ends_with(*g) && c.len() > g.len())
        })
    })
}

/// Whether the error text names `program` as a thing to run.
fn names_program(error: &str, program: &str) -> bool {
    let p = program.to_ascii_lowercase();
    [
        format!("use \"{p}"),
        format!("use `{p}"),
        format!("use '{p}"),
        format!("run \"{p}"),
        format!("run `{p}"),
        format!("run '{p}"),
        format!("use {p} "),
        format!("run {p} "),
        format!("try {p}"),
        format!("install {p}"),
    ]
    .iter()
    .any(|needle| error.contains(needle.as_str()))
}
