//! The builtin engine: runs the miners over a batch and decides, per pattern, what the
//! memory should do: reinforce or contradict the instinct that already stands for it
//! (matched by pattern key, else by text similarity), grow its episode, promote the
//! episode at three sightings, create an instinct at three sightings, or stage a new
//! episode.

use crate::memory::pattern;
use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use similar::TextDiff;

use super::miners::{self, Finding, Ledger};
use super::ops::Op;
use crate::agent::observation::Observation;
use crate::memory::{Instinct, Note, slugify};

/// Sightings that make a pattern an instinct.
pub const THRESHOLD: u32 = 3;
/// Text similarity at which a candidate is the same as an existing instinct.
pub const SAME_TEXT: f32 = 0.8;
/// The confidence a new instinct starts with (confirmed across three sightings).
pub const START_CONFIDENCE: f64 = 0.5;
/// A rule the user stated outright starts higher, at its first sighting.
pub const STATED_CONFIDENCE: f64 = 0.6;

/// What the engine knows of the memory.
pub struct Existing<'a> {
    pub instincts: &'a [Instinct],
    pub episodes: &'a [Note],
}

/// Mines `sessions` (observations grouped by session, in order) into operations.
pub fn run(
    sessions: &[Vec<Observation>],
    roots: &dyn Fn(&Observation) -> Option<String>,
    ledger: &mut Ledger,
    existing: &Existing,
) -> Vec<Op> {
    let batch: Vec<Observation> = sessions.iter().flatten().cloned().collect();
    let mut findings: Vec<Finding> = sessions
        .iter()
        .flat_map(|s| miners::recoveries(s))
        .collect();
    findings.extend(sessions.iter().flat_map(|s| miners::corrections(s)));
    findings.extend(miners::rejections(sessions, ledger));
    findings.extend(miners::protocol(sessions, ledger));
    findings.extend(miners::coedits(sessions, roots, ledger));
    let choices: Vec<Finding> = miners::choices(sessions, ledger)
        .into_iter()
        .filter(|c| !said_by_a_recovery(c, &findings, existing))
        .collect();
    findings.extend(choices);
    // How the user checks, unless a tool choice already says it (`uv run pytest`).
    let checks: Vec<Finding> = miners::checks(sessions, ledger)
        .into_iter()
        .filter(|c| !said_by_a_choice(c, &findings, existing))
        .collect();
    findings.extend(checks);
    findings.extend(failing_again(&batch, existing));
    decide(findings, existing, ledger)
}

/// A tool choice that a recovery already teaches ("use pnpm instead of npm") is the
/// same lesson twice.
fn said_by_a_recovery(choice: &Finding, findings: &[Finding], existing: &Existing) -> bool {
    let Some(alt) = pattern::choice_tool(&choice.key) else {
        return false;
    };
    // `choice:p:uv run pytest` is taught by `…=>use:uv run` too.
    said_by(choice, findings, existing, |key| {
        pattern::recovery_uses(key).is_some_and(|used| names(alt, used))
    })
}

/// A check the user runs that a tool choice of the same project already names (`uv run
/// ty check` by the choice `uv run ty`).
fn said_by_a_choice(check: &Finding, findings: &[Finding], existing: &Existing) -> bool {
    let Some(command) = pattern::check_command(&check.key) else {
        return false;
    };
    said_by(check, findings, existing, |key| {
        pattern::choice_tool(key).is_some_and(|tool| names(command, tool))
    })
}

/// Whether `command` is `tool`, or `tool` with more words.
fn names(command: &str, tool: &str) -> bool {
    command == tool || command.starts_with(&format!("{tool} "))
}

/// Whether a finding or a standing instinct of `finding`'s project has a key `says`.
fn said_by(
    finding: &Finding,
    findings: &[Finding],
    existing: &Existing,
    says: impl Fn(&str) -> bool,
) -> bool {
    findings
        .iter()
        .any(|f| f.project == finding.project && says(&f.key))
        || existing
            .instincts
            .iter()
            .any(|i| i.project == finding.project && i.pattern.as_deref().is_some_and(&says))
}

/// Evidence against recovery instincts: their failing command now succeeds.
fn failing_again(batch: &[Observation], existing: &Existing) -> Vec<Finding> {
    let ok = miners::successes(batch);
    let mut out = Vec::new();
    for i in existing.instincts {
        let Some(key) = i.pattern.as_deref() else {
            continue;
        };
        // Only recoveries keyed on a project's program (`recover:<project>:<program>=>…`).
        let Some((failure, _)) = pattern::recovery_parts(key) else {
            continue;
        };
        let Some((project, fail)) = failure.split_once(':') else {
            continue;
        };
        let n = ok
            .get(&(project.to_string(), fail.to_string()))
            .copied()
            .unwrap_or(0);
        let last = batch.last();
        for _ in 0..n {
            out.push(Finding {
                key: key.to_string(),
                domain: i.domain.clone(),
                trigger: i.trigger.clone(),
                action: i.action.clone(),
                title: String::new(),
                project: Some(project.to_string()),
                paths: Vec::new(),
                evidence: format!("`{fail}` succeeded {n} times in one batch"),
                known: 1,
                opposite: true,
                at: last.map(|o| o.ts.clone()).unwrap_or_default(),
                session: String::new(),
                explicit: false,
                provenance: i.provenance.unwrap_or_default(),
            });
        }
    }
    out
}

fn similar_enough(a: &str, b: &str) -> bool {
    TextDiff::from_chars(a, b).ratio() >= SAME_TEXT
}

fn at(f: &Finding) -> Option<DateTime<Utc>> {
    crate::time::parse(&f.at)
}

/// The project a pattern belongs to: the one it was seen in, or none (global) when a
/// recovery was seen in several projects (a missing git identity is everyone's).
fn scope(key: &str, support: &[&Finding]) -> Option<String> {
    let projects: BTreeSet<&Option<String>> = support.iter().map(|f| &f.project).collect();
    match projects.len() {
        1 => support[0].project.clone(),
        _ if pattern::is_recovery(key) => None,
        _ => support[0].project.clone(),
    }
}

/// Per pattern, what the memory should do with what the miners found.
fn decide(findings: Vec<Finding>, existing: &Existing, ledger: &mut Ledger) -> Vec<Op> {
    let mut taken: BTreeSet<String> = existing.instincts.iter().map(|i| i.name.clone()).collect();
    let mut ops = Vec::new();
    for (key, group) in by_key(findings) {
        let (against, support): (Vec<&Finding>, Vec<&Finding>) =
            group.iter().partition(|f| f.opposite);
        let Some(first) = support.first().or(against.first()).copied() else {
            continue;
        };
        if super::safety::refuse(&first.trigger, &first.action).is_some() {
            continue;
        }
        let last_seen = support.iter().filter_map(|f| at(f)).max();
        let sessions = count_sessions(ledger, &key, &support);
        if let Some(instinct) = standing(existing, &key, first) {
            if against.len() >= THRESHOLD as usize {
                ops.push(Op::Contradict {
                    name: instinct.name.clone(),
                    evidence: against[0].evidence.clone(),
                });
            } else if !support.is_empty() {
                ops.push(Op::Reinforce {
                    name: instinct.name.clone(),
                    evidence: summarise_evidence(&support),
                    last_seen,
                    sessions,
                });
            }
            continue;
        }
        if !support.is_empty() {
            ops.push(learn(&key, &support, existing, sessions, &mut taken));
        }
    }
    ops
}

/// Findings grouped by pattern key, keys in the order first found.
fn by_key(findings: Vec<Finding>) -> Vec<(String, Vec<Finding>)> {
    let mut groups: Vec<(String, Vec<Finding>)> = Vec::new();
    let mut at: BTreeMap<String, usize> = BTreeMap::new();
    for f in findings {
        match at.get(&f.key) {
            Some(&i) => groups[i].1.push(f),
            None => {
                at.insert(f.key.clone(), groups.len());
                groups.push((f.key.clone(), vec![f]));
            }
        }
    }
    groups
}

/// The instinct that already stands for a pattern: by its key, else, among instincts of
/// no key (written by hand or by an llm engine), by its text in the same project. An
/// instinct keyed to another pattern is that pattern's, however alike the words ("the
/// user runs `rm`" and "the user runs `nixos-rebuild`").
fn standing<'e>(existing: &Existing<'e>, key: &str, first: &Finding) -> Option<&'e Instinct> {
    let text = format!("{} {}", first.trigger, first.action);
    existing
        .instincts
        .iter()
        .find(|i| i.pattern.as_deref() == Some(key))
        .or_else(|| {
            existing.instincts.iter().find(|i| {
                i.pattern.is_none()
                    && i.project == first.project
                    && similar_enough(&format!("{} {}", i.trigger, i.action), &text)
            })
        })
}

/// A pattern no instinct stands for yet: an instinct at three sightings (its episode
/// promoted, when it had one) or when the user stated it; else an episode.
fn learn(
    key: &str,
    support: &[&Finding],
    existing: &Existing,
    sessions: u32,
    taken: &mut BTreeSet<String>,
) -> Op {
    let first = support[0];
    let first_seen = support.iter().filter_map(|f| at(f)).min();
    let last_seen = support.iter().filter_map(|f| at(f)).max();
    let episode = existing
        .episodes
        .iter()
        .find(|e| e.pattern.as_deref() == Some(key));
    let seen = sessions_of(support) + episode.map_or(0, |e| e.occurrences);
    let total = seen.max(support.iter().map(|f| f.known).max().unwrap_or(0));
    let explicit = support.iter().any(|f| f.explicit);
    let provenance = first.provenance;
    let project = scope(key, support);
    if total < THRESHOLD && !explicit {
        return Op::Episode {
            key: key.to_string(),
            title: first.title.chars().take(120).collect(),
            narrative: support
                .iter()
                .map(|f| f.evidence.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            project,
            tags: vec![first.domain.clone()],
            files: first.paths.clone(),
            occurrences: total,
            lesson: Some(format!("{}: {}", capitalized(&first.trigger), first.action)),
            seen: first_seen,
            provenance,
        };
    }
    let name = unique_name(&first.domain, &first.title, taken);
    match episode {
        Some(e) => Op::PromoteEpisode {
            episode: e.name.clone(),
            name,
            domain: first.domain.clone(),
            trigger: first.trigger.clone(),
            action: first.action.clone(),
            evidence: summarise_evidence(support),
            last_seen,
            provenance,
            sessions,
        },
        None => Op::Create {
            name,
            domain: first.domain.clone(),
            trigger: first.trigger.clone(),
            action: first.action.clone(),
            confidence: if explicit {
                STATED_CONFIDENCE
            } else {
                START_CONFIDENCE
            },
            project,
            paths: first.paths.clone(),
            evidence: summarise_evidence(support),
            pattern: Some(key.to_string()),
            first_seen,
            last_seen,
            provenance,
            sessions,
        },
    }
}

/// The independent sessions behind findings.
fn sessions_of(support: &[&Finding]) -> u32 {
    let sessions: BTreeSet<&str> = support.iter().map(|f| f.session.as_str()).collect();
    sessions.len() as u32
}

/// The most sessions remembered per pattern; more say nothing the floor would use.
const SHOWN_IN_MAX: usize = 64;

/// How many independent sessions showed a pattern so far, these findings' included:
/// the ledger's record across batches, or what a miner's own ledger counted.
fn count_sessions(ledger: &mut Ledger, key: &str, support: &[&Finding]) -> u32 {
    if support.is_empty() {
        return 0;
    }
    let shown = ledger.shown_in.entry(key.to_string()).or_default();
    for f in support {
        if shown.len() < SHOWN_IN_MAX {
            shown.insert(super::miners::sid8_of(&f.session));
        }
    }
    let known = support.iter().map(|f| f.known).max().unwrap_or(0);
    (shown.len() as u32).max(known)
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn summarise_evidence(support: &[&Finding]) -> String {
    let first: String = support[0].evidence.chars().take(250).collect();
    match support.len() {
        1 => first,
        n => format!("{first} (and {} more in this batch)", n - 1),
    }
}

fn unique_name(domain: &str, title: &str, taken: &mut BTreeSet<String>) -> String {
    let base = format!("{domain}-{}", slugify(title, 50));
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(key: &str, session: &str) -> Finding {
        Finding {
            key: key.to_string(),
            domain: "testing".into(),
            trigger: "when running the tests".into(),
            action: "use cargo nextest run".into(),
            title: "nextest".into(),
            project: Some("ledger".into()),
            paths: Vec::new(),
            evidence: format!("seen in {session}"),
            known: 1,
            opposite: false,
            at: "2026-02-01T00:00:00Z".into(),
            session: session.to_string(),
            explicit: false,
            provenance: Default::default(),
        }
    }

    fn sessions_in(ops: &[Op]) -> Vec<u32> {
        ops.iter()
            .filter_map(|op| match op {
                Op::Create { sessions, .. }
                | Op::Reinforce { sessions, .. }
                | Op::PromoteEpisode { sessions, .. } => Some(*sessions),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_session_spanning_batches_is_counted_once() {
        let mut ledger = Ledger::default();
        let existing = Existing {
            instincts: &[],
            episodes: &[],
        };
        let key = "recover:x=>use:nextest";
        let three = vec![finding(key, "s1"), finding(key, "s2"), finding(key, "s3")];
        assert_eq!(sessions_in(&decide(three, &existing, &mut ledger)), [3]);
        // The same sessions again in later batches, then one new one.
        let again = [finding(key, "s2"), finding(key, "s3")];
        let refs: Vec<&Finding> = again.iter().collect();
        assert_eq!(count_sessions(&mut ledger, key, &refs), 3);
        let new = [finding(key, "s4"), finding(key, "s1")];
        let refs: Vec<&Finding> = new.iter().collect();
        assert_eq!(count_sessions(&mut ledger, key, &refs), 4);
    }
}
