//! What reaches the model, judged: a realistic memory of 334 hand-written items over eight
//! projects (`tests/data/recall/memory/`) and 116 prompts as typed into Claude Code with
//! graded relevance (`tests/data/recall/prompts.toml`, the set recall was tuned on), plus
//! eight held-out sets reviewers wrote without seeing the code (`heldout.toml` …
//! `heldout8.toml`, 40 to 50 prompts each), each before the round of changes it measures.
//! Every prompt goes through the real UserPromptSubmit hook in its project's folder and
//! through `homunculus search`:
//! - injection: precision of what was injected, the share of prompts with nothing
//!   relevant that got anything, the share of prompts with a directly relevant memory
//!   (grade ≥ 2) that got one, and the characters injected;
//! - search with the whole prompt as the query: nDCG@10, MRR and recall@10, against a
//!   plain BM25 OR-query over the same fields as the baseline it must not fall below.
//!
//! `cargo test --test recall -- --nocapture` prints the figures and every miss.

// Test code sets up files and reads the clock directly; the house rules in clippy.toml
// are for the program.
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
struct Judged {
    prompt: Vec<Prompt>,
}

#[derive(Debug, Deserialize)]
struct Prompt {
    id: String,
    project: String,
    text: String,
    #[serde(default)]
    relevant: BTreeMap<String, u32>,
}

const NOW: &str = "2026-11-23T12:00:00Z";

struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
}

impl World {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let memory = home.join(".claude/homunculus");
        copy(&root().join("tests/data/recall/memory"), &memory);
        let world = Self { _dir: dir, home };
        assert!(world.run(&["init"], None).status.success());
        assert!(world.run(&["reindex"], None).status.success());
        world
    }

    fn run(&self, args: &[&str], input: Option<(&str, &Path)>) -> std::process::Output {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("homunculus"));
        cmd.args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("HOMUNCULUS_NOW", NOW)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some((_, cwd)) = input {
            cmd.current_dir(cwd);
        }
        let mut child = cmd.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        if let Some((text, _)) = input {
            stdin.write_all(text.as_bytes()).unwrap();
        }
        drop(stdin);
        child.wait_with_output().unwrap()
    }

    /// The project's folder, a git root named like the project.
    fn project(&self, name: &str) -> PathBuf {
        let dir = self.home.join("src").join(name);
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        dir
    }

    /// The item files the prompt hook injected.
    fn injected(&self, p: &Prompt) -> (Vec<String>, usize) {
        let cwd = self.project(&p.project);
        let payload = serde_json::json!({
            "session_id": format!("eval-{}", p.id),
            "transcript_path": "/nonexistent.jsonl",
            "cwd": cwd,
            "hook_event_name": "UserPromptSubmit",
            "prompt": p.text,
        })
        .to_string();
        let out = self.run(&["hook", "user-prompt-submit"], Some((&payload, &cwd)));
        let stdout = String::from_utf8_lossy(&out.stdout);
        if stdout.trim().is_empty() {
            return (Vec::new(), 0);
        }
        let v: Value = serde_json::from_str(stdout.trim()).unwrap();
        let text = v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or("");
        (ids_in(text), text.chars().count())
    }

    /// The baseline the ranking must beat: the prompt as a plain BM25 OR-query over the
    /// same text fields, straight on the index (no stopwords, boosts or project).
    fn bm25_or(&self, p: &Prompt) -> Vec<String> {
        use tantivy::TantivyDocument;
        use tantivy::collector::TopDocs;
        use tantivy::query::QueryParser;
        use tantivy::schema::Value as _;
        let index =
            tantivy::Index::open_in_dir(self.home.join(".claude/homunculus/.index/tantivy"))
                .unwrap();
        let schema = index.schema();
        let fields = [
            "name", "title", "trigger", "action", "body", "tags", "files",
        ]
        .map(|n| schema.get_field(n).unwrap());
        let parser = QueryParser::for_index(&index, fields.to_vec());
        let words: String = p
            .text
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let (query, _) = parser.parse_query_lenient(&words);
        let searcher = index.reader().unwrap().searcher();
        let path = schema.get_field("path").unwrap();
        searcher
            .search(&query, &TopDocs::with_limit(10).order_by_score())
            .unwrap()
            .into_iter()
            .filter_map(|(_, address)| {
                let doc: TantivyDocument = searcher.doc(address).ok()?;
                Some(doc.get_first(path)?.as_str()?.to_string())
            })
            .collect()
    }

    /// The files `search` ranks for the prompt, best first.
    fn searched(&self, p: &Prompt) -> Vec<String> {
        let cwd = self.project(&p.project);
        let out = self.run(
            &["search", &p.text, "--json", "--limit", "10"],
            Some(("", &cwd)),
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        v["hits"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|h| h["path"].as_str().map(str::to_string))
            .collect()
    }
}

/// Item paths named in an injected block: `(instincts/personal/x.md)` and the like.
fn ids_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["instincts/", "convictions/", "episodes/", "sessions/"] {
        let mut rest = text;
        while let Some(at) = rest.find(dir) {
            let tail = &rest[at..];
            let end = tail.find(".md").map_or(tail.len(), |e| e + 3);
            let id = tail[..end].to_string();
            if !out.contains(&id) {
                out.push(id);
            }
            rest = &tail[end..];
        }
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().flatten() {
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn dcg(grades: &[u32]) -> f64 {
    grades
        .iter()
        .enumerate()
        .map(|(i, g)| (2f64.powi(*g as i32) - 1.0) / (i as f64 + 2.0).log2())
        .sum()
}

#[derive(Debug, Default)]
struct Figures {
    injected: usize,
    injected_relevant: usize,
    unrelated: usize,
    unrelated_injected: usize,
    answerable: usize,
    answered: usize,
    chars: usize,
    ndcg: f64,
    mrr: f64,
    recall10: f64,
    searched: usize,
    baseline_ndcg: f64,
    /// Prompts not served, by what was injected (nothing / only other items) and by
    /// where search ranked the first wanted item (1st, 2nd-3rd, 4th-10th, not in ten).
    unserved: [usize; 2],
    unserved_rank: [usize; 4],
}

/// nDCG@10 of a ranking.
fn ndcg(hits: &[String], p: &Prompt) -> f64 {
    let gains: Vec<u32> = hits
        .iter()
        .map(|h| p.relevant.get(h).copied().unwrap_or(0))
        .collect();
    let mut ideal: Vec<u32> = p.relevant.values().copied().collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    ideal.truncate(10);
    dcg(&gains) / dcg(&ideal)
}

/// Runs every prompt of `set` through the hook and `search`, printing each miss.
/// The figures of one prompt set; its misses, noise and rankings are printed when `show`
/// (never for a set kept unread).
fn evaluate(world: &World, set: &str, show: bool) -> (Figures, usize) {
    evaluate_part(world, set, show, |_| true)
}

/// The figures of the prompts of `set` whose position `keep` takes.
fn evaluate_part(
    world: &World,
    set: &str,
    show: bool,
    keep: impl Fn(usize) -> bool,
) -> (Figures, usize) {
    let judged: Judged = toml::from_str(
        &std::fs::read_to_string(root().join("tests/data/recall").join(set)).unwrap(),
    )
    .unwrap();
    let mut f = Figures::default();
    let mut prompts = 0;
    for (_, p) in judged.prompt.iter().enumerate().filter(|(n, _)| keep(*n)) {
        prompts += 1;
        let (ids, chars) = world.injected(p);
        let grade = |id: &str| p.relevant.get(id).copied().unwrap_or(0);
        f.injected += ids.len();
        f.chars += chars;
        let relevant_here = ids.iter().filter(|id| grade(id) >= 1).count();
        f.injected_relevant += relevant_here;
        if p.relevant.is_empty() {
            f.unrelated += 1;
            f.unrelated_injected += usize::from(!ids.is_empty());
        }
        // What `search` makes of the whole prompt, asked once.
        let hits = (!p.relevant.is_empty()).then(|| world.searched(p));
        if p.relevant.values().any(|g| *g >= 2) {
            f.answerable += 1;
            let got = ids.iter().any(|id| grade(id) >= 2);
            f.answered += usize::from(got);
            if !got {
                f.unserved[usize::from(!ids.is_empty())] += 1;
                let rank = hits.iter().flatten().position(|h| grade(h) >= 2);
                f.unserved_rank[match rank {
                    Some(0) => 0,
                    Some(1 | 2) => 1,
                    Some(_) => 2,
                    None => 3,
                }] += 1;
            }
            if !got && show {
                println!("  missed {} [{}] {:?} -> {ids:?}", p.id, p.project, p.text);
            }
        }
        for id in ids.iter().filter(|id| show && grade(id) == 0) {
            println!("  noise  {} [{}] {:?} -> {id}", p.id, p.project, p.text);
        }
        if let Some(hits) = hits {
            let gains: Vec<u32> = hits.iter().map(|h| grade(h)).collect();
            let ours = ndcg(&hits, p);
            let base = ndcg(&world.bm25_or(p), p);
            if show && base > ours + 0.1 {
                println!(
                    "  ranked below BM25 {} {:.2} < {base:.2} {:?}",
                    p.id, ours, p.text
                );
            }
            f.ndcg += ours;
            f.baseline_ndcg += base;
            f.mrr += gains
                .iter()
                .position(|g| *g >= 2)
                .map_or(0.0, |r| 1.0 / (r as f64 + 1.0));
            let wanted = p.relevant.values().filter(|g| **g >= 2).count().max(1);
            f.recall10 += gains.iter().filter(|g| **g >= 2).count() as f64 / wanted as f64;
            f.searched += 1;
        }
    }
    (f, prompts)
}

impl Figures {
    fn precision(&self) -> f64 {
        self.injected_relevant as f64 / self.injected.max(1) as f64
    }

    fn false_rate(&self) -> f64 {
        self.unrelated_injected as f64 / self.unrelated.max(1) as f64
    }

    fn coverage(&self) -> f64 {
        self.answered as f64 / self.answerable.max(1) as f64
    }

    fn ndcg(&self) -> f64 {
        self.ndcg / self.searched.max(1) as f64
    }

    fn print(&self, label: &str, prompts: usize) {
        let n = self.searched.max(1) as f64;
        println!(
            "{label}: injection precision {:.0}% ({}/{}), unrelated prompts injected {:.0}% ({}/{}), prompts with a relevant memory served {:.0}% ({}/{}), {:.0} chars per prompt",
            self.precision() * 100.0,
            self.injected_relevant,
            self.injected,
            self.false_rate() * 100.0,
            self.unrelated_injected,
            self.unrelated,
            self.coverage() * 100.0,
            self.answered,
            self.answerable,
            self.chars as f64 / prompts.max(1) as f64
        );
        println!(
            "{label}: search (whole prompt) nDCG@10 {:.2}, MRR {:.2}, recall@10 {:.2} over {} prompts; the prompt as a plain BM25 OR-query over the same fields: nDCG@10 {:.2}",
            self.ndcg(),
            self.mrr / n,
            self.recall10 / n,
            self.searched,
            self.baseline_ndcg / n
        );
        println!(
            "{label}: of {} prompts not served, {} got nothing and {} only other items; search ranked a wanted item 1st in {}, 2nd-3rd in {}, 4th-10th in {}, not in ten in {}",
            self.answerable - self.answered,
            self.unserved[0],
            self.unserved[1],
            self.unserved_rank[0],
            self.unserved_rank[1],
            self.unserved_rank[2],
            self.unserved_rank[3],
        );
    }
}

#[test]
fn recall_on_the_judged_set() {
    let world = World::new();
    let (f, prompts) = evaluate(&world, "prompts.toml", true);
    f.print("judged set", prompts);
    // Thresholds: a little under what recall reaches today (81%, 0%, 92%, 0.83); a drop
    // fails the suite, and so does ranking below plain BM25 over the same index.
    assert!(f.precision() >= 0.78, "precision {:.2}", f.precision());
    assert!(
        f.false_rate() <= 0.10,
        "false injections {:.2}",
        f.false_rate()
    );
    assert!(f.coverage() >= 0.88, "prompts served {:.2}", f.coverage());
    assert!(f.ndcg() >= 0.80, "nDCG@10 {:.2}", f.ndcg());
    assert!(
        f.ndcg >= f.baseline_ndcg,
        "search ranks below plain BM25: {:.2} < {:.2}",
        f.ndcg(),
        f.baseline_ndcg / f.searched.max(1) as f64
    );
}

/// 45 prompts written afterwards by a reviewer who never saw the recall code
/// (`heldout.toml`), over the same memory: the figures recall reaches on prompts it was
/// not tuned on.
#[test]
fn recall_on_the_held_out_set() {
    held_out("heldout.toml", "held-out set");
}

/// 40 more prompts by a second reviewer, written after this round's tuning was done and
/// never used for it (`heldout2.toml`): the cleanest figure of the three.
#[test]
fn recall_on_the_second_held_out_set() {
    held_out("heldout2.toml", "second held-out set");
}

/// 48 prompts by a third reviewer (`heldout3.toml`: continuations, past-work questions,
/// pasted output, unrelated prompts), written before this round changed recall and
/// printed with the others; held to the first held-out set's thresholds but its own
/// coverage floor.
#[test]
fn recall_on_the_third_held_out_set() {
    held_out_with("heldout3.toml", "third held-out set", HELD_OUT_3_COVERAGE);
}

/// The third set's coverage floor: a little under what it reaches (61%; 45% before this
/// round answered past-work questions and read pasted output apart).
const HELD_OUT_3_COVERAGE: f64 = 0.55;

/// 44 prompts by a fourth reviewer (`heldout4.toml`: terse and misspelt prompts,
/// contractions, numbers, versions and hashes, other words than the memory's —
/// abbreviations and developer slang —, four in Chinese, Spanish and German, and
/// unrelated prompts that share words with the memory), written before the token
/// cleanup and the synonym table and never used to tune them.
#[test]
fn recall_on_the_fourth_held_out_set() {
    held_out_with("heldout4.toml", "fourth held-out set", HELD_OUT_4_COVERAGE);
}

/// The fourth set's coverage floor: a little under what it reaches (75%; 69% before the
/// token cleanup and the vocabulary).
const HELD_OUT_4_COVERAGE: f64 = 0.72;

/// 44 prompts by a fifth reviewer (`heldout5.toml`: twelve with pasted output, two of
/// them a hundred lines of log; ten past-work questions in other phrasings; prompts of
/// unusual shapes; ten with nothing relevant, three of them with pasted output), written
/// before this round's change to how a paste is weighed and never used to tune it.
#[test]
fn recall_on_the_fifth_held_out_set() {
    held_out_with("heldout5.toml", "fifth held-out set", HELD_OUT_5_COVERAGE);
}

/// The fifth set's coverage floor: a little under what it reaches (53%; 41% before a
/// paste's unknown words stopped weighing in the floor, 50% before terse prompts of three
/// words were looked up; 62% since three rare words shared are enough).
const HELD_OUT_5_COVERAGE: f64 = 0.58;

/// 50 prompts by a sixth reviewer (`heldout6.toml`: a realistic day of work across the
/// projects, short pastes, follow-ups, three other languages; eight past-work questions;
/// twelve with nothing relevant that share words with the memory), written after the
/// fifth set's round and before anything was tuned on it.
#[test]
fn recall_on_the_sixth_held_out_set() {
    held_out_with("heldout6.toml", "sixth held-out set", HELD_OUT_6_COVERAGE);
}

/// The sixth set's coverage floor: a little under what it reached when first measured
/// (47%); 63% since three rare words shared are enough.
const HELD_OUT_6_COVERAGE: f64 = 0.60;

/// 50 prompts by a seventh reviewer (`heldout7.toml`: a working day across the projects,
/// short pasted logs, abbreviations, five prompts in other languages; ten past-work
/// questions; twelve with nothing relevant), written before this round changed anything.
#[test]
fn recall_on_the_seventh_held_out_set() {
    held_out_with("heldout7.toml", "seventh held-out set", HELD_OUT_7_COVERAGE);
}

/// The seventh set's coverage floor: a little under what it reaches (66%; 39% when first
/// measured, 45% before past-work questions were read clause by clause, with the memory
/// telling a topic from a word it has nothing on; 71% since three rare words shared are
/// enough).
const HELD_OUT_7_COVERAGE: f64 = 0.68;

/// 50 prompts by an eighth reviewer (`heldout8.toml`: other words for what the memory
/// says (aliases, symptoms, British spellings, typos), five short pastes, five other
/// languages; eight past-work questions; ten with nothing relevant), written before the
/// next round changed anything.
#[test]
fn recall_on_the_eighth_held_out_set() {
    held_out_with("heldout8.toml", "eighth held-out set", HELD_OUT_8_COVERAGE);
}

/// The eighth set's coverage floor: a little under what it reaches (50%; 42% when first
/// measured).
/// 60% since three rare words shared are enough.
const HELD_OUT_8_COVERAGE: f64 = 0.57;

/// 48 prompts by a ninth reviewer (`heldout9.toml`: thirty work prompts in the words
/// people type (symptoms, pastes, follow-ups, five languages), eight past-work questions,
/// ten with nothing relevant), written before this round changed anything and never
/// read since: only its figures are printed.
#[test]
fn recall_on_the_ninth_held_out_set() {
    held_out_shown(
        "heldout9.toml",
        "ninth held-out set (never read)",
        HELD_OUT_9_COVERAGE,
        false,
    );
}

/// The ninth set's coverage floor: a little under what it reaches (39%; 34% when first
/// measured, with 86% precision and 1 of 10 unrelated prompts served, before small talk
/// stopped framing a longer prompt; 50% since three rare words shared are enough).
const HELD_OUT_9_COVERAGE: f64 = 0.47;

/// 48 prompts by a tenth reviewer (`heldout10.toml`: thirty work prompts aimed at
/// memories earlier sets rarely graded, five in other languages; eight past-work
/// questions; ten with nothing relevant), written before the round that followed the
/// ninth and never read since: only its figures are printed.
#[test]
fn recall_on_the_tenth_held_out_set() {
    held_out_held_to(
        "heldout10.toml",
        "tenth held-out set (never read)",
        HELD_OUT_10,
        false,
    );
}

/// Where the tenth set stood when first measured (73% precision, 3 of 10 unrelated
/// prompts served, 47% of the answerable ones): below the targets and the other sets'
/// floors, and held there so that it cannot fall further unseen. Since three rare words
/// shared are enough: 72%, 3 of 10 and 55%.
const HELD_OUT_10: (f64, f64, f64) = (0.70, 0.30, 0.52);

/// 44 prompts by an eleventh reviewer (`heldout11.toml`), written to measure prompts in
/// other languages: thirty work prompts in French, Spanish, Portuguese, German, Italian,
/// Chinese and Japanese with tool names kept as typed, four past-work questions and ten
/// with nothing relevant, in the same languages. Never read: only figures are printed,
/// for the whole set and for its halves (even and odd positions), so that a choice made
/// on one half can be checked on the other.
#[test]
fn recall_on_the_eleventh_held_out_set() {
    let set = "heldout11.toml";
    let world = World::new();
    for (label, part) in [("even half", 0), ("odd half", 1)] {
        let (f, prompts) = evaluate_part(&world, set, false, |n| n % 2 == part);
        f.print(
            &format!("eleventh held-out set (never read), {label}"),
            prompts,
        );
    }
    // The whole set in a world of its own: a world remembers what each session was
    // sent, and sends nothing twice.
    held_out_held_to(
        set,
        "eleventh held-out set (never read)",
        HELD_OUT_11,
        false,
    );
}

/// Where the eleventh set stands (78% precision, 1 of 10 unrelated prompts served, 56%
/// of the answerable ones; 74%, 1 and 50% before the glossary of other languages'
/// developer words, which was measured here as built and once at half weight (kept as
/// built) and then checked on the twelfth set; before prompts in other languages were read as such: 88%, 0 and 32%):
/// precision and coverage held a little under it, unrelated prompts at it.
/// Since three rare words shared are enough: 77%, 1 of 10 and 62%.
const HELD_OUT_11: (f64, f64, f64) = (0.74, 0.10, 0.59);

/// 44 prompts by a twelfth reviewer (`heldout12.toml`), written to measure prompts in
/// languages the eleventh did not use: thirty work prompts in Russian, Korean,
/// Traditional Chinese, Polish, Dutch, Turkish, Vietnamese and Indonesian (a few in
/// Spanish, French, Japanese and Simplified Chinese), four past-work questions and ten
/// with nothing relevant. Never read: only figures are printed.
#[test]
fn recall_on_the_twelfth_held_out_set() {
    held_out_held_within(
        "heldout12.toml",
        "twelfth held-out set (never read)",
        HELD_OUT_12,
        HELD_OUT_12_BM25_GAP,
    );
}

/// Where the twelfth set stands (87% precision, no unrelated prompt served, 29% of the
/// answerable ones; before the glossary of other languages' developer words: 85%, 0 and
/// 26%): precision and coverage held a little under it, unrelated prompts at it. Its
/// search with the whole prompt ranks below plain BM25 (nDCG@10 0.57 against 0.60): a gap
/// on prompts in these languages that this set found and no change has closed; it is
/// held there, not hidden. Since three rare words shared are enough: 89%, 0 and 38%.
const HELD_OUT_12: (f64, f64, f64) = (0.80, 0.0, 0.35);

/// How far the twelfth set's whole-prompt search may rank below plain BM25 (see above).
const HELD_OUT_12_BM25_GAP: f64 = 0.04;

/// 44 prompts by a thirteenth reviewer (`heldout13.toml`), written before the change
/// they measure: thirty English work prompts typed the way people type to an agent
/// (lowercase, typos, abbreviations, other words than the memory's, symptoms, short
/// pasted logs, mid-conversation follow-ups), four past-work questions and ten with
/// nothing relevant that share a word with a memory. Never read: only figures are
/// printed.
#[test]
fn recall_on_the_thirteenth_held_out_set() {
    held_out_held_to(
        "heldout13.toml",
        "thirteenth held-out set (never read)",
        HELD_OUT_13,
        false,
    );
}

/// Where the thirteenth set stood as it came, before any change measured on it (85%
/// precision, 2 of 10 unrelated prompts served, 76% of the answerable ones), and after
/// the one change of its round (three rare words shared are enough, chosen on the read
/// sets): 84%, 2 of 10 and 76%. The fifteenth's round (a question of how something
/// works gets no lowered bar, chosen on the fifteenth's read half): 87%, 0 of 10, 76%.
const HELD_OUT_13: (f64, f64, f64) = (0.85, 0.10, 0.73);

/// 46 prompts by a fourteenth reviewer (`heldout14.toml`), written before the change
/// they measure: twenty-six English work prompts (five with a pasted log of 18 to 28
/// lines, follow-ups, symptoms, plans the memory argues against), four in French,
/// German, Portuguese and Spanish, four past-work questions and twelve with nothing
/// relevant: six questions about how something works, without "in general", and six
/// small tasks that share a word with a memory. Never read: only figures are printed.
#[test]
fn recall_on_the_fourteenth_held_out_set() {
    held_out_held_within(
        "heldout14.toml",
        "fourteenth held-out set (never read)",
        HELD_OUT_14,
        HELD_OUT_14_BM25_GAP,
    );
}

/// Where the fourteenth set stood as it came, before any change measured on it: 71%
/// precision, 3 of 12 unrelated prompts served, 65% of the answerable ones.
const HELD_OUT_14: (f64, f64, f64) = (0.69, 0.25, 0.63);
/// As it came, search with the whole prompt ranked below plain BM25 on this set
/// (nDCG@10 0.64 against 0.67): a gap the floor holds, not one it hides. Search now
/// reads up to 400 of a prompt's words, not its first 64: 0.66.
const HELD_OUT_14_BM25_GAP: f64 = 0.02;

fn held_out(set: &str, label: &str) {
    held_out_with(set, label, HELD_OUT.2);
}

fn held_out_with(set: &str, label: &str, coverage: f64) {
    held_out_shown(set, label, coverage, true);
}

fn held_out_shown(set: &str, label: &str, coverage: f64, show: bool) {
    held_out_held_to(set, label, (HELD_OUT.0, HELD_OUT.1, coverage), show);
}

/// One held-out set, held to `floors` (precision, unrelated share, coverage).
fn held_out_held_to(set: &str, label: &str, floors: (f64, f64, f64), show: bool) {
    held_out_checked(set, label, floors, show, 0.01);
}

/// A never-read set whose whole-prompt search may rank up to `gap` below plain BM25.
fn held_out_held_within(set: &str, label: &str, floors: (f64, f64, f64), gap: f64) {
    held_out_checked(set, label, floors, false, gap);
}

fn held_out_checked(set: &str, label: &str, floors: (f64, f64, f64), show: bool, gap: f64) {
    let (precision, unrelated, coverage) = floors;
    let world = World::new();
    let (f, prompts) = evaluate(&world, set, show);
    f.print(label, prompts);
    assert!(f.precision() >= precision, "precision {:.2}", f.precision());
    assert!(
        f.false_rate() <= unrelated,
        "false injections {:.2}",
        f.false_rate()
    );
    assert!(
        f.coverage() >= coverage,
        "prompts served {:.2}",
        f.coverage()
    );
    // Held-out sets: the memory's own ranking (confidence, recency) may tie plain BM25
    // there, within `gap` (a hundredth), but never fall clearly below it.
    let n = f.searched.max(1) as f64;
    assert!(
        f.ndcg / n >= f.baseline_ndcg / n - gap,
        "search ranks below plain BM25: {:.3} < {:.3}",
        f.ndcg / n,
        f.baseline_ndcg / n
    );
}

/// Held-out thresholds (precision, unrelated share, coverage), under today's 63%, 0%
/// and 66%: the held-out set says where recall stands, the judged set guards the tuning.
const HELD_OUT: (f64, f64, f64) = (0.58, 0.20, 0.60);

/// 48 prompts by a fifteenth reviewer (`heldout15.toml`), written before the change
/// they measure: twenty-four English work prompts (four with a pasted log), three in
/// Italian, Dutch and Japanese, five past-work questions and sixteen with nothing
/// relevant that share a file, a tool or a library with a memory of their project.
/// Split like the secrets corpora: the prompts at even positions were read while tuning
/// (their misses and noise are printed), those at odd positions never (figures only).
#[test]
fn recall_on_the_fifteenth_held_out_set() {
    held_out_in_halves(
        "heldout15.toml",
        "fifteenth held-out set",
        HELD_OUT_15,
        HELD_OUT_15_BM25_GAP,
    );
}

/// A set split in halves: the prompts at even positions read while tuning (their misses
/// and noise printed), those at odd positions never (figures only); then the whole set
/// held to `floors`.
fn held_out_in_halves(set: &str, label: &str, floors: (f64, f64, f64), gap: f64) {
    for (half, part, show) in [("read half", 0, true), ("never-read half", 1, false)] {
        // A world of its own for each half: a world sends nothing twice to a session.
        let (f, prompts) = evaluate_part(&World::new(), set, show, |n| n % 2 == part);
        f.print(&format!("{label}, {half}"), prompts);
    }
    held_out_held_within(set, label, floors, gap);
}

/// Where the fifteenth set stood as it came, before any change measured on it: 58%
/// precision, 12 of 16 unrelated prompts served, 75% of the answerable ones (read half:
/// 63%, 6 of 8, 75%; never-read half: 53%, 6 of 8, 75%). After a question of how
/// something works lost the lowered bars (chosen on the read half): 64%, 10 of 16, 75%
/// (read half 73%, 5 of 8, 75%; never-read half 58%, 5 of 8, 75%). After dated
/// past-work questions ("at the start of october", "the 5th of november"; from the read
/// half's one): 66%, 10 of 16, 81% (read half 74%, 5 of 8, 81%; never-read half 59%, 5
/// of 8, 81%).
const HELD_OUT_15: (f64, f64, f64) = (0.64, 0.63, 0.80);
/// As it came, search with the whole prompt ranked above plain BM25 (0.73 against 0.68).
const HELD_OUT_15_BM25_GAP: f64 = 0.0;

/// 48 prompts by a sixteenth reviewer (`heldout16.toml`), written before the change
/// they measure: a representative week rather than an adversarial one — thirty English
/// work prompts (seven with a short pasted log, follow-ups, symptoms, plans the memory
/// argues against), four in Swedish, Polish, Korean and Turkish, six past-work
/// questions (one dated, one by weekday) and eight ordinary tasks with nothing
/// relevant. Split like the fifteenth: even positions read while tuning, odd never.
#[test]
fn recall_on_the_sixteenth_held_out_set() {
    held_out_in_halves(
        "heldout16.toml",
        "sixteenth held-out set",
        HELD_OUT_16,
        HELD_OUT_16_BM25_GAP,
    );
}

/// Where the sixteenth set stood as it came, measured before any change for it: 68%
/// precision, 3 of 8 unrelated prompts served, 55% of the answerable ones (read half:
/// 68%, 1 of 4, 60%; never-read half: 68%, 2 of 4, 50%). No change was kept from it:
/// every looser floor tried on the read sets (two rare words shared, a lower topic or
/// share floor) served more unrelated prompts on the never-read ones in proportion.
const HELD_OUT_16: (f64, f64, f64) = (0.66, 0.38, 0.55);
/// As it came, search with the whole prompt ranked above plain BM25 (0.61 against 0.59).
const HELD_OUT_16_BM25_GAP: f64 = 0.0;

/// 48 prompts by a seventeenth reviewer (`heldout17.toml`), written before the change
/// they measure: long hand-over prompts as developers write them (a paragraph or more of
/// context, side remarks naming unrelated tools, some with a pasted snippet of 5–40
/// lines, then the ask) — twenty-eight English work prompts, four in Portuguese,
/// Italian, Vietnamese and Hindi, six past-work questions inside longer prose, and ten
/// long tasks with nothing relevant whose words overlap memories only by chance. Split
/// like the fifteenth: even positions read while tuning, odd never.
#[test]
fn recall_on_the_seventeenth_held_out_set() {
    held_out_in_halves(
        "heldout17.toml",
        "seventeenth held-out set",
        HELD_OUT_17,
        HELD_OUT_17_BM25_GAP,
    );
}

/// Where the seventeenth set stood as it came, measured before any change for it: 93%
/// precision, 1 of 10 unrelated prompts served, 37% of the answerable ones (read half:
/// 100%, 0 of 5, 42%; never-read half: 86%, 1 of 5, 32%). Search ranked a wanted item
/// first for 15 of the 24 prompts that got nothing: long prose dilutes the floor.
const HELD_OUT_17: (f64, f64, f64) = (0.93, 0.10, 0.36);
/// As it came, search with the whole prompt ranked above plain BM25 (0.70 against 0.67).
const HELD_OUT_17_BM25_GAP: f64 = 0.0;
