//! A command whose status hides a failure: `ffmpeg … 2>&1 | tail -3`, a loop, a job put
//! in the background, `… || true`. The shell reports the status of the last program of
//! the pipe, list or loop, so the call passes; the failing program's own words in what
//! it printed say otherwise (`Error opening output files: Encoder not found`).

use std::sync::OnceLock;

use regex::Regex;

use crate::shell;

/// Whether the shell's status of `command` may hide a failure of its work: a pipe into
/// a filter, a fallback that always passes, a loop, or a job sent to the background.
pub fn masks_status(command: &str) -> bool {
    static MASKS: OnceLock<Regex> = OnceLock::new();
    MASKS
        .get_or_init(|| {
            Regex::new(concat!(
                r"\|\s*(tail|head|tee|grep|cat|sed|awk|less)\b",
                r"|\|\|\s*(true|:|echo)\b",
                r"|\bdone\b",
                r"|[^&>|]&\s*(\n|$|wait\b)",
            ))
            .expect("a valid pattern")
        })
        .is_match(command)
}

/// Where `output` shows that the work of `command`, whose status is masked, failed:
/// near its start or its end, a line in a failing program's own voice (`fatal: …`,
/// `error: …`, `Error opening …`, `x: command not found`, `tool: … No such file or
/// directory`). A command that only looks (`grep`, `find`, `git diff`) prints what it
/// found, which may well say "error", so it is never read this way.
///
/// What it returns is the output from that line on: what the failure says, without
/// the work's progress before it (four parallel ffmpegs interleave their lines there).
pub fn hidden_failure<'a>(command: &str, output: &'a str) -> Option<&'a str> {
    if !masks_status(command) {
        return None;
    }
    let commands = shell::parse(command);
    let work = shell::primary(&commands)?;
    // A look run through another program (`rtk proxy grep …`, `xargs cat`) prints
    // data just the same.
    let looks = |c: &shell::Command| c.args.iter().any(|a| LOOKS.contains(&a.as_str()));
    if shell::is_diagnostic(work) || commands.iter().any(|c| !c.filters && looks(c)) {
        return None;
    }
    let tools: Vec<&str> = commands
        .iter()
        .filter(|c| !c.filters)
        .map(shell::Command::tool)
        .collect();
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.iter().take(EDGE_START);
    let end = lines.iter().skip(lines.len().saturating_sub(EDGE_END));
    let line = start.chain(end).find(|line| in_own_voice(line, &tools))?;
    // Every line is a slice of the output: where it starts is where the failure does.
    let at = line.as_ptr() as usize - output.as_ptr() as usize;
    Some(&output[at..])
}

/// Programs that print what they found, named as another program's argument.
const LOOKS: &[&str] = &[
    "grep", "egrep", "rg", "ag", "ack", "find", "fd", "cat", "bat", "head", "tail", "less", "sed",
    "awk", "jq", "ls", "tree",
];

/// The lines read at the start of the output (a pipe into `head`) and at its end (into
/// `tail`, a loop's last turn): where a masked failure shows.
const EDGE_START: usize = 3;
const EDGE_END: usize = 5;

/// A line a failing program writes: its failure word first, or its name first and a
/// failure after it, or the shell's "command not found".
fn in_own_voice(line: &str, tools: &[&str]) -> bool {
    static OPENS: OnceLock<Regex> = OnceLock::new();
    static SAYS: OnceLock<Regex> = OnceLock::new();
    static LISTING: OnceLock<Regex> = OnceLock::new();
    let line = crate::text::strip_ansi(line);
    let line = line.trim();
    // A logger's or a muxer's tag before the words: `[vost#0:0 @ 0x9e…] Error selecting`.
    let line = match line.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((_, rest)) => rest.trim_start(),
        None => line,
    };
    // A search's match (`src/main.c:82: …`, `82-…`) is what a file says, not the
    // program.
    let listing =
        LISTING.get_or_init(|| Regex::new(r"^(?:[^\s:]+:)?\d+[:-]").expect("a valid pattern"));
    if listing.is_match(line) {
        return false;
    }
    if line.contains("command not found") {
        return true;
    }
    let opens = OPENS.get_or_init(|| {
        Regex::new(r"^(?:fatal|error|Error|ERROR)(?:\[\w+\])?(?::|\s+[a-z]+ing\b)")
            .expect("a valid pattern")
    });
    if opens.is_match(line) {
        return true;
    }
    let says = SAYS.get_or_init(|| {
        Regex::new(r"\b(?:error|fatal|No such file or directory|Permission denied)\b")
            .expect("a valid pattern")
    });
    tools.iter().any(|tool| {
        tool.len() > 1
            && line
                .strip_prefix(tool)
                .and_then(|r| r.strip_prefix(':'))
                .is_some_and(|rest| says.is_match(rest))
    })
}
