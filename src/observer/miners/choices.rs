//! (d) Consistent tool choices per project: a non-default tool (pnpm, uv, nextest,
//! `uv run pytest`) used successfully in three sessions while the default never worked
//! there. Trying the default and failing counts for the alternative that then worked,
//! not against it.

use std::collections::{BTreeMap, BTreeSet};

use super::{Finding, Ledger, sessions_of};
use crate::agent::observation::{Event, Observation};
use crate::agent::tool::Tool;
use crate::shell::{self, Command};

pub const CHOICE_SESSIONS: usize = 3;

/// Python tools that are run either bare or through a project runner.
const PYTHON_TOOLS: &[&str] = &["pytest", "pyright", "mypy", "ty", "black", "isort", "ruff"];

/// A choice between tools for one purpose.
#[derive(Debug, Clone, PartialEq)]
struct Choice {
    /// What the tools are for, as a trigger says it.
    purpose: String,
    /// The tool most people would reach for.
    default: String,
    /// The one this command used.
    used: String,
}

fn choice(purpose: &str, default: &str, used: &str) -> Choice {
    Choice {
        purpose: purpose.into(),
        default: default.into(),
        used: used.into(),
    }
}

/// The choices one command makes.
fn choices_of(cmd: &Command) -> Option<Choice> {
    let (tool, verb) = (cmd.tool(), cmd.verb().unwrap_or(""));
    let inner = cmd.words().nth(1).unwrap_or("");
    match (tool, verb) {
        ("npm" | "pnpm" | "yarn" | "bun", _) => {
            Some(choice("JavaScript packages and scripts", "npm", tool))
        }
        ("uv" | "poetry", "run") if PYTHON_TOOLS.contains(&inner) => Some(choice(
            &format!("{inner} (Python)"),
            inner,
            &format!("{tool} run {inner}"),
        )),
        ("uv" | "poetry", "pip" | "add" | "sync" | "install" | "lock" | "remove" | "venv")
        | ("pip" | "pip3", _) => {
            let used = if tool == "pip3" { "pip" } else { tool };
            Some(choice("Python packages", "pip", used))
        }
        (t, _) if PYTHON_TOOLS.contains(&t) && cmd.program == t => {
            Some(choice(&format!("{t} (Python)"), t, t))
        }
        ("cargo", "test") => Some(choice("Rust tests", "cargo test", "cargo test")),
        ("cargo", "nextest") => Some(choice("Rust tests", "cargo test", "cargo nextest")),
        ("docker", "compose") => Some(choice("Docker Compose", "docker compose", "docker compose")),
        ("docker-compose", _) => Some(choice("Docker Compose", "docker compose", "docker-compose")),
        _ => None,
    }
}

type Sessions = BTreeMap<String, BTreeSet<String>>;

fn sessions(map: Option<&Sessions>, alt: &str) -> usize {
    map.and_then(|m| m.get(alt)).map_or(0, BTreeSet::len)
}

/// (d) Updates the ledger with this batch's sessions; reports a choice once it is
/// established, and a contradiction when the default works three or more times.
pub fn choices(batch: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let before = ledger.tools.clone();
    let mut defaults_worked: BTreeMap<(String, String), usize> = BTreeMap::new();
    // project → purpose → (default, alternatives seen, last observation)
    let mut seen: BTreeMap<(String, String), (String, BTreeSet<String>, &Observation)> =
        BTreeMap::new();
    for obs in batch.iter().flatten() {
        if obs.event != Event::Post || obs.tool != Some(Tool::Bash) {
            continue;
        }
        let Some(line) = obs.input.command.as_deref() else {
            continue;
        };
        for c in shell::parse(line).iter().filter_map(choices_of) {
            if c.used == c.default {
                *defaults_worked
                    .entry((obs.project.clone(), c.default.clone()))
                    .or_default() += 1;
            }
            sessions_of(&mut ledger.tools, &obs.project, &c.used).insert(obs.session_id.clone());
            let entry = seen
                .entry((obs.project.clone(), c.purpose.clone()))
                .or_insert_with(|| (c.default.clone(), BTreeSet::new(), obs));
            entry.1.insert(c.used);
            entry.2 = obs;
        }
    }
    let mut out = Vec::new();
    for ((project, purpose), (default, used, obs)) in seen {
        let now = ledger.tools.get(&project);
        let then = before.get(&project);
        for alt in used.iter().filter(|a| **a != default) {
            let count = sessions(now, alt);
            let established_now = count >= CHOICE_SESSIONS && sessions(now, &default) == 0;
            let established_before =
                sessions(then, alt) >= CHOICE_SESSIONS && sessions(then, &default) == 0;
            let defaults = defaults_worked
                .get(&(project.clone(), default.clone()))
                .copied()
                .unwrap_or(0);
            let opposite = established_before && defaults >= 3;
            if !(opposite || established_now && count > sessions(then, alt)) {
                continue;
            }
            let domain = if purpose.contains("test") || alt.contains("pytest") {
                "testing"
            } else {
                "tooling"
            };
            let mut f =
                Finding::seen_in(obs, crate::memory::pattern::choice(&project, alt), domain);
            f.trigger = format!("when running {purpose} in {project}");
            f.action =
                format!("use `{alt}`, not `{default}`: this project uses {alt} consistently");
            f.title = format!("{project} uses {alt}");
            f.evidence = if opposite {
                format!("`{default}` worked {defaults} times in one batch")
            } else {
                format!("`{alt}` worked in {count} sessions of this project, `{default}` in none")
            };
            f.known = count as u32;
            f.opposite = opposite;
            out.push(f);
        }
    }
    out
}
