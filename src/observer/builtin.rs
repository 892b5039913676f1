//! The builtin engine: runs the miners over a batch and decides, per pattern, what the
//! memory should do: reinforce or contradict the instinct that already stands for it
//! (matched by pattern key, else by text similarity), grow its episode, promote the
//! episode at three sightings, create an instinct at three sightings, or stage a new
//! episode.

use std::collections::{BTreeMap, BTreeSet};

use similar::TextDiff;

use super::miners::{self, Finding, Ledger};
use super::ops::Op;
use crate::capture::observation::Observation;
use crate::memory::{Instinct, Note, slugify};

/// Sightings that make a pattern an instinct.
pub const THRESHOLD: u32 = 3;
/// Text similarity at which a candidate is the same as an existing instinct.
pub const SAME_TEXT: f32 = 0.8;
/// The confidence a new instinct starts with (confirmed across three sightings).
pub const START_CONFIDENCE: f64 = 0.5;

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
    findings.extend(miners::corrections(&batch));
    findings.extend(miners::coedits(sessions, roots, ledger));
    findings.extend(miners::choices(&batch, ledger));
    findings.extend(failing_again(&batch, existing));
    decide(findings, existing)
}

/// Evidence against recovery instincts: their failing command now succeeds.
fn failing_again(batch: &[Observation], existing: &Existing) -> Vec<Finding> {
    let ok = miners::successes(batch);
    let mut out = Vec::new();
    for i in existing.instincts {
        let Some(key) = i
            .pattern
            .as_deref()
            .and_then(|k| k.strip_prefix("recover:"))
        else {
            continue;
        };
        let Some((project, rest)) = key.split_once(':') else {
            continue;
        };
        let Some((fail, _)) = rest.split_once("=>") else {
            continue;
        };
        let n = ok
            .get(&(project.to_string(), fail.to_string()))
            .copied()
            .unwrap_or(0);
        for _ in 0..n {
            out.push(Finding {
                key: format!("recover:{key}"),
                domain: i.domain.clone(),
                trigger: i.trigger.clone(),
                action: i.action.clone(),
                title: String::new(),
                project: Some(project.to_string()),
                paths: Vec::new(),
                evidence: format!("`{fail}` succeeded {n} times in one batch"),
                known: 1,
                opposite: true,
            });
        }
    }
    out
}

fn similar_enough(a: &str, b: &str) -> bool {
    TextDiff::from_chars(a, b).ratio() >= SAME_TEXT
}

fn decide(findings: Vec<Finding>, existing: &Existing) -> Vec<Op> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    for f in findings {
        if !groups.contains_key(&f.key) {
            order.push(f.key.clone());
        }
        groups.entry(f.key.clone()).or_default().push(f);
    }
    let mut taken: BTreeSet<String> = existing.instincts.iter().map(|i| i.name.clone()).collect();
    let mut ops = Vec::new();
    for key in order {
        let group = &groups[&key];
        let (against, support): (Vec<&Finding>, Vec<&Finding>) =
            group.iter().partition(|f| f.opposite);
        let first = support
            .first()
            .or(against.first())
            .copied()
            .expect("groups are never empty");
        let text = format!("{} {}", first.trigger, first.action);
        let standing = existing
            .instincts
            .iter()
            .find(|i| i.pattern.as_deref() == Some(key.as_str()))
            .or_else(|| {
                existing.instincts.iter().find(|i| {
                    i.project == first.project
                        && similar_enough(&format!("{} {}", i.trigger, i.action), &text)
                })
            });
        if let Some(instinct) = standing {
            if against.len() >= THRESHOLD as usize {
                ops.push(Op::Contradict {
                    name: instinct.name.clone(),
                    evidence: against[0].evidence.clone(),
                });
            } else if !support.is_empty() {
                ops.push(Op::Reinforce {
                    name: instinct.name.clone(),
                    evidence: summarise_evidence(&support),
                });
            }
            continue;
        }
        if support.is_empty() {
            continue;
        }
        let episode = existing
            .episodes
            .iter()
            .find(|e| e.pattern.as_deref() == Some(key.as_str()));
        let seen = support.len() as u32 + episode.map_or(0, |e| e.occurrences);
        let total = seen.max(support.iter().map(|f| f.known).max().unwrap_or(0));
        if total >= THRESHOLD {
            let name = unique_name(&first.domain, &first.title, &mut taken);
            ops.push(match episode {
                Some(e) => Op::PromoteEpisode {
                    episode: e.name.clone(),
                    name,
                    domain: first.domain.clone(),
                    trigger: first.trigger.clone(),
                    action: first.action.clone(),
                    evidence: summarise_evidence(&support),
                },
                None => Op::Create {
                    name,
                    domain: first.domain.clone(),
                    trigger: first.trigger.clone(),
                    action: first.action.clone(),
                    confidence: START_CONFIDENCE,
                    project: first.project.clone(),
                    paths: first.paths.clone(),
                    evidence: summarise_evidence(&support),
                    pattern: Some(key.clone()),
                },
            });
        } else {
            ops.push(Op::Episode {
                key: key.clone(),
                title: first.title.chars().take(120).collect(),
                narrative: support
                    .iter()
                    .map(|f| f.evidence.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                project: first.project.clone(),
                tags: vec![first.domain.clone()],
                files: first.paths.clone(),
                occurrences: total,
            });
        }
    }
    ops
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
