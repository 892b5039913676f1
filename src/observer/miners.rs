//! The builtin engine's miners: pure functions from a batch of observations to
//! findings. (a) error recoveries, (b) user corrections in prompts, (c) files edited
//! together across sessions, (d) consistent tool choices per project. What they never
//! report: tool frequencies, standard sequences (Read→Edit, status→diff→commit), generic
//! validation, or the default choice.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::capture::observation::{Event, Observation, is_noisy_command};
use crate::capture::payload::is_edit_tool;

/// One sighting of a pattern (or, with `opposite`, of its contradiction).
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub key: String,
    pub domain: String,
    pub trigger: String,
    pub action: String,
    pub title: String,
    pub project: Option<String>,
    pub paths: Vec<String>,
    pub evidence: String,
    /// Occurrences already counted outside this batch (ledgers), plus this one.
    pub known: u32,
    pub opposite: bool,
}

fn day(ts: &str) -> &str {
    ts.get(..10).unwrap_or(ts)
}

fn sid8(obs: &Observation) -> String {
    obs.session_id.chars().take(8).collect()
}

/// The program and subcommands of a shell command: `cargo test -p x` → `cargo test`.
pub fn command_shape(command: &str) -> String {
    let words = command
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .take_while(|w| {
            !w.starts_with('-')
                && !w.contains(['/', '.', '=', '"', '\'', '$', '|', '>', '<', '&', ';', ':'])
        })
        .take(3)
        .collect::<Vec<_>>();
    words.join(" ")
}

/// The domain a piece of text most likely belongs to.
pub fn domain_of(text: &str) -> &'static str {
    let t = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if has(&["test", "pytest", "jest", "nextest", "spec"]) {
        "testing"
    } else if has(&["git ", "commit", "rebase", "branch", "merge", "push"]) {
        "git"
    } else if has(&["secret", "password", "token", "credential"]) {
        "security"
    } else if has(&["format", "style", "naming", "indent", "lint", "clippy"]) {
        "code-style"
    } else if has(&["readme", "docs", "comment", "documentation"]) {
        "documentation"
    } else if has(&["slow", "perf", "cache", "faster", "benchmark"]) {
        "performance"
    } else {
        "tooling"
    }
}

/// (a) A failing shell command followed, within a few steps of the same session, by a
/// different command of the same program that succeeds.
pub fn recoveries(session: &[Observation]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, failed) in session.iter().enumerate() {
        let (Event::Failure, Some(cmd)) = (failed.event, failed.input.command.as_deref()) else {
            continue;
        };
        let fail = command_shape(cmd);
        if fail.is_empty() || is_noisy_command(cmd) {
            continue;
        }
        let program = fail.split(' ').next().unwrap_or("");
        let fix = session[i + 1..].iter().take(10).find_map(|later| {
            let c = later.input.command.as_deref()?;
            let shape = command_shape(c);
            let same_program = shape.split(' ').next() == Some(program);
            (later.event == Event::Post && same_program && shape != fail && !is_noisy_command(c))
                .then_some((c, shape))
        });
        let Some((fixed_cmd, fixed)) = fix else {
            continue;
        };
        let why: String = failed
            .error
            .as_deref()
            .unwrap_or("")
            .chars()
            .take(100)
            .collect();
        out.push(Finding {
            key: format!("recover:{}:{fail}=>{fixed}", failed.project),
            domain: domain_of(&format!("{fail} {fixed}")).to_string(),
            trigger: format!("when `{fail}` fails in {}", failed.project),
            action: format!("run `{fixed}` instead; `{fail}` failed with: {why}"),
            title: format!("{fixed} after {fail} fails"),
            project: Some(failed.project.clone()),
            paths: Vec::new(),
            evidence: format!(
                "{}: `{cmd}` failed; `{fixed_cmd}` succeeded (session {})",
                day(&failed.ts),
                sid8(failed)
            ),
            known: 1,
            opposite: false,
        });
    }
    out
}

/// Successful runs of a command shape in a project: evidence against a recovery
/// instinct that says this command fails.
pub fn successes(batch: &[Observation]) -> BTreeMap<(String, String), u32> {
    let mut out = BTreeMap::new();
    for obs in batch {
        if let (Event::Post, Some(cmd)) = (obs.event, obs.input.command.as_deref()) {
            *out.entry((obs.project.clone(), command_shape(cmd)))
                .or_insert(0) += 1;
        }
    }
    out
}

fn correction_patterns() -> &'static [(Regex, &'static str)] {
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            (r"(?i)\b(?:use|prefer)\s+(?P<a>[\w.@/+-]+(?:\s+[\w.@/+-]+){0,2})\s+(?:instead of|over|rather than)\s+(?P<b>[\w.@/+-]+(?:\s+[\w.@/+-]+){0,2})", "use $a instead of $b"),
            (r"(?i)\b(?:don't|do not|never)\s+(?P<x>(?:use|run|call|add|commit|push|edit|touch|write|create|delete|remove|modify|change|install)\b[^.;!?\n]{2,80})", "never $x"),
            (r"(?i)\balways\s+(?P<x>[^.;!?\n]{3,80})", "always $x"),
            (r"(?i)^\s*(?:no|nope|wrong)\b[,.!:]?\s+(?:please\s+)?(?P<x>(?:use|run|try|call)\s+[^.;!?\n]{2,80})", "$x"),
        ]
        .iter()
        .filter_map(|(p, t)| Regex::new(p).ok().map(|r| (r, *t)))
        .collect()
    })
}

/// (b) Rules a user stated while correcting the agent ("no, use X", "don't ...",
/// "always/never ...", "use A instead of B").
pub fn corrections(batch: &[Observation]) -> Vec<Finding> {
    let mut out = Vec::new();
    for obs in batch.iter().filter(|o| o.event == Event::Prompt) {
        let Some(prompt) = obs.prompt.as_deref() else {
            continue;
        };
        let mut rules: Vec<String> = Vec::new();
        for (re, template) in correction_patterns() {
            for caps in re.captures_iter(prompt) {
                let mut rule = String::new();
                caps.expand(template, &mut rule);
                let rule = rule.split_whitespace().collect::<Vec<_>>().join(" ");
                if !rules
                    .iter()
                    .any(|r| r.contains(&rule) || rule.contains(r.as_str()))
                {
                    rules.push(rule);
                }
            }
        }
        for rule in rules {
            let normal = rule.to_lowercase();
            out.push(Finding {
                key: format!("correct:{}:{normal}", obs.project),
                domain: domain_of(&normal).to_string(),
                trigger: format!("when working in {}", obs.project),
                action: format!(
                    "{}{} (the user's rule)",
                    rule[..1].to_uppercase(),
                    &rule[1..]
                ),
                title: format!("User rule: {rule}"),
                project: Some(obs.project.clone()),
                paths: Vec::new(),
                evidence: format!(
                    "{}: the user said \"{}\" (session {})",
                    day(&obs.ts),
                    crate::text::clip_chars(prompt, 160),
                    sid8(obs)
                ),
                known: 1,
                opposite: false,
            });
        }
    }
    out
}

/// Files whose co-editing says nothing (lock files, changelogs).
fn is_incidental(file: &str) -> bool {
    const NAMES: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "go.sum",
        "poetry.lock",
        "uv.lock",
        "CHANGELOG.md",
    ];
    let base = file.rsplit('/').next().unwrap_or(file);
    NAMES.contains(&base)
}

/// Sessions that edit more files than this are mass changes, not a coupling signal.
const COEDIT_MAX_FILES: usize = 15;
pub const COEDIT_SESSIONS: usize = 3;

/// Persistent counts for the ledger-based miners.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Ledger {
    /// project → "a\u{1f}b" → sessions that edited both.
    pub coedits: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// project → tool alternative → successful uses.
    pub choices: BTreeMap<String, BTreeMap<String, u32>>,
}

/// (c) Files edited together: updates the ledger with this batch's sessions and
/// reports pairs edited together in `COEDIT_SESSIONS` or more sessions (each direction).
pub fn coedits(
    sessions: &[Vec<Observation>],
    roots: &dyn Fn(&Observation) -> Option<String>,
    ledger: &mut Ledger,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        let Some(first) = session.first() else {
            continue;
        };
        let mut files: BTreeSet<String> = BTreeSet::new();
        for obs in session {
            let edit = matches!(
                obs.tool.as_deref(),
                Some(t) if is_edit_tool(t)
            );
            if let (true, Event::Post, Some(path)) =
                (edit, obs.event, obs.input.file_path.as_deref())
            {
                let relative = roots(obs)
                    .and_then(|root| path.strip_prefix(&format!("{root}/")).map(str::to_string))
                    .unwrap_or_else(|| path.to_string());
                if !is_incidental(&relative) {
                    files.insert(relative);
                }
            }
        }
        if files.len() < 2 || files.len() > COEDIT_MAX_FILES {
            continue;
        }
        let sid = first.session_id.clone();
        let pairs = ledger.coedits.entry(first.project.clone()).or_default();
        let list: Vec<&String> = files.iter().collect();
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let seen = pairs.entry(format!("{a}\u{1f}{b}")).or_default();
                if !seen.insert(sid.clone()) || seen.len() < COEDIT_SESSIONS {
                    continue;
                }
                for (from, to) in [(a, b), (b, a)] {
                    out.push(Finding {
                        key: format!("coedit:{}:{from}=>{to}", first.project),
                        domain: "architecture".into(),
                        trigger: format!("when editing {from} in {}", first.project),
                        action: format!(
                            "also check {to}: the two changed together in {} sessions",
                            seen.len()
                        ),
                        title: format!("{from} goes with {to}"),
                        project: Some(first.project.clone()),
                        paths: vec![from.to_string()],
                        evidence: format!(
                            "{}: edited together again (session {})",
                            day(&first.ts),
                            sid8(first)
                        ),
                        known: seen.len() as u32,
                        opposite: false,
                    });
                }
            }
        }
    }
    out
}

/// Tool alternatives: (group name, default, alternatives including the default).
const CHOICES: &[(&str, &str, &[&str])] = &[
    (
        "JavaScript packages",
        "npm",
        &["npm", "pnpm", "yarn", "bun"],
    ),
    ("Python packages", "pip", &["pip", "uv", "poetry"]),
    ("Rust tests", "cargo test", &["cargo test", "cargo nextest"]),
];
pub const CHOICE_USES: u32 = 3;

/// (d) A non-default tool used consistently in a project (and the default never):
/// updates the ledger; reports the choice once it is established, and a contradiction
/// when the default shows up three or more times in this batch.
pub fn choices(batch: &[Observation], ledger: &mut Ledger) -> Vec<Finding> {
    let mut in_batch: BTreeMap<(String, &str), u32> = BTreeMap::new();
    for obs in batch {
        let Some(cmd) = obs.input.command.as_deref() else {
            continue;
        };
        let shape = command_shape(cmd);
        for (_, default, alternatives) in CHOICES {
            let Some(alt) = alternatives
                .iter()
                .find(|a| shape == **a || shape.starts_with(&format!("{a} ")))
            else {
                continue;
            };
            // A choice counts when it worked; trying the default counts even when it failed.
            if obs.event == Event::Post || (alt == default && obs.event == Event::Failure) {
                *in_batch.entry((obs.project.clone(), alt)).or_default() += 1;
            }
        }
    }
    let before = ledger.choices.clone();
    for ((project, alt), n) in &in_batch {
        *ledger
            .choices
            .entry(project.clone())
            .or_default()
            .entry(alt.to_string())
            .or_default() += n;
    }
    let mut out = Vec::new();
    for (project, counts) in &ledger.choices {
        for (group, default, alternatives) in CHOICES {
            let count = |map: Option<&BTreeMap<String, u32>>, a: &str| {
                map.and_then(|m| m.get(a)).copied().unwrap_or(0)
            };
            let earlier = before.get(project);
            for alt in alternatives.iter().filter(|a| *a != default) {
                let established_before =
                    count(earlier, alt) >= CHOICE_USES && count(earlier, default) == 0;
                let established_now =
                    count(Some(counts), alt) >= CHOICE_USES && count(Some(counts), default) == 0;
                let in_this_batch = in_batch.get(&(project.clone(), alt)).copied().unwrap_or(0);
                let defaults_now = in_batch
                    .get(&(project.clone(), default))
                    .copied()
                    .unwrap_or(0);
                let opposite = established_before && defaults_now >= 3;
                let supported = established_now && in_this_batch > 0;
                if !opposite && !supported {
                    continue;
                }
                out.push(Finding {
                    key: format!("choice:{project}:{alt}"),
                    domain: if *alt == "cargo nextest" {
                        "testing"
                    } else {
                        "tooling"
                    }
                    .into(),
                    trigger: format!("when working with {group} in {project}"),
                    action: format!(
                        "use `{alt}`, not `{default}`: this project uses {alt} consistently"
                    ),
                    title: format!("{project} uses {alt}"),
                    project: Some(project.clone()),
                    paths: Vec::new(),
                    evidence: if opposite {
                        format!("`{default}` used {defaults_now} times in one batch")
                    } else {
                        format!(
                            "`{alt}` used {} times in this project, `{default}` never",
                            count(Some(counts), alt)
                        )
                    },
                    known: count(Some(counts), alt),
                    opposite,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
