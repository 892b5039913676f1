//! The walk from a failure to what fixed it: the observations after it, within a
//! short gap, in the same folder, with at most the one user message the error asked
//! for, until a command that relates to the failed one passes.

use super::fixes::{answers, elsewhere_or_a_restart, first, moved, path_missing, prefixed};
use super::names::same_program;
use super::relate::relate;
use super::{Fix, GAP_SECONDS, LOOKAHEAD, seconds_between, shell_command};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::agent::tool::Tool;
use crate::shell::{self, Command};

/// A fix, the line that showed it, and whether the user spoke before it.
type Found<'a> = (Fix, &'a str, bool);

/// What one later observation says.
enum Step<'a> {
    Found(Found<'a>),
    /// The story ended without a fix.
    Stop,
    Next,
}

/// The failure and what happened on the way since.
struct Walk<'f> {
    failed: &'f Observation,
    fail: &'f Command,
    fail_line: &'f str,
    error: &'f str,
    /// The commands of the failed line, as text.
    before_fail: Vec<String>,
    /// A step the error asked for.
    setup: Option<Command>,
    /// Steps taken on the way that the error did not ask for.
    unasked: Vec<Command>,
    /// A step elsewhere or a restart was among them.
    spoiled: bool,
    prompts: usize,
}

/// The fix of `fail` among the observations `later`, as its outcome confirms it.
pub(super) fn candidate_fix<'a>(
    failed: &Observation,
    later: &'a [Observation],
    fail: &Command,
    fail_line: &str,
    error: &str,
) -> Option<Found<'a>> {
    let mut walk = Walk {
        failed,
        fail,
        fail_line,
        error,
        before_fail: shell::parse(fail_line).iter().map(Command::text).collect(),
        setup: None,
        unasked: Vec::new(),
        spoiled: false,
        prompts: 0,
    };
    for obs in later.iter().take(LOOKAHEAD) {
        match walk.step(obs) {
            Step::Found(found) => return Some(found),
            Step::Stop => return None,
            Step::Next => {}
        }
    }
    None
}

impl Walk<'_> {
    fn step<'a>(&mut self, obs: &'a Observation) -> Step<'a> {
        if seconds_between(&self.failed.ts, &obs.ts).is_some_and(|s| s > GAP_SECONDS) {
            return Step::Stop;
        }
        // The user may answer a question on the way (an email for `git config`); a
        // second prompt is another task.
        if obs.event == Event::Prompt {
            self.prompts += 1;
            return if self.prompts > 1 {
                Step::Stop
            } else {
                Step::Next
            };
        }
        // Another folder is another story (the shell's own `cd` aside).
        let cwd = &self.failed.cwd;
        if !obs.cwd.is_empty() && !cwd.is_empty() && obs.cwd != *cwd {
            return Step::Stop;
        }
        if obs.tool.as_ref().is_some_and(Tool::edits_files) {
            // The code changed: whatever works now, the fix was the edit.
            return Step::Stop;
        }
        let Some(line) = shell_command(obs) else {
            return Step::Next;
        };
        if shell::line_is_never_advice(line) {
            return Step::Stop;
        }
        // A command whose output says nothing happened changed nothing.
        let ok = obs.outcome == Some(Outcome::Success) && !obs.noop;
        self.command(line, ok)
    }

    /// A shell line after the failure; `ok` when it passed and changed something.
    fn command<'a>(&mut self, line: &'a str, ok: bool) -> Step<'a> {
        let (fail, fail_line, error) = (self.fail, self.fail_line, self.error);
        let asked = self.prompts > 0;
        let cmds = shell::parse(line);
        // The failed command again, wherever it stands on the line (`aws eks
        // update-kubeconfig … && kubectl get ns x`), else the line's main command.
        let again = cmds.iter().find(|c| c.text() == fail.text());
        let Some(next) = again.or_else(|| shell::primary(&cmds)) else {
            return Step::Next;
        };
        // A look is no fix, unless it is the failed look done with the right tool.
        if shell::line_is_diagnostic(line) {
            let sibling =
                relate(fail, fail_line, error, next, &cmds).filter(|f| f.key.starts_with("use:"));
            return match sibling {
                Some(fix) if ok => Step::Found((fix, line, asked)),
                _ => Step::Next,
            };
        }
        // A step the agent put in front of the same kind of command on the same line.
        let on_the_line = cmds.iter().find(|c| {
            c.text() != next.text()
                && !c.filters
                && !same_program(c, fail)
                && !shell::is_setup(c)
                && !shell::is_diagnostic(c)
                && !self.before_fail.contains(&c.text())
        });
        let same_kind = next.shape() == fail.shape();
        if ok && same_kind && next.text() != fail.text() {
            // The command changed itself (a variable, a flag): that is the fix.
            if let Some(fix) = relate(fail, fail_line, error, next, &cmds) {
                return Step::Found((fix, line, asked));
            }
            // The relative `cd` failed, so the agent went to the absolute folder and
            // named its target from there (`cd x && go build ./...` → `cd /repo &&
            // go build ./x/...`).
            let lower = error.to_ascii_lowercase();
            if (path_missing(&lower) || lower.contains("cd:"))
                && let Some(fix) = moved(fail_line, line, error)
            {
                return Step::Found((fix, line, asked));
            }
            if let Some(step) = on_the_line {
                return Step::Found((first(step, fail), line, asked));
            }
        }
        if next.text() == fail.text() {
            return if ok {
                self.passes_again(next, &cmds, line, on_the_line)
            } else {
                Step::Next
            };
        }
        if !ok {
            return Step::Next;
        }
        let related = cmds
            .iter()
            .filter(|c| !shell::is_setup(c) && !shell::is_diagnostic(c))
            .find_map(|c| relate(fail, fail_line, error, c, &cmds));
        if let Some(fix) = related {
            return Step::Found((fix, line, asked));
        }
        if self.setup.is_none() && !same_program(next, fail) && answers(error, next) {
            self.setup = Some(next.clone());
        } else if !same_program(next, fail) {
            // Whatever passes after a step elsewhere or a restart may owe it to the
            // world (an outage ended), not to any step.
            self.spoiled |= elsewhere_or_a_restart(next);
            self.unasked.push(next.clone());
        }
        Step::Next
    }

    /// The same command works now: behind a set-up command on the same line, or after
    /// a step that answered the error, that is the lesson; with nothing in between the
    /// failure was flaky.
    fn passes_again<'a>(
        &mut self,
        next: &Command,
        cmds: &[Command],
        line: &'a str,
        on_the_line: Option<&Command>,
    ) -> Step<'a> {
        let asked = self.prompts > 0;
        if let Some(fix) = prefixed(next, cmds).or_else(|| moved(self.fail_line, line, self.error))
        {
            return Step::Found((fix, line, asked));
        }
        // A step on the same line was put there on purpose; one before it counts only
        // when the error asked for it, so the user's answer may lie between.
        if let Some(step) = on_the_line {
            return Step::Found((first(step, self.fail), line, asked));
        }
        let step = match self.setup.take() {
            Some(step) => step,
            None if !asked && !self.spoiled && self.unasked.len() == 1 => {
                match self.unasked.pop() {
                    Some(step) => step,
                    None => return Step::Stop,
                }
            }
            None => return Step::Stop,
        };
        Step::Found((first(&step, self.fail), line, false))
    }
}
