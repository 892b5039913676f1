//! The kinds of fix and how a successful command relates to the failed one: a step
//! first, a set-up prefix, the shell moved by an earlier `cd`, a variable, a flag, a
//! respelled argument, a runner, a sibling tool or the one the error names.

use super::Fix;
use super::names::{inner_tool, name_of};
use crate::observer::miners::code;
use crate::shell::{self, Command};

/// Steps any shell user takes without being told (`mkdir -p` of a missing folder,
/// `touch`, `chmod +x`): true, but no lesson worth a memory.
pub(super) fn is_basic(step: &Command) -> bool {
    matches!(step.tool(), "mkdir" | "touch" | "cd" | "pwd")
        || (step.tool() == "chmod" && step.args.iter().any(|a| a == "+x" || a == "u+x"))
}

/// The fix "run this step first".
pub(super) fn first(step: &Command, fail: &Command) -> Fix {
    Fix {
        key: format!("first:{}", step.shape()),
        advice: format!(
            "run {} first, then {} again",
            code(&without_values(step)),
            code(&name_of(fail))
        ),
        title: format!("{} before {}", name_of(step), name_of(fail)),
        step: Some(step.text()),
    }
}

/// A step as advice for anyone: its program, verb and setting, not the values a person
/// gave it (`git config user.name …`, not their name).
fn without_values(step: &Command) -> String {
    let mut shown: Vec<&str> = vec![step.tool()];
    let mut values = 0;
    for arg in &step.args {
        let is_value =
            arg.contains([' ', '@', '"', '\'']) || shown.len() >= 3 && !arg.starts_with('-');
        if is_value {
            values += 1;
            continue;
        }
        shown.push(arg);
    }
    let mut text = shown.join(" ");
    if values > 0 {
        text.push_str(" …");
    }
    text
}

/// Whether an error says the command, target or script asked for does not exist.
fn says_missing(lower_error: &str) -> bool {
    [
        "no rule to make target",
        "unknown command",
        "missing script",
        "no such command",
        "unknown target",
        "is not a task",
        "task not found",
        "no such subcommand",
        "unrecognized subcommand",
        "did you mean",
    ]
    .iter()
    .any(|n| lower_error.contains(n))
}

/// Whether an error says a file or folder is not there.
fn path_missing(lower_error: &str) -> bool {
    [
        "no such file",
        "cannot find",
        "does not exist",
        "not found: ",
        "can't open file",
        "could not find",
    ]
    .iter()
    .any(|n| lower_error.contains(n))
}

/// Whether a different command looks like the step the error asked for: the error
/// names two of its words in a row (`terraform init`, `git config`, `playwright
/// install`, `update-kubeconfig`).
pub(super) fn answers(error: &str, step: &Command) -> bool {
    let lower = error.to_ascii_lowercase();
    let words: Vec<String> = std::iter::once(step.tool().to_string())
        .chain(step.words().map(str::to_string))
        .map(|w| w.to_ascii_lowercase())
        .collect();
    words
        .windows(2)
        .any(|pair| pair[0].len() > 2 && pair[1].len() > 2 && lower.contains(&pair.join(" ")))
        || words
            .iter()
            .any(|w| w.len() > 8 && w.contains('-') && lower.contains(w.as_str()))
}

/// The same command from an absolute folder after `cd <relative>` failed: the shell
/// stays where an earlier `cd` left it.
pub(super) fn moved(fail_line: &str, fix_line: &str, error: &str) -> Option<Fix> {
    let cd = |line: &str| {
        shell::parse(line)
            .into_iter()
            .find(|c| c.tool() == "cd")
            .and_then(|c| c.words().next().map(str::to_string))
    };
    let to = cd(fix_line)?;
    let lower = error.to_ascii_lowercase();
    let lost = match cd(fail_line) {
        Some(from) => !from.starts_with(['/', '~']) && error.contains(from.as_str()),
        // No `cd` of its own: an earlier one left the shell elsewhere, and a relative
        // path the command named is what the error says is missing.
        None => {
            path_missing(&lower)
                && shell::parse(fail_line)
                    .iter()
                    .flat_map(|c| c.words())
                    .any(|w| {
                        let relative = w.trim_start_matches("./").trim_end_matches("/...");
                        !w.starts_with(['/', '~', '-'])
                            && relative.len() > 1
                            && (w.contains('/') || w.contains('.'))
                            && lower.contains(&relative.to_ascii_lowercase())
                    })
        }
    };
    (lost && to.starts_with('/')).then(|| Fix {
        key: "absolute-path".into(),
        advice: format!(
            "use absolute paths: the shell stays in the folder an earlier `cd` moved to; {}",
            code(fix_line)
        ),
        title: "absolute paths in the shell".into(),
        step: None,
    })
}

/// The same command behind a set-up command (`source .venv/bin/activate && pytest`).
pub(super) fn prefixed(next: &Command, cmds: &[Command]) -> Option<Fix> {
    let first = cmds
        .iter()
        .find(|c| shell::is_setup(c) && c.tool() != "cd")?
        .text();
    Some(Fix {
        key: format!("prefix:{first}"),
        advice: format!("run it after {}: {}", code(&first), code(&next.text())),
        title: format!("{} after {first}", next.shape()),
        step: None,
    })
}

/// A step that acts on another machine or restarts a service: when the retry passes
/// after it, an outage may simply have ended, so it is never the one unasked step.
pub(super) fn elsewhere_or_a_restart(step: &Command) -> bool {
    const REMOTE: &[&str] = &[
        "ssh", "scp", "rsync", "sftp", "mosh", "ansible", "kubectl", "docker",
    ];
    let restart = step.words().any(|w| {
        matches!(
            w,
            "restart" | "reload" | "start" | "kickstart" | "reboot" | "up" | "unlock"
        )
    });
    REMOTE.contains(&step.tool())
        || matches!(
            step.tool(),
            "systemctl" | "service" | "launchctl" | "rc-service" | "sv" | "reboot" | "sleep"
        )
        || (step.tool() == "brew" && step.verb() == Some("services"))
        || restart
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

/// How a successful command relates to the failed one, if it is its fix.
pub(super) fn relate(
    fail: &Command,
    fail_line: &str,
    error: &str,
    next: &Command,
    next_cmds: &[Command],
) -> Option<Fix> {
    let lower_error = error.to_ascii_lowercase();
    let (from, to) = (tool_name(fail), tool_name(next));
    // The whole line that worked, set-up steps included.
    let whole: Vec<String> = next_cmds.iter().map(Command::text).collect();
    let shown = code(&whole.join(" && "));
    // The same tool from another place (`.venv/bin/pytest` for `pytest`).
    if fail.tool() == next.tool() && fail.program != next.program {
        return Some(Fix {
            key: format!("path:{}", next.program),
            advice: format!("run `{}` (not `{}`): {shown}", next.program, fail.program),
            title: format!("{} for {}", next.program, fail.shape()),
            step: None,
        });
    }
    // The same program (and, behind a runner, the same tool), changed.
    let same_verb = fail.verb() == next.verb();
    // A changed verb is a fix only for tools whose verb names what they do (a make
    // target, a cargo subcommand), not for one given a file (`pytest b.py`).
    let verb_is_a_verb = shell::takes_verb(fail.tool());
    if from == to && inner_tool(fail) == inner_tool(next) && (same_verb || verb_is_a_verb) {
        let new_env: Vec<&str> = next
            .env_names()
            .filter(|n| !fail.env_names().any(|o| o == *n))
            .collect();
        if let Some(name) = new_env.first().filter(|_| same_verb) {
            return Some(Fix {
                key: format!("env:{name}"),
                advice: format!("set {name}: {shown}"),
                title: format!("{} needs {name}", fail.shape()),
                step: None,
            });
        }
        let new_flags: Vec<&str> = next
            .flags()
            .filter(|f| !fail.flags().any(|o| o == *f))
            .collect();
        // A flag is the fix only when the command runs the same targets.
        let same_targets = same_verb && fail.words().eq(next.words());
        if let Some(flag) = new_flags.first().filter(|_| same_targets) {
            return Some(Fix {
                key: format!("flag:{flag}"),
                advice: format!("add `{flag}`: {shown}"),
                title: format!("{} needs {flag}", fail.shape()),
                step: None,
            });
        }
        let old_words: Vec<&str> = fail.words().collect();
        let new_words: Vec<&str> = next.words().collect();
        let gone: Vec<&str> = old_words
            .iter()
            .copied()
            .filter(|w| !new_words.contains(w))
            .collect();
        if !gone.is_empty()
            && gone
                .iter()
                .any(|w| lower_error.contains(&w.to_ascii_lowercase()))
        {
            let changed: Vec<&str> = new_words
                .iter()
                .copied()
                .filter(|w| !old_words.contains(w))
                .collect();
            // The same relative path, now spelled from the root, after the error said it
            // was missing: the shell was elsewhere. Any other absolute path is another
            // target.
            let absolute = path_missing(&lower_error)
                && gone.iter().any(|g| {
                    let relative = g.trim_start_matches("./");
                    !g.starts_with(['/', '~'])
                        && relative.len() > 1
                        && changed.iter().any(|c| {
                            (c.starts_with('/') || c.contains(":\\"))
                                && c.ends_with(&format!("/{relative}"))
                        })
                });
            // Another host, script or package is another story: only the same target
            // spelled right (a path corrected, a name mistyped) is the fix, or, for a
            // tool whose first word names what it does, the target that exists where the
            // error said the asked one does not (`make test` → "No rule to make target";
            // `make check`).
            let missing_verb = verb_is_a_verb
                && !same_verb
                && gone.contains(&fail.verb().unwrap_or(""))
                && says_missing(&lower_error);
            if !absolute && !missing_verb && !respelled(&gone, &changed, fail.tool()) {
                return None;
            }
            return Some(if absolute {
                Fix {
                    key: "absolute-path".into(),
                    advice: format!(
                        "use absolute paths: the shell stays in the folder an earlier `cd` moved to; {shown}"
                    ),
                    title: "absolute paths in the shell".into(),
                    step: None,
                }
            } else {
                Fix {
                    key: format!("arg:{}", changed.first().copied().unwrap_or("")),
                    advice: format!("run {shown} instead"),
                    title: format!("{} instead of {}", next.shape(), fail.shape()),
                    step: None,
                }
            });
        }
        // Another target of the same command (`pytest b.py` after `pytest a.py`) is
        // another run, not a fix.
        if same_verb {
            return None;
        }
    }
    // Run through a runner (`uv run pytest`), or the runner's module changed
    // (`python3 -m unittest` after `python3 -m pytest`).
    let inner = inner_tool(next);
    let fail_inner = inner_tool(fail).unwrap_or_else(|| fail.tool().to_string());
    if let Some(inner) = &inner {
        if *inner == fail_inner && next.tool() != fail.tool() {
            let runner = format!("{} {}", next.tool(), next.verb().unwrap_or(""));
            return Some(Fix {
                key: format!("use:{runner}"),
                advice: format!("run it through `{runner}`: {shown}"),
                title: format!("{runner} {fail_inner}"),
                step: None,
            });
        }
        if fail.tool() == next.tool() && siblings(&fail_inner, inner) {
            return Some(Fix {
                key: format!("use:{inner}"),
                advice: format!("use {inner} instead of {fail_inner}: {shown}"),
                title: format!("{inner} instead of {fail_inner}"),
                step: None,
            });
        }
    }
    if to == from && next.args == fail.args {
        return prefixed(next, next_cmds);
    }
    // A sibling tool, or the program the error names.
    if siblings(&from, &to)
        || (to.len() > 1 && names_program(&lower_error, &to) && !fail_line.contains(&to))
    {
        return Some(Fix {
            key: format!("use:{to}"),
            advice: format!("use {to} instead of {from}: {shown}"),
            title: format!("{to} instead of {from}"),
            step: None,
        });
    }
    None
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
