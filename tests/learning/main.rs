//! What the observer learns from whole histories, judged against hand-written labels:
//! the real development set (`../shared/transcripts-real/`, labels in
//! `tests/data/learning/real.toml`; skipped when `../shared` is absent) and the
//! synthetic sessions of seven other projects (`fixtures/transcripts-synthetic/`).
//! A lesson is found when a learned memory names what its `match` sets name; a
//! `must_not` pattern may match no instinct or conviction. Every run prints what was
//! learned, so a person can judge precision; `cargo test --test learning -- --nocapture`.

// Test code sets up files and reads the clock directly; the house rules in clippy.toml
// are for the program.
#![allow(clippy::disallowed_methods)]

mod failure_recall;

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Labels {
    lesson: Vec<Lesson>,
    must_not: Vec<MustNot>,
}

#[derive(Debug, Deserialize)]
struct Lesson {
    id: String,
    #[serde(rename = "match")]
    sets: Vec<Vec<String>>,
    #[serde(default)]
    builtin: bool,
    /// instinct | episode; absent: an instinct from three sessions on, else an episode.
    #[serde(default)]
    expect: Option<String>,
    #[serde(default)]
    sessions: usize,
}

#[derive(Debug, Deserialize)]
struct MustNot {
    id: String,
    pattern: String,
}

/// One learned memory: its file and the text a lesson is matched against.
struct Memory {
    file: String,
    kind: &'static str,
    text: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn replay(home: &Path, sources: &Path) -> String {
    replay_at(home, sources, "2026-11-23T12:00:00Z")
}

/// Replays `sources` into the memory under `home` with the clock at `now`.
fn replay_at(home: &Path, sources: &Path, now: &str) -> String {
    let out = Command::new(assert_cmd::cargo::cargo_bin("homunculus"))
        .args(["replay", sources.to_str().unwrap()])
        .env_clear()
        .env("HOME", home)
        .env("HOMUNCULUS_NOW", now)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn memories(home: &Path) -> Vec<Memory> {
    let memory = home.join(".claude/homunculus");
    let mut out = Vec::new();
    for (dir, kind) in [
        ("instincts/personal", "instinct"),
        ("convictions", "conviction"),
        ("episodes", "episode"),
    ] {
        let Ok(entries) = std::fs::read_dir(memory.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let stem = entry
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            // Trigger and action (or an episode's title and sightings), not evidence.
            let advice: String = text
                .lines()
                .filter(|l| {
                    kind == "episode"
                        || l.starts_with("trigger:")
                        || l.starts_with("action:")
                        || l.starts_with("paths:")
                })
                .collect::<Vec<_>>()
                .join("\n");
            out.push(Memory {
                file: format!("{dir}/{stem}.md"),
                kind,
                text: format!("{stem}\n{advice}").to_lowercase(),
            });
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

fn matches(lesson: &Lesson, m: &Memory) -> bool {
    lesson
        .sets
        .iter()
        .any(|set| set.iter().all(|s| m.text.contains(&s.to_lowercase())))
}

/// Replays `sources`, prints the judgement, returns (found builtin lessons, builtin
/// lessons, instincts learned, must-not violations).
fn judge(name: &str, sources: &Path, labels: &Path) -> (usize, usize, usize, Vec<String>) {
    let j = judge_shown(name, sources, labels, true);
    (j.found, j.total, j.instincts, j.violations)
}

/// What one person's replay taught, against their labels.
struct Judged {
    found: usize,
    total: usize,
    instincts: usize,
    violations: Vec<String>,
    /// The file stems of everything learned.
    learned: Vec<String>,
}

/// `judge`, printing which lessons were found only when `show` (a held-out person's
/// labels are read for their totals, so nobody tunes on them by reading the output).
fn judge_shown(name: &str, sources: &Path, labels: &Path, show: bool) -> Judged {
    let labels: Labels = toml::from_str(&std::fs::read_to_string(labels).unwrap()).unwrap();
    let home = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let summary = replay(home.path(), sources);
    let took = started.elapsed();
    let learned = memories(home.path());
    let shown = if show {
        summary.as_str()
    } else {
        summary.lines().next().unwrap_or("")
    };
    println!("== {name}: replayed in {took:?}\n{shown}");
    for m in learned.iter().filter(|_| show) {
        let lessons: Vec<&str> = labels
            .lesson
            .iter()
            .filter(|l| matches(l, m))
            .map(|l| l.id.as_str())
            .collect();
        println!("  {:10} {} -> {lessons:?}", m.kind, m.file);
    }
    let mut found = 0;
    let builtin: Vec<&Lesson> = labels.lesson.iter().filter(|l| l.builtin).collect();
    for lesson in &builtin {
        let episode_ok = match lesson.expect.as_deref() {
            Some(expect) => expect == "episode",
            None => lesson.sessions < 3,
        };
        let hit = learned
            .iter()
            .any(|m| (m.kind != "episode" || episode_ok) && matches(lesson, m));
        found += usize::from(hit);
        if show {
            println!(
                "  lesson {} {}",
                if hit { "FOUND  " } else { "missing" },
                lesson.id
            );
        }
    }
    let mut violations = Vec::new();
    for rule in &labels.must_not {
        let re = Regex::new(&rule.pattern).unwrap();
        for m in learned.iter().filter(|m| m.kind != "episode") {
            if re.is_match(&m.text) {
                violations.push(format!("{} matches must_not {}", m.file, rule.id));
            }
        }
    }
    let instincts = learned.iter().filter(|m| m.kind == "instinct").count();
    println!(
        "  {name}: {found}/{} builtin lessons found, {instincts} instincts, {} violations {violations:?}",
        builtin.len(),
        violations.len()
    );
    // Replaying the same history again reads nothing new and changes no file.
    let before = snapshot(&home.path().join(".claude/homunculus"));
    let again = replay(home.path(), sources);
    assert!(again.contains("Replayed 0 session(s)"), "{again}");
    assert_eq!(
        snapshot(&home.path().join(".claude/homunculus")),
        before,
        "second replay changed files"
    );
    let learned = learned
        .iter()
        .map(|m| {
            let base = m.file.rsplit('/').next().unwrap_or(&m.file);
            base.trim_end_matches(".md").to_string()
        })
        .collect();
    Judged {
        found,
        total: builtin.len(),
        instincts,
        violations,
        learned,
    }
}

/// Every markdown file of the memory with its text.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| {
            (
                e.path().to_path_buf(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn synthetic_sessions_teach_their_lessons() {
    let dir = root().join("fixtures/transcripts-synthetic");
    let (found, total, _, violations) = judge("synthetic", &dir, &dir.join("labels.toml"));
    assert!(violations.is_empty(), "{violations:?}");
    // Thresholds: what the builtin engine reaches today; a drop fails the suite.
    assert!(found * 100 >= total * 85, "recall {found}/{total}");
}

#[test]
fn the_real_development_set_teaches_nothing_wrong() {
    let dir = root().join("../shared/transcripts-real");
    if !dir.is_dir() {
        eprintln!("skipped: ../shared/transcripts-real is absent");
        return;
    }
    let labels = root().join("tests/data/learning/real.toml");
    let (found, total, _, violations) = judge("real", &dir, &labels);
    assert!(violations.is_empty(), "{violations:?}");
    assert!(found * 100 >= total * 40, "recall {found}/{total}");
}

/// The seven people: the first development set (`../shared/transcripts-real/`) and the
/// six of `../shared/transcripts-real-2/`, each with their labels in `tests/data/learning/`
/// and the name a reviewer's verdicts use (`judged.toml`). The first four were looked at
/// while tuning; the last three never (their labels and verdicts were written by
/// reviewers, and only their totals are printed).
const PEOPLE: &[(&str, &str, &str, bool)] = &[
    ("transcripts-real", "real", "dain", true),
    (
        "transcripts-real-2/borja-rojo-ilvento-dotfiles",
        "borja-rojo-ilvento",
        "borja",
        true,
    ),
    (
        "transcripts-real-2/JamesTiberiusKirk-dotsv2",
        "jamestiberiuskirk",
        "james",
        true,
    ),
    (
        "transcripts-real-2/awesumsawz-dotfiles-universal",
        "awesumsawz",
        "awesumsawz",
        true,
    ),
    (
        "transcripts-real-2/hannibal8856-claude_backup",
        "hannibal8856",
        "hannibal",
        false,
    ),
    (
        "transcripts-real-2/4thehalibit-omarchy-backup",
        "4thehalibit",
        "4thehalibit",
        false,
    ),
    (
        "transcripts-real-2/fabien-lessirard-dotfiles",
        "fabien-lessirard",
        "fabien",
        false,
    ),
];

/// `../shared`, where the seven people's transcripts are; `None` (the test skips, saying
/// so) where they are absent.
fn seven_people() -> Option<PathBuf> {
    let shared = root().join("../shared");
    let present = shared.join("transcripts-real-2").is_dir();
    if !present {
        eprintln!("skipped: ../shared/transcripts-real-2 is absent");
    }
    present.then_some(shared)
}

/// A file of `tests/data/learning/`, parsed.
fn learning_data<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = root().join("tests/data/learning").join(file);
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[derive(Debug, Deserialize)]
struct Verdicts {
    memory: Vec<Verdict>,
}

/// A reviewer's verdict on one learned memory.
#[derive(Debug, Deserialize)]
struct Verdict {
    person: String,
    file: String,
    verdict: String,
    #[serde(default)]
    poisoned: bool,
}

/// Verdict counts: useful, noise, wrong, harmful, poisoned, not yet judged.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    useful: usize,
    noise: usize,
    wrong: usize,
    harmful: usize,
    poisoned: usize,
    unjudged: usize,
}

impl Tally {
    fn judged(&self) -> usize {
        self.useful + self.noise + self.wrong + self.harmful
    }

    fn add(&mut self, other: Tally) {
        self.useful += other.useful;
        self.noise += other.noise;
        self.wrong += other.wrong;
        self.harmful += other.harmful;
        self.poisoned += other.poisoned;
        self.unjudged += other.unjudged;
    }

    fn line(&self) -> String {
        let pct = |n: usize| (n * 100).checked_div(self.judged()).unwrap_or(0);
        format!(
            "{} useful ({}%), {} noise, {} wrong ({}%), {} harmful, {} poisoned, {} not judged",
            self.useful,
            pct(self.useful),
            self.noise,
            self.wrong,
            pct(self.wrong),
            self.harmful,
            self.poisoned,
            self.unjudged
        )
    }
}

fn tally(person: &str, learned: &[String], verdicts: &Verdicts) -> Tally {
    let mut t = Tally::default();
    for stem in learned {
        match verdicts
            .memory
            .iter()
            .find(|v| v.person == person && &v.file == stem)
        {
            None => t.unjudged += 1,
            Some(v) => {
                t.poisoned += usize::from(v.poisoned);
                match v.verdict.as_str() {
                    "useful" => t.useful += 1,
                    "noise" => t.noise += 1,
                    "wrong" => t.wrong += 1,
                    _ => t.harmful += 1,
                }
            }
        }
    }
    t
}

#[test]
fn seven_people_learn_what_is_true() {
    let Some(shared) = seven_people() else {
        return;
    };
    let verdicts: Verdicts = learning_data("judged.toml");
    let mut rows = Vec::new();
    let mut violations = Vec::new();
    let mut lessons = [(0, 0); 2];
    let mut judged = [Tally::default(); 2];
    for (folder, labels, person, tuned) in PEOPLE {
        let labels = root().join(format!("tests/data/learning/{labels}.toml"));
        let j = judge_shown(folder, &shared.join(folder), &labels, *tuned);
        let t = tally(person, &j.learned, &verdicts);
        let group = usize::from(!tuned);
        lessons[group].0 += j.found;
        lessons[group].1 += j.total;
        judged[group].add(t);
        rows.push(format!(
            "  {person:12} {} lessons {}/{}, must-not {}, learned {}: {}",
            if *tuned { "tuned   " } else { "held-out" },
            j.found,
            j.total,
            j.violations.len(),
            j.learned.len(),
            t.line()
        ));
        violations.extend(j.violations.into_iter().map(|w| format!("{person}: {w}")));
        if *tuned && (t.harmful > 0 || t.poisoned > 0) {
            violations.push(format!(
                "{person}: a harmful or poisoned memory was learned"
            ));
        }
    }
    println!("== seven people (judged verdicts in tests/data/learning/judged.toml)");
    println!("{}", rows.join("\n"));
    for (i, name) in ["tuned", "held-out"].iter().enumerate() {
        println!(
            "  {name}: lessons {}/{}; {}",
            lessons[i].0,
            lessons[i].1,
            judged[i].line()
        );
    }
    assert!(violations.is_empty(), "{violations:#?}");
    // What is found today is kept: 12 of the tuned people's 32 lessons, 3 of the
    // held-out people's 34.
    assert!(lessons[0].0 >= 12, "tuned lessons {:?}", lessons[0]);
    assert!(lessons[1].0 >= 3, "held-out lessons {:?}", lessons[1]);
    // On the people it was tuned on, at least the 80% of what is learned is
    // useful (a noisy memory is the next thing to fix, not to get used to).
    let tuned = &judged[0];
    assert!(
        tuned.useful * 100 >= tuned.judged() * 80,
        "{}",
        tuned.line()
    );
    for t in judged {
        assert_eq!(t.harmful + t.poisoned, 0, "{}", t.line());
        // A memory a reviewer judged wrong (its fix did not fix, its rule was a
        // redirect) is never learned again.
        assert_eq!(t.wrong, 0, "{}", t.line());
    }
}

#[derive(Debug, Deserialize)]
struct RecallVerdicts {
    injection: Vec<RecallVerdict>,
}

/// A reviewer's verdict on one failure recall: relevant, noise or wrong.
#[derive(Debug, Deserialize)]
struct RecallVerdict {
    id: String,
    verdict: String,
}

/// The relevant injections failure recall reached when the verdicts were written: fewer
/// means a memory of a failure is no longer found by the failure.
const RELEVANT_FAILURE_RECALLS: usize = 2;

#[test]
fn failure_recall_in_time_order_tells_what_helped() {
    let Some(shared) = seven_people() else {
        return;
    };
    let verdicts: RecallVerdicts = learning_data("failure_recall.toml");
    let dump = std::env::var_os("FAILURE_RECALL_DUMP").map(PathBuf::from);
    let mut all = Vec::new();
    let (mut failures, mut repeats) = (0, 0);
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for (folder, _, person, tuned) in PEOPLE {
        let probe = failure_recall::probe(person, &shared.join(folder));
        failures += probe.failures;
        repeats += probe.repeats.len();
        println!(
            "== {person}: {} failures, {} shell failures seen before in that folder, {} answered with memory",
            probe.failures,
            probe.repeats.len(),
            probe.recalled.len()
        );
        if *tuned {
            for r in &probe.repeats {
                println!("   seen before: {r}");
            }
        }
        for r in &probe.recalled {
            let verdict = verdicts
                .injection
                .iter()
                .find(|v| v.id == r.id)
                .map_or("not judged", |v| v.verdict.as_str());
            *counts.entry(verdict.to_string()).or_default() += 1;
            // The held-out people's memories stay unseen.
            if *tuned {
                println!("-- {} ({verdict})\n$ {}\n{}", r.id, r.command, r.injected);
            }
            all.push(serde_json::json!({
                "id": r.id, "command": r.command, "error": r.error, "injected": r.injected,
            }));
        }
    }
    println!(
        "== failure recall over seven people: {failures} failures, {repeats} seen before; injected: {counts:?}"
    );
    if let Some(dump) = dump {
        std::fs::write(dump, serde_json::to_string_pretty(&all).unwrap()).unwrap();
    }
    let count = |v: &str| counts.get(v).copied().unwrap_or(0);
    assert_eq!(
        count("not judged"),
        0,
        "judge the new injections (FAILURE_RECALL_DUMP=<file> dumps them) in tests/data/learning/failure_recall.toml"
    );
    assert_eq!(count("wrong"), 0, "a failure recall misleads");
    assert!(count("relevant") >= RELEVANT_FAILURE_RECALLS, "{counts:?}");
}
