//! The opt-in LLM engine: runs `observer.llm_command` (default `claude -p --model
//! haiku`) with the prompt of `templates/observer.md` on stdin, a bounded batch and the
//! existing instinct index, `HOMUNCULUS_OBSERVER=1` in its environment, and a timeout.
//! Its answer is parsed as operations and validated: never trusted to write files.
//! Prompt characters are budgeted per run and per day.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::builtin::Existing;
use super::ops::{self, Op};
use super::{ObserverError, batch};
use crate::config::{Config, parse_duration};
use crate::observation::Observation;
use crate::paths::Paths;

pub const TEMPLATE: &str = include_str!("../../templates/observer.md");
/// The most answer we read from the command.
const MAX_ANSWER: u64 = 1024 * 1024;

/// Builds the prompt for a batch: the template, the existing instincts (names and
/// triggers, for dedup) and the observations, cut to the run budget.
pub fn prompt(observations: &[Observation], existing: &Existing, budget: usize) -> String {
    let mut index = String::new();
    for i in existing.instincts.iter().take(200) {
        index.push_str(&format!(
            "- {} [{}] {} → {}\n",
            i.name, i.domain, i.trigger, i.action
        ));
    }
    let mut lines = String::new();
    for o in observations {
        let line = serde_json::to_string(o).unwrap_or_default();
        if TEMPLATE.len() + index.len() + lines.len() + line.len() + 1 > budget {
            break;
        }
        lines.push_str(&line);
        lines.push('\n');
    }
    crate::templates::render(TEMPLATE, &[("instincts", &index), ("observations", &lines)])
}

/// Runs the engine. Returns the valid operations and the reasons others were refused.
pub fn run(
    paths: &Paths,
    config: &Config,
    observations: &[Observation],
    existing: &Existing,
    now: DateTime<Utc>,
) -> Result<(Vec<Op>, Vec<String>), ObserverError> {
    let mut state = batch::read_state(paths);
    let today = now.format("%Y-%m-%d").to_string();
    if state.llm_day != today {
        state.llm_day = today;
        state.llm_chars_today = 0;
    }
    let left_today = config
        .observer
        .llm_daily_budget
        .saturating_sub(state.llm_chars_today);
    let budget = config.observer.llm_run_budget.min(left_today);
    if budget < 2_000 {
        return Err(ObserverError::Llm(
            "daily budget spent; try tomorrow or raise observer.llm_daily_budget".into(),
        ));
    }
    let text = prompt(observations, existing, budget);
    state.llm_chars_today += text.len();
    batch::write_state(paths, &state)?;
    let timeout = parse_duration(&config.observer.llm_timeout).unwrap_or(Duration::from_secs(120));
    let answer = call(&config.observer.llm_command, &text, timeout)?;
    Ok(ops::parse(&answer))
}

/// Runs the command through the shell with `input` on stdin; kills it at `timeout`.
fn call(command: &str, input: &str, timeout: Duration) -> Result<String, ObserverError> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("HOMUNCULUS_OBSERVER", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| ObserverError::Llm(format!("cannot run '{command}': {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_string();
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = (&mut stdout).take(MAX_ANSWER).read_to_string(&mut out);
        // Drain whatever exceeds the limit so the child is not blocked on a full pipe.
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        out
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = reader.join().unwrap_or_default();
                if !status.success() {
                    return Err(ObserverError::Llm(format!(
                        "'{command}' exited with {status}"
                    )));
                }
                return Ok(out);
            }
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ObserverError::Llm(format!(
                    "'{command}' timed out after {}s",
                    timeout.as_secs()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(ObserverError::Llm(e.to_string())),
        }
    }
}
