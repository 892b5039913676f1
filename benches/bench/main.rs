//! Whole-process benchmarks over generated corpora (1k, 10k, 100k items):
//! `cargo bench --bench bench [-- 1k 10k 100k]`, and `cargo bench --bench bench -- replay`
//! for replay speed, `cargo bench --bench bench -- mcp [1k 10k]` for the MCP server,
//! `cargo bench --bench bench -- plugin` for the hook cost of each wiring,
//! `cargo bench --bench bench -- ui [1k 10k]` for the review screen's pages. Prints markdown tables of medians.
//! No assertions: figures go to the README, budgets are checked by people.

// Test and benchmark code sets up files and reads the clock directly; the house rules
// in clippy.toml are for the program.
#![allow(clippy::disallowed_methods)]

mod corpus;
mod mcp;
mod plugin;
mod replay;
mod ui;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_homunculus");
const NOW: &str = "2026-11-01T12:00:00Z";
const RUNS: usize = 40;
const QUERIES: &[&str] = &[
    "nextest",
    "flaky integration test",
    "lockfile",
    "EADDRINUSE port",
    "migration log",
    "retry helper",
    "snapshot mismatch",
    "credentials rotation",
    "docker compose",
    "borrow of moved value",
    "feature flags bug",
    "terraform plan staging",
];

/// One measured process: wall time and peak resident memory.
struct Sample {
    wall: Duration,
    max_rss_kb: i64,
}

fn command(home: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_clear()
        .env("HOME", home)
        .env("HOMUNCULUS_NOW", NOW)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Runs to completion, measuring wall time and (via wait4) peak memory. The child is
/// reaped by wait4 itself, which `Child` cannot know.
fn measure(cmd: Command) -> Sample {
    measure_with_input(cmd, None)
}

#[allow(clippy::zombie_processes)]
fn measure_with_input(mut cmd: Command, input: Option<&[u8]>) -> Sample {
    use std::io::Write;
    if input.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("spawn homunculus");
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        stdin.write_all(bytes).expect("write payload");
    }
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(rc, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "command failed: {cmd:?}"
    );
    Sample {
        wall: started.elapsed(),
        max_rss_kb: usage.ru_maxrss,
    }
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let rank = ((values.len() as f64 - 1.0) * p).round() as usize;
    values[rank]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Figures {
    items: usize,
    reindex_s: f64,
    search_median: f64,
    search_p95: f64,
    search_rss_mb: f64,
    update_median: f64,
    feedback_median: f64,
    after_feedback_median: f64,
    sweep_ms: f64,
    delete_median: f64,
    watch_median: f64,
    index_mb: f64,
    reindex_rss_mb: f64,
}

fn dir_size(dir: &Path) -> u64 {
    walkdir(dir)
        .iter()
        .filter_map(|p| p.metadata().ok())
        .map(|m| m.len())
        .sum()
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// A corpus home for `items`, generated once and reused (`target/bench-corpus/<n>`).
fn corpus_home(items: usize) -> PathBuf {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/bench-corpus")
        .join(items.to_string());
    let home = base.join("home");
    let memory = home.join(".claude/homunculus");
    if !base.join(".complete").exists() {
        let _ = std::fs::remove_dir_all(&base);
        eprintln!("generating {items} items ...");
        corpus::generate(&memory, items, 42).expect("generate corpus");
        std::fs::write(base.join(".complete"), "").unwrap();
    }
    home
}

/// Replaces a file the way editors and homunculus do: temp file, then rename.
fn rewrite(path: &Path, extra: &str) {
    let mut text = std::fs::read_to_string(path).unwrap();
    text.push_str(extra);
    let tmp = path.with_extension("md.tmp~");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn bench(items: usize) -> Figures {
    let home = corpus_home(items);
    let memory = home.join(".claude/homunculus");
    let target = std::fs::read_dir(memory.join("instincts/personal"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "md"))
        .unwrap();

    let reindex: Vec<Sample> = (0..3)
        .map(|_| measure(command(&home, &["reindex"])))
        .collect();
    let mut reindex_s: Vec<f64> = reindex.iter().map(|s| s.wall.as_secs_f64()).collect();
    let reindex_rss = reindex.iter().map(|s| s.max_rss_kb).max().unwrap_or(0);

    // Warm: the first sync after reindex records folder times.
    measure(command(&home, &["search", "warmup"]));
    let mut search = Vec::new();
    let mut search_rss = 0;
    for n in 0..RUNS {
        let s = measure(command(&home, &["search", QUERIES[n % QUERIES.len()]]));
        search_rss = search_rss.max(s.max_rss_kb);
        search.push(ms(s.wall));
    }

    // One file replaced, then the search that picks it up.
    let mut update = Vec::new();
    for n in 0..10 {
        rewrite(&target, &format!("\n- touched {n}\n"));
        update.push(ms(measure(command(&home, &["search", "nextest"])).wall));
    }

    // Our own write (feedback edits one instinct and updates the index), then a search.
    let name = target.file_stem().unwrap().to_string_lossy().into_owned();
    let mut own = Vec::new();
    let mut own_search = Vec::new();
    for _ in 0..10 {
        own.push(ms(
            measure(command(&home, &["feedback", &name, "weak"])).wall
        ));
        own_search.push(ms(measure(command(&home, &["search", "nextest"])).wall));
    }

    // The periodic in-place sweep (forced by moving the clock a minute on).
    let mut later = command(&home, &["search", "nextest"]);
    later.env("HOMUNCULUS_NOW", "2026-11-01T12:05:00Z");
    let sweep_ms = ms(measure(later).wall);
    measure(command(&home, &["search", "nextest"]));

    let delete_median = delete_then_search(&home, &target);
    let watch_median = watch_latency(&home, &target);
    let index_mb = dir_size(&memory.join(".index")) as f64 / 1e6;
    Figures {
        items,
        reindex_s: percentile(&mut reindex_s, 0.5),
        search_median: percentile(&mut search.clone(), 0.5),
        search_p95: percentile(&mut search, 0.95),
        search_rss_mb: search_rss as f64 / 1024.0,
        update_median: percentile(&mut update, 0.5),
        feedback_median: percentile(&mut own, 0.5),
        after_feedback_median: percentile(&mut own_search, 0.5),
        sweep_ms,
        delete_median,
        watch_median,
        index_mb,
        reindex_rss_mb: reindex_rss as f64 / 1024.0,
    }
}

/// A file deleted by hand, then the search that drops it and purges its text from the
/// index files (the segments holding it are rewritten). The files are put back after.
fn delete_then_search(home: &Path, keep: &Path) -> f64 {
    let victims: Vec<PathBuf> = std::fs::read_dir(keep.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != keep && p.extension().is_some_and(|e| e == "md"))
        .take(5)
        .collect();
    let mut times = Vec::new();
    for victim in &victims {
        let text = std::fs::read(victim).unwrap();
        std::fs::remove_file(victim).unwrap();
        times.push(ms(measure(command(home, &["search", "nextest"])).wall));
        std::fs::write(victim, text).unwrap();
        measure(command(home, &["search", "nextest"]));
    }
    percentile(&mut times, 0.5)
}

/// From a hand edit to the moment `search` finds it, with `watch` running.
fn watch_latency(home: &Path, target: &Path) -> f64 {
    let mut cmd = command(home, &["watch"]);
    cmd.stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    while !rx
        .recv_timeout(Duration::from_secs(300))
        .unwrap()
        .contains("synced")
    {}
    let mut samples = Vec::new();
    for n in 0..10 {
        let word = format!("zq{n}x{}", std::process::id());
        let started = Instant::now();
        rewrite(target, &format!("\n- {word}\n"));
        loop {
            let out = command(home, &["search", "--json", &word])
                .stdout(Stdio::piped())
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).contains("\"path\"") {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "watch never indexed the edit"
            );
        }
        samples.push(ms(started.elapsed()));
    }
    let _ = child.kill();
    let _ = child.wait();
    percentile(&mut samples, 0.5)
}

/// Hook latencies: what Claude Code waits for on every tool call, session and prompt.
struct HookFigures {
    items: usize,
    post_median: f64,
    post_p99: f64,
    start_median: f64,
    prompt_median: f64,
    max_rss_mb: f64,
}

fn payload(project: &Path, sid: &str, extra: &str) -> Vec<u8> {
    format!(
        "{{\"session_id\":\"{sid}\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"{}\",\"permission_mode\":\"default\",{extra}}}",
        project.display()
    )
    .into_bytes()
}

fn hooks(items: usize) -> HookFigures {
    let home = corpus_home(items);
    let project = home.join("src/ledger-svc");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(project.join("Cargo.toml"), "").unwrap();
    measure(command(&home, &["reindex"]));
    let mut rss = 0;
    let mut run = |event: &str, body: Vec<u8>| {
        let s = measure_with_input(command(&home, &["hook", event]), Some(&body));
        rss = rss.max(s.max_rss_kb);
        ms(s.wall)
    };
    let bash = r#""hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo nextest run -p ledger-core parse_amount","description":"Re-run the tests"},"tool_response":{"stdout":"running 3 tests\ntest result: ok. 3 passed","stderr":"","interrupted":false},"tool_use_id":"toolu_1""#;
    let mut post: Vec<f64> = (0..100)
        .map(|_| run("post-tool-use", payload(&project, "bench-post", bash)))
        .collect();
    let mut start: Vec<f64> = (0..RUNS)
        .map(|n| {
            let body = payload(
                &project,
                &format!("bench-start-{n}"),
                r#""hook_event_name":"SessionStart","source":"startup""#,
            );
            run("session-start", body)
        })
        .collect();
    let mut prompt: Vec<f64> = (0..RUNS)
        .map(|n| {
            let q = QUERIES[n % QUERIES.len()];
            let extra = format!(r#""hook_event_name":"UserPromptSubmit","prompt":"why does the {q} keep failing when I run the integration suite""#);
            run("user-prompt-submit", payload(&project, &format!("bench-prompt-{n}"), &extra))
        })
        .collect();
    // Leave the corpus as it was for the next run.
    let _ = std::fs::remove_dir_all(home.join(".claude/homunculus/observations"));
    let _ = std::fs::remove_dir_all(home.join(".claude/homunculus/state/sessions"));
    HookFigures {
        items,
        post_median: percentile(&mut post.clone(), 0.5),
        post_p99: percentile(&mut post, 0.99),
        start_median: percentile(&mut start, 0.5),
        prompt_median: percentile(&mut prompt, 0.5),
        max_rss_mb: rss as f64 / 1024.0,
    }
}

fn main() {
    if std::env::args().any(|a| a == "plugin") {
        plugin::run();
        return;
    }
    if std::env::args().any(|a| a == "replay") {
        replay::run();
        return;
    }
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| match a.as_str() {
            "1k" => Some(1_000),
            "10k" => Some(10_000),
            "100k" => Some(100_000),
            other => other.parse().ok(),
        })
        .collect();
    if sizes.is_empty() {
        sizes = vec![1_000, 10_000, 100_000];
    }
    if std::env::args().any(|a| a == "ui") {
        ui::run(&sizes);
        return;
    }
    if std::env::args().any(|a| a == "mcp") {
        mcp::run(&sizes);
        return;
    }
    let hook_figures: Vec<HookFigures> = sizes.iter().map(|&n| hooks(n)).collect();
    let figures: Vec<Figures> = sizes.into_iter().map(bench).collect();
    println!(
        "| items | post-tool-use median | post-tool-use p99 | session-start median | user-prompt-submit median | peak RSS of any hook |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for h in hook_figures {
        println!(
            "| {} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} MB |",
            h.items, h.post_median, h.post_p99, h.start_median, h.prompt_median, h.max_rss_mb
        );
    }
    println!();
    println!(
        "| items | reindex | search median | search p95 | hand edit → search | feedback / search after | sweep | delete → search (purged) | watch: edit visible | index size | peak RSS search / reindex |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for f in figures {
        println!(
            "| {} | {:.2} s | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} / {:.1} ms | {:.0} ms | {:.0} ms | {:.0} ms | {:.1} MB | {:.0} / {:.0} MB |",
            f.items,
            f.reindex_s,
            f.search_median,
            f.search_p95,
            f.update_median,
            f.feedback_median,
            f.after_feedback_median,
            f.sweep_ms,
            f.delete_median,
            f.watch_median,
            f.index_mb,
            f.search_rss_mb,
            f.reindex_rss_mb
        );
    }
}
