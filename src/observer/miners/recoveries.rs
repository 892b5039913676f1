//! (a) Error recoveries: a shell command fails, and a few steps later (no user prompt
//! and no file edit in between: that would be a code fix, not a lesson) a command
//! that answers the failure succeeds. The lesson is keyed on the failure's signature
//! and on the kind of fix, so the same lesson seen through other commands is one:
//! - the same command with an environment variable set, a flag added, or the argument
//!   the error named changed (`DATABASE_URL=… cargo test`, `python3 -m unittest`);
//! - a sibling tool or a runner (npm → pnpm, pip → uv, `pytest` → `uv run pytest`,
//!   `docker compose` → `docker-compose`), or the program the error names;
//! - a setup step the error asks for, then the same command again (`git config
//!   user.email …`, `terraform init`); or the one step taken between the failure and
//!   the retry that passed, when there was only one (`git add` of new files before
//!   `nix flake check`), never a command on another host or a service restart (an
//!   outage that ended looks just like that).
//!
//! A fix is confirmed by its outcome, not by coming next: the failed command itself, or
//! its modified form (same program, same target), must succeed after it, with no user
//! message in between (unless the step is the one the error itself asked for), within
//! `GAP`, in the same folder, and with output that does not say nothing happened
//! ("Everything up-to-date"). Another host, script or folder is another story.
//!
//! Never a fix: diagnostics (looked past), anything that may never be advice (it
//! deletes, fetches and runs code, or switches a safety off: the recovery is dropped),
//! the failed program run again as its own "step" (`cp` before `cp`), or the same
//! command again (a flaky failure).

use std::collections::BTreeMap;

use super::{Finding, code, domain_of, sid8};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::agent::signature::{Banners, signature_among, telling_line_among};
use crate::shell::{self, Command};

/// How far after a failure its fix may come.
const LOOKAHEAD: usize = 12;
/// How long after a failure its fix may come: later, the world changed in between.
const GAP_SECONDS: i64 = 15 * 60;

fn seconds_between(a: &str, b: &str) -> Option<i64> {
    let t = |s: &str| chrono::DateTime::parse_from_rfc3339(s).ok();
    Some((t(b)? - t(a)?).num_seconds())
}

/// A fix and how to say it.
#[derive(Debug, Clone, PartialEq)]
struct Fix {
    /// The fix's part of the pattern key: `env:DATABASE_URL`, `use:pnpm`, ...
    key: String,
    /// The advice: what to do, with the command that worked.
    advice: String,
    /// A short name for the lesson.
    title: String,
    /// The step taken before the same command passed, for "run this first" fixes.
    step: Option<String>,
}

fn shell_command(obs: &Observation) -> Option<&str> {
    (obs.tool.as_deref() == Some("Bash"))
        .then_some(obs.input.command.as_deref())
        .flatten()
}

/// (a) The recoveries of one session, in order.
pub fn recoveries(session: &[Observation]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    // What the session's succeeding commands printed first: banners, not errors.
    let banners: Banners = session
        .iter()
        .flat_map(|o| o.printed.iter().copied())
        .collect();
    for (i, failed) in session.iter().enumerate() {
        if failed.outcome != Some(Outcome::Error) {
            continue;
        }
        let Some(line) = shell_command(failed) else {
            continue;
        };
        // A failed look can still teach a set-up step; a destructive command never.
        if shell::line_is_never_advice(line) {
            continue;
        }
        let error = failed.error.as_deref().unwrap_or("");
        let sig = signature_among(error, &banners);
        let cmds = shell::parse(line);
        let Some(fail) = shell::failing(&cmds, error) else {
            continue;
        };
        if sig.is_empty() {
            continue;
        }
        let Some((fix, fixed_line)) = find_fix(failed, &session[i + 1..], fail, line, error) else {
            continue;
        };
        // Where the fix is general (another tool, absolute paths), the failure's
        // wording does not split the lesson: it is keyed on the project instead.
        // The shell keeping an earlier `cd` is the Bash tool's way everywhere.
        let key = if fix.key == "absolute-path" {
            "recover:*=>absolute-path".to_string()
        } else if fix.key.starts_with("use:") {
            format!("recover:{}:{}=>{}", failed.project, fail.tool(), fix.key)
        } else {
            format!("recover:{sig}=>{}", fix.key)
        };
        // One sighting per session: the same failure fixed twice is one lesson seen once.
        if out.iter().any(|f| f.key == key) {
            continue;
        }
        let why = crate::text::one_line(telling_line_among(error, &banners), 100);
        let mut f = Finding::seen_in(
            failed,
            key,
            domain_of(&format!("{} {}", fail.shape(), fixed_line)),
        );
        f.trigger = format!("when `{}` fails with \"{why}\"", name_of(fail));
        if fix.key == "absolute-path" {
            f.project = None;
            f.trigger =
                "when a command in the shell fails on a relative path after an earlier `cd`".into();
        }
        f.action = fix.advice;
        f.title = fix.title;
        // What happened, dated, in the project: evidence for whoever reads it.
        let then = match &fix.step {
            Some(step) => format!("{} and then {} passed", code(step), code(fixed_line)),
            None => format!("{} then passed", code(fixed_line)),
        };
        f.evidence = format!(
            "{}, {}: {} failed with \"{why}\"; {then} (session {})",
            failed.ts.get(..10).unwrap_or(&failed.ts),
            failed.project,
            code(line),
            sid8(&failed.session_id)
        );
        out.push(f);
    }
    out
}

/// Looks past diagnostics for the command that answered the failure, and keeps it only
/// when the outcome confirms it (see the module's rules).
fn find_fix<'a>(
    failed: &Observation,
    later: &'a [Observation],
    fail: &Command,
    fail_line: &str,
    error: &str,
) -> Option<(Fix, &'a str)> {
    let (fix, line, asked) = candidate_fix(failed, later, fail, fail_line, error)?;
    // With the user's words in between, only the step the error itself asked for
    // (`git config user.email …` after "Please tell me who you are") is the fix.
    if asked && !fix.key.starts_with("first:") {
        return None;
    }
    let absolute = fix.key == "absolute-path";
    (!shell::line_is_never_advice(line) || absolute).then_some((fix, line))
}

fn candidate_fix<'a>(
    failed: &Observation,
    later: &'a [Observation],
    fail: &Command,
    fail_line: &str,
    error: &str,
) -> Option<(Fix, &'a str, bool)> {
    let mut setup: Option<Command> = None;
    // Steps taken on the way that the error did not ask for.
    let mut unasked: Vec<Command> = Vec::new();
    let mut spoiled = false;
    let mut prompts = 0;
    for obs in later.iter().take(LOOKAHEAD) {
        if seconds_between(&failed.ts, &obs.ts).is_some_and(|s| s > GAP_SECONDS) {
            return None;
        }
        // The user may answer a question on the way (an email for `git config`); a
        // second prompt is another task.
        if obs.event == Event::Prompt {
            prompts += 1;
            if prompts > 1 {
                return None;
            }
            continue;
        }
        let asked = prompts > 0;
        // Another folder is another story (the shell's own `cd` aside, below).
        if !obs.cwd.is_empty() && !failed.cwd.is_empty() && obs.cwd != failed.cwd {
            return None;
        }
        if obs
            .tool
            .as_deref()
            .is_some_and(crate::agent::payload::is_edit_tool)
        {
            // The code changed: whatever works now, the fix was the edit.
            return None;
        }
        let Some(line) = shell_command(obs) else {
            continue;
        };
        if shell::line_is_never_advice(line) {
            return None;
        }
        let cmds = shell::parse(line);
        let Some(next) = shell::primary(&cmds) else {
            continue;
        };
        // A command whose output says nothing happened changed nothing.
        let ok = obs.outcome == Some(Outcome::Success) && !obs.noop;
        // A look is no fix, unless it is the failed look done with the right tool.
        if shell::line_is_diagnostic(line) {
            let sibling =
                relate(fail, fail_line, error, next, &cmds).filter(|f| f.key.starts_with("use:"));
            match sibling {
                Some(fix) if ok => return Some((fix, line, asked)),
                _ => continue,
            }
        }
        // A step the agent put in front of the same kind of command on the same line.
        let before_fail: Vec<String> = shell::parse(fail_line).iter().map(Command::text).collect();
        let on_the_line = cmds.iter().find(|c| {
            c.text() != next.text()
                && !c.filters
                && !same_program(c, fail)
                && !shell::is_setup(c)
                && !shell::is_diagnostic(c)
                && !before_fail.contains(&c.text())
        });
        let same_kind = next.shape() == fail.shape();
        if ok && same_kind && next.text() != fail.text() {
            // The command changed itself (a variable, a flag): that is the fix.
            if let Some(fix) = relate(fail, fail_line, error, next, &cmds) {
                return Some((fix, line, asked));
            }
            if let Some(step) = on_the_line {
                return Some((first(step, fail), line, asked));
            }
        }
        if next.text() == fail.text() {
            if !ok {
                continue;
            }
            // The same command works now: behind a set-up command on the same line, or
            // after a step that answered the error, that is the lesson; with nothing
            // in between the failure was flaky.
            if let Some(fix) = prefixed(next, &cmds).or_else(|| moved(fail_line, line, error)) {
                return Some((fix, line, asked));
            }
            // A step on the same line was put there on purpose; one before it counts
            // only when the error asked for it, so the user's answer may lie between.
            if let Some(step) = on_the_line {
                return Some((first(step, fail), line, asked));
            }
            let step = match setup.take() {
                Some(step) => step,
                None if !asked && !spoiled && unasked.len() == 1 => unasked.pop()?,
                None => return None,
            };
            return Some((first(&step, fail), line, false));
        }
        if !ok {
            continue;
        }
        let related = cmds
            .iter()
            .filter(|c| !shell::is_setup(c) && !shell::is_diagnostic(c))
            .find_map(|c| relate(fail, fail_line, error, c, &cmds));
        if let Some(fix) = related {
            return Some((fix, line, asked));
        }
        if setup.is_none() && !same_program(next, fail) && answers(error, next) {
            setup = Some(next.clone());
        } else if !same_program(next, fail) {
            // Whatever passes after a step elsewhere or a restart may owe it to the
            // world (an outage ended), not to any step.
            spoiled |= elsewhere_or_a_restart(next);
            unasked.push(next.clone());
        }
    }
    None
}

/// The fix "run this step first".
fn first(step: &Command, fail: &Command) -> Fix {
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

/// A command's name for people: its program and verb, the subcommand of a verb that
/// groups them (`nix flake check`), the tool behind a runner (`pnpm exec playwright`).
fn name_of(cmd: &Command) -> String {
    let (shape, inner, after, sub) = deep_shape(cmd);
    let mut name = shape;
    for part in [sub, inner, after].into_iter().flatten() {
        if !name.split_whitespace().any(|w| w == part) && is_plain_word(&part) {
            name.push(' ');
            name.push_str(&part);
        }
    }
    name
}

fn is_plain_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 30
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
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

/// Whether a different command looks like the step the error asked for: the error
/// names two of its words in a row (`terraform init`, `git config`, `playwright
/// install`, `update-kubeconfig`).
fn answers(error: &str, step: &Command) -> bool {
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
fn moved(fail_line: &str, fix_line: &str, error: &str) -> Option<Fix> {
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
        // path the command named was not there.
        None => ["no such file", "not found", "cannot find", "does not exist"]
            .iter()
            .any(|n| lower.contains(n)),
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
fn prefixed(next: &Command, cmds: &[Command]) -> Option<Fix> {
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
fn elsewhere_or_a_restart(step: &Command) -> bool {
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

/// Whether two commands are the same program doing the same kind of thing (`cp` and
/// `cp`, `git commit` and `git commit`, `pnpm exec playwright test` twice): such a
/// command is a retry, never a step that fixed the other. Behind a runner the tool it
/// runs and that tool's verb count (`playwright install` is a step for `playwright test`).
fn same_program(a: &Command, b: &Command) -> bool {
    deep_shape(a) == deep_shape(b)
}

/// A command's shape with the parts that tell kinds of work apart: the subcommand of a
/// grouping verb, the tool behind a runner and its verb.
fn deep_shape(c: &Command) -> (String, Option<String>, Option<String>, Option<String>) {
    let inner = inner_tool(c);
    let after_inner = inner.as_ref().and_then(|i| {
        c.args
            .iter()
            .skip_while(|w| !w.ends_with(i.as_str()))
            .skip(1)
            .find(|w| !w.starts_with('-'))
            .cloned()
    });
    // Verbs that group subcommands: `nix flake update` is not `nix flake check`,
    // `npm run build` not `npm run test`.
    const GROUPS: &[&str] = &[
        "flake",
        "compose",
        "submodule",
        "stash",
        "remote",
        "worktree",
        "rollout",
        "config",
        "pr",
        "issue",
        "repo",
        "run",
        "workspace",
        "services",
        "cache",
    ];
    let sub = c
        .verb()
        .filter(|v| GROUPS.contains(v))
        .and_then(|_| c.words().nth(1))
        .map(str::to_string);
    (c.shape(), inner, after_inner, sub)
}

/// Runner prefixes that run another tool: `uv run X`, `poetry run X`, `pnpm exec X`.
fn inner_tool(cmd: &Command) -> Option<String> {
    let words: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    let after = |n: usize| {
        words
            .get(n)
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
    };
    // The first word of the value of `flag` (`--run "lspci -v"` → `lspci`).
    let value_of = |flags: &[&str]| {
        words
            .iter()
            .position(|w| flags.contains(w))
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.split_whitespace().next())
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
    };
    match (cmd.tool(), words.first().copied()) {
        // Environments that bring a missing tool along: `nix-shell -p pkg --run "x"`,
        // `nix shell nixpkgs#pkg -c x`, `devbox run x`, `mise exec -- x`.
        ("nix-shell", _) => value_of(&["--run", "--command"]),
        ("nix", Some("shell" | "develop")) => value_of(&["-c", "--command"]),
        ("devbox", Some("run")) => after(1),
        ("mise" | "rtx", Some("exec" | "x")) => value_of(&["--"]),
        ("uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye", Some("run")) => after(1),
        ("pnpm" | "yarn" | "npm" | "bun", Some("exec" | "dlx" | "x")) => after(1),
        ("bundle", Some("exec")) => after(1),
        ("npx" | "bunx" | "pnpx", _) => after(0),
        ("python" | "python3", Some("-m")) => after(1),
        // `go run github.com/x/tool/v2/cmd/tool@v2.1.6`
        ("go", Some("run")) => after(1).map(|t| t.split('@').next().unwrap_or(&t).to_string()),
        _ => None,
    }
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
fn relate(
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
            let absolute = changed
                .iter()
                .any(|w| w.starts_with('/') || w.contains(":\\"));
            // Another host, script or package is another story: only the same target
            // spelled right (a path corrected, a name mistyped) is the fix.
            if !absolute && !respelled(&gone, &changed, fail.tool()) {
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

/// Successful runs of a command shape per project: evidence against a recovery
/// instinct that says this command fails.
pub fn successes(batch: &[Observation]) -> BTreeMap<(String, String), u32> {
    let mut out = BTreeMap::new();
    for obs in batch {
        if obs.event != Event::Post {
            continue;
        }
        if let Some(cmd) =
            shell_command(obs).and_then(|l| shell::primary(&shell::parse(l)).cloned())
        {
            *out.entry((obs.project.clone(), cmd.shape())).or_insert(0) += 1;
        }
    }
    out
}
