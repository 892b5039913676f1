//! The kinds of fix that are a step before the same command: a step first, a set-up
//! prefix, the shell moved by an earlier `cd`; and what is never a fix (a basic step,
//! another host, a restart).

use super::Fix;
use super::names::name_of;
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
pub(super) fn says_missing(lower_error: &str) -> bool {
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
pub(super) fn path_missing(lower_error: &str) -> bool {
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
