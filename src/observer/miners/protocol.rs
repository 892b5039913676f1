//! (f) How the agent's own tools want to be used, learned where it keeps tripping over
//! them: Edit or Write refused because the file was not read first, the text to replace
//! not found or not unique, the file changed since it was read; and the shell the Bash
//! tool runs, where it differs from the one the agent assumes (zsh aborting a command
//! on a glob that matches nothing, sudo unable to ask for a password). The remedy is the
//! tool's or the shell's own rule, so it is the same everywhere: a user-scope memory,
//! counted over sessions of any project.
//!
//! Edit's and Write's refusals say what to do ("Read it first before writing to it"),
//! and the agent does it: a memory that says it again is noise (every reviewer and every
//! labeller of four people's sessions said so of each one we learned). Such a slip
//! counts only where the message did not teach: the next call on the same file, made
//! after the refusal, was refused the same way. The shell's slips do not say what to
//! do, so each one counts, from the second session.

use super::{Finding, Ledger, sessions_of, sid8};
use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;

/// Sessions (of any project) a slip must recur in before it is reported: the tool says
/// what to do each time, so only a habit of tripping earns a memory (an instinct, at
/// once).
const SLIP_SESSIONS: usize = 3;

/// The same for a shell slip: zsh's "no matches found" does not say that the whole
/// command stopped or what to do instead, so a second session is enough, as for a
/// recovery.
const SHELL_SLIP_SESSIONS: usize = 2;

/// The slips we know: (key, what the tool says, the lesson's name, the remedy). The
/// memory is named and worded after the remedy, never after the tool's complaint.
type Slip = (&'static str, &'static str, &'static str, &'static str);

/// Slips the tool refuses.
const SLIPS: &[Slip] = &[
    (
        "not-read",
        "file has not been read yet",
        "open a file with the Read tool first",
        "open the file with the Read tool in this session first: Edit and Write accept only files it has shown",
    ),
    (
        "not-found",
        "string to replace not found",
        "copy old_string exactly from the file",
        "copy old_string exactly from the file's current text, whitespace and indentation included: Edit replaces only an exact match",
    ),
    (
        "not-unique",
        "matches of the string to replace",
        "a unique old_string for Edit",
        "give Edit an old_string with enough surrounding lines to be unique, or set replace_all when every occurrence should change",
    ),
    (
        "modified",
        "file has been modified since read",
        "look at a file again after it changed",
        "open the file again before editing when something else (a formatter, a hook, the user) may have changed it",
    ),
];

/// Slips the Bash tool's shell makes fail. "(eval):N:" is how zsh names the command
/// Claude Code hands it, so the message is the agent's own shell speaking, not output
/// from another machine reached over ssh.
const ZSH_SLIPS: &[Slip] = &[(
    "zsh-nomatch",
    "no matches found",
    "list files by pattern with the Glob tool",
    "list files by pattern with the Glob tool or `find`, and quote a pattern meant for a program: the Bash tool's shell is zsh, where a glob that matches nothing is an error (\"no matches found\") that stops the command instead of expanding to nothing",
)];

/// What to do instead of sudo in the agent's shell.
const SUDO_REMEDY: &str = "don't run commands that need `sudo` in the Bash tool: it has no terminal to ask for the password, so sudo fails; give the user the command to run themselves (in Claude Code, with a leading `!`)";

/// Slips of `sudo` in the Bash tool, which has no terminal to ask for a password on.
/// Its own advice (`-S`, an askpass helper) would need the password in the agent's
/// hands. Three wordings of one slip.
const SUDO_SLIPS: &[Slip] = &[
    (
        "sudo-password",
        "sudo: a terminal is required",
        "hand the user commands that need sudo",
        SUDO_REMEDY,
    ),
    (
        "sudo-password",
        "sudo: a password is required",
        "hand the user commands that need sudo",
        SUDO_REMEDY,
    ),
    (
        "sudo-password",
        "sudo: no tty present",
        "hand the user commands that need sudo",
        SUDO_REMEDY,
    ),
];

/// Slips of the shell the Bash tool runs: what says them, where in the error that
/// shows, and when the memory applies.
struct ShellSlips {
    slips: &'static [Slip],
    /// Whether the error's text before the words shows the right speaker.
    said_after: fn(&str) -> bool,
    trigger: &'static str,
    speaker: &'static str,
}

const SHELL_SLIPS: &[ShellSlips] = &[
    ShellSlips {
        slips: ZSH_SLIPS,
        said_after: said_by_the_shell,
        trigger: "when about to use a wildcard in a shell command",
        speaker: "zsh said",
    },
    ShellSlips {
        slips: SUDO_SLIPS,
        // sudo speaks at the start of a line; a log quoting it mid-line is not sudo.
        said_after: at_line_start,
        trigger: "when about to run a command with `sudo`",
        speaker: "said",
    },
];

/// How long after a refusal the next call on the file must come to have been made
/// knowing of it: calls made together (in parallel) are refused together.
const AFTER_SECONDS: i64 = 2;

/// The slip a refused tool call or a failed shell command made, if it is one we know,
/// and for a shell's slip, its family.
fn slip_of(obs: &Observation) -> Option<(&'static Slip, Option<&'static ShellSlips>)> {
    let error = obs.error.as_deref()?.to_ascii_lowercase();
    match obs.outcome? {
        Outcome::ToolError => SLIPS
            .iter()
            .find(|(_, said, _, _)| error.contains(said))
            .map(|slip| (slip, None)),
        Outcome::Error if obs.tool.as_ref().is_some_and(|t| t.name() == "Bash") => {
            SHELL_SLIPS.iter().find_map(|family| {
                family
                    .slips
                    .iter()
                    .find(|(_, said, _, _)| {
                        error
                            .match_indices(said)
                            .any(|(at, _)| (family.said_after)(&error[..at]))
                    })
                    .map(|slip| (slip, Some(family)))
            })
        }
        _ => None,
    }
}

/// Whether the tool's message failed to teach: the next call on the same file, made
/// after the refusal, was refused the same way.
fn not_taught(session: &[Observation], at: usize, kind: &str) -> bool {
    let slip = &session[at];
    let (Some(file), Some(refused)) = (
        slip.input.file_path.as_deref(),
        crate::time::parse(&slip.ts),
    ) else {
        return false;
    };
    let after = |o: &Observation| {
        crate::time::parse(&o.ts).is_some_and(|t| (t - refused).num_seconds() >= AFTER_SECONDS)
    };
    session[at + 1..]
        .iter()
        .filter(|o| o.outcome.is_some() && o.tool.as_ref().is_some_and(Tool::edits_files))
        .filter(|o| o.input.file_path.as_deref() == Some(file))
        .find(|o| after(o))
        .and_then(slip_of)
        .is_some_and(|((k, ..), _)| *k == kind)
}

/// Whether the text before a message ends a line (or the error's " | " join of lines).
fn at_line_start(before: &str) -> bool {
    before.is_empty() || before.ends_with('\n') || before.ends_with("| ")
}

/// Whether the text before a message ends in zsh's name for the command it ran,
/// "(eval):3:".
fn said_by_the_shell(before: &str) -> bool {
    before
        .trim_end()
        .strip_suffix(':')
        .map(|b| b.trim_end_matches(|c: char| c.is_ascii_digit()))
        .is_some_and(|b| b.ends_with("(eval):"))
}

/// (f) Updates the ledger with the sessions' slips and reports those seen in enough
/// sessions, once per session.
pub fn protocol(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        let mut reported: Vec<&str> = Vec::new();
        for (at, obs) in session.iter().enumerate() {
            let Some(((kind, said, name, remedy), family)) = slip_of(obs) else {
                continue;
            };
            let tool = obs.tool.as_ref().map_or("Edit", Tool::name);
            let shell = family.is_some();
            if reported.contains(kind) || (!shell && !not_taught(session, at, kind)) {
                continue;
            }
            reported.push(kind);
            let key = crate::memory::pattern::protocol(kind);
            let seen = sessions_of(&mut ledger.refused, "", &key);
            seen.insert(obs.session_id.clone());
            let needed = if shell {
                SHELL_SLIP_SESSIONS
            } else {
                SLIP_SESSIONS
            };
            if seen.len() < needed {
                continue;
            }
            let mut f = Finding::seen_in(obs, key, "tooling");
            f.project = None;
            f.trigger = match (family, tool) {
                (Some(family), _) => family.trigger.to_string(),
                (None, "Write") => "when about to write a file with Write".to_string(),
                (None, _) => format!("when about to edit a file with {tool}"),
            };
            f.action = remedy.to_string();
            f.title = (*name).to_string();
            let how = family.map_or("refused:", |family| family.speaker);
            // The first report names the sessions that led up to it, so each one the
            // count rests on can be looked up.
            let earlier: Vec<String> = if seen.len() == needed {
                seen.iter()
                    .filter(|s| **s != obs.session_id)
                    .map(|s| sid8(s))
                    .collect()
            } else {
                Vec::new()
            };
            let before = if earlier.is_empty() {
                String::new()
            } else {
                format!("; before in session {}", earlier.join(", "))
            };
            f.evidence = format!(
                "{}, {}: {tool} {how} \"{said}\" (session {}{before})",
                obs.ts.get(..10).unwrap_or(&obs.ts),
                obs.project,
                sid8(&obs.session_id)
            );
            f.known = seen.len() as u32;
            out.push(f);
        }
    }
    out
}
