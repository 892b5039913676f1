//! The opt-in LLM engine: runs `observer.llm_command` (default `claude -p --model
//! haiku`) once per lens, as in Nous: learnings (`templates/lens-learnings.md`: the
//! observations and the conversation, for imperative guidance) and knowledge
//! (`templates/lens-knowledge.md`: the conversation, for project facts). The conversation
//! is each session's transcript from a per-transcript cursor, so no window is read
//! twice. The child gets `HOMUNCULUS_OBSERVER=1` and a timeout; answers are parsed as
//! operations and validated, never trusted to write files. Prompt characters are
//! budgeted per run and per day.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::builtin::Existing;
use super::ops::{self, Op};
use super::{ObserverError, batch};
use crate::capture::observation::Observation;
use crate::capture::{hook_state, transcript};
use crate::paths::Paths;
use crate::setup::config::{Config, parse_duration};
use std::collections::BTreeMap;

pub const LEARNINGS: &str = include_str!("../../templates/lens-learnings.md");
pub const KNOWLEDGE: &str = include_str!("../../templates/lens-knowledge.md");
/// The most answer we read from the command.
const MAX_ANSWER: u64 = 1024 * 1024;

fn instinct_index(existing: &Existing) -> String {
    let mut index = String::new();
    for i in existing.instincts.iter().take(200) {
        index.push_str(&format!(
            "- {} [{}] {} → {}\n",
            i.name, i.domain, i.trigger, i.action
        ));
    }
    index
}

/// Observation lines, as many as fit in `budget` characters.
fn observation_lines(observations: &[Observation], budget: usize) -> String {
    let mut lines = String::new();
    for o in observations {
        let line = serde_json::to_string(o).unwrap_or_default();
        if lines.len() + line.len() + 1 > budget {
            break;
        }
        lines.push_str(&line);
        lines.push('\n');
    }
    lines
}

/// The conversation of the batch's sessions past each transcript's cursor, within
/// `budget` characters, and the cursors once it is read (complete lines only).
fn conversation(
    paths: &Paths,
    observations: &[Observation],
    budget: usize,
) -> (String, BTreeMap<String, u64>) {
    let cursors = batch::read_transcript_cursors(paths);
    let mut sessions: Vec<&str> = observations.iter().map(|o| o.session_id.as_str()).collect();
    sessions.dedup();
    let mut text = String::new();
    let mut advanced = BTreeMap::new();
    for sid in sessions {
        let Some(path) = hook_state::read(paths, sid).transcript_path else {
            continue;
        };
        // Regular files only, read from the cursor and no further than the budget can
        // use: a FIFO or `/dev/zero` behind the path cannot stall or flood the run.
        let from = cursors.get(&path).copied().unwrap_or(0) as usize;
        let Some(bytes) = crate::fsutil::read_range(
            std::path::Path::new(&path),
            from as u64,
            (budget as u64).saturating_mul(8),
        ) else {
            continue;
        };
        let rest = bytes.as_slice();
        let mut end = from;
        let mut window = String::new();
        for line in rest.split_inclusive(|&b| b == b'\n') {
            if !line.ends_with(b"\n") {
                break;
            }
            let said = transcript::dialogue(&String::from_utf8_lossy(line));
            if text.len() + window.len() + said.len() > budget {
                break;
            }
            window.push_str(&said);
            end += line.len();
        }
        if end > from {
            text.push_str(&window);
            advanced.insert(path, end as u64);
        }
    }
    (text, advanced)
}

/// What the engine proposes, and how far it read each transcript.
pub struct Answer {
    pub ops: Vec<Op>,
    pub refused: Vec<String>,
    pub transcript_cursors: BTreeMap<String, u64>,
}

/// Runs both lenses. Operations come back validated; the cursors are to be stored once
/// the operations are applied.
pub fn run(
    paths: &Paths,
    config: &Config,
    observations: &[Observation],
    existing: &Existing,
    now: DateTime<Utc>,
) -> Result<Answer, ObserverError> {
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
    if budget < 4_000 {
        return Err(ObserverError::Llm(
            "daily budget spent; try tomorrow or raise observer.llm_daily_budget".into(),
        ));
    }
    let index = instinct_index(existing);
    let room = budget.saturating_sub(LEARNINGS.len() + KNOWLEDGE.len() + 2 * index.len()) / 3;
    let (talk, transcript_cursors) = conversation(paths, observations, room);
    let mut prompts = vec![crate::setup::templates::render(
        LEARNINGS,
        &[
            ("instincts", &index),
            ("observations", &observation_lines(observations, room)),
            ("transcript", &talk),
        ],
    )];
    if !talk.is_empty() {
        prompts.push(crate::setup::templates::render(
            KNOWLEDGE,
            &[("instincts", &index), ("transcript", &talk)],
        ));
    }
    state.llm_chars_today += prompts.iter().map(String::len).sum::<usize>();
    batch::write_state(paths, &state)?;
    let timeout = parse_duration(&config.observer.llm_timeout).unwrap_or(Duration::from_secs(120));
    let mut answer = Answer {
        ops: Vec::new(),
        refused: Vec::new(),
        transcript_cursors,
    };
    for prompt in prompts {
        // Secrets never leave for the model, and none it echoes back are written.
        let asked = crate::capture::redact::redact(&prompt);
        let (ops, refused) = ops::parse(&call(&config.observer.llm_command, &asked, timeout)?);
        answer.ops.extend(ops.into_iter().map(Op::redacted));
        answer.refused.extend(refused);
    }
    Ok(answer)
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
