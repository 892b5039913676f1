//! A command that reports its own exit status (`git submodule add … 2>&1; echo "exit:
//! $?"`): the shell says it passed, because `echo` was last, but the status it printed
//! says the command before it failed.

/// Whether `output` holds a non-zero status that `command` printed of itself: a line
/// that is the label an `echo … $?` wrote (`exit: `, `EXIT_CODE=`, `rc=`) followed by
/// the number alone. A bare `echo $?` counts only on the output's last line. Status 1
/// of a program that answers by its status (`grep` found nothing, `diff` saw a
/// difference) is an answer, not a failure.
pub fn reports_failure(command: &str, output: &str) -> bool {
    if !command.contains("$?") {
        return false;
    }
    let last = output.lines().rev().find(|l| !l.trim().is_empty());
    reports(command)
        .into_iter()
        .any(|Report { label, answers }| {
            // The line is the label and a number that says the command failed.
            let failed = |line: &str| {
                let Some(rest) = line.trim().strip_prefix(label.as_str()) else {
                    return false;
                };
                let status = rest.trim();
                if status.is_empty() || !status.chars().all(|c| c.is_ascii_digit()) {
                    return false;
                }
                // Zero, or a "no" of a program that answers by its status.
                let status = status.trim_start_matches('0');
                let fine = status.is_empty() || answers && status == "1";
                !fine
            };
            if label.is_empty() {
                return last.is_some_and(failed);
            }
            output.lines().any(failed)
        })
}

/// Whether a Bash failure is only a "no" (`pgrep -f worker` found nothing): status 1,
/// nothing printed, from a program that answers by its status.
pub fn answered_no(command: &str, failure: &str) -> bool {
    failure
        .trim()
        .strip_prefix("Exit code 1")
        .is_some_and(|rest| rest.trim().is_empty())
        && ANSWER_BY_STATUS.contains(&program_before(command).as_str())
}

/// One `echo … $?` of a command.
struct Report {
    /// What it prints before the status, trimmed (`exit:`, `EXIT_CODE=`), or nothing.
    label: String,
    /// The command whose status it prints answers a question by it (`grep`, `diff`).
    answers: bool,
}

/// Programs whose status 1 is an answer ("no match", "they differ"), not a failure.
const ANSWER_BY_STATUS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "diff", "cmp", "test", "[", "[[", "pgrep", "pidof",
    "which",
];

/// The `echo`s of `command` that print `$?`, each with the label it prints.
fn reports(command: &str) -> Vec<Report> {
    let mut out = Vec::new();
    let mut rest = command;
    let mut offset = 0;
    while let Some(at) = rest.find("$?") {
        let before = &command[..offset + at];
        // The echo's argument starts after the last `echo ` before the status, and a
        // label never spans another command.
        if let Some(echo) = before.rfind("echo ") {
            let arg = &before[echo + "echo ".len()..];
            if !arg.contains([';', '&', '|', '\n']) {
                let mut arg = arg.trim_start();
                // `echo -e`, `echo -n`: options, not words it prints.
                while let Some(option) = arg.strip_prefix('-') {
                    arg = option.split_once(' ').map_or("", |(_, r)| r).trim_start();
                }
                let label = arg.trim_start_matches(['"', '\'']);
                if !label.contains(['"', '\'', '$', '`']) {
                    out.push(Report {
                        label: label.trim().to_string(),
                        answers: ANSWER_BY_STATUS
                            .contains(&program_before(&before[..echo]).as_str()),
                    });
                }
            }
        }
        offset += at + 2;
        rest = &command[offset..];
    }
    out
}

/// The program of the last command before an `echo` (`grep` in `ls | grep x 2>&1;
/// echo`), read as the shell reads the line (redirections, wrappers, subshells).
fn program_before(text: &str) -> String {
    crate::shell::parse(text)
        .last()
        .map(|c| c.tool().to_string())
        .unwrap_or_default()
}
