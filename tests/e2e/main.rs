//! End to end with the real Claude Code CLI, offline: our hooks installed by the real
//! `homunculus init`, `claude -p` against a scripted model server, the whole loop from
//! observation to learned instinct to injected context.
//!
//! Opt-in where there is no `claude`: it looks at `CLAUDE_BIN`, then `.e2e/` (where
//! `.ci/run` installs the npm package), then `PATH`, and skips with a message when none is
//! found, unless `HOMUNCULUS_E2E_REQUIRED=1` (as in CI), which makes that a failure.

// Test and benchmark code sets up files and reads the clock directly; the house rules
// in clippy.toml are for the program.
#![allow(clippy::disallowed_methods)]

mod browser;
mod codex;
mod mock;
mod plugin;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// An external program for a test: `var` when set, else the first of `names` in `.e2e/`
/// (where `.ci/run` installs the npm CLIs), else on `PATH`.
fn program(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os(var).filter(|b| !b.is_empty()) {
        return Some(PathBuf::from(bin));
    }
    let e2e = Path::new(env!("CARGO_MANIFEST_DIR")).join(".e2e/node_modules/.bin");
    if let Some(local) = names.iter().map(|n| e2e.join(n)).find(|p| p.exists()) {
        return Some(local);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|p| names.iter().map(move |n| p.join(n)))
            .find(|p| p.is_file())
    })
}

fn claude() -> Option<PathBuf> {
    program("CLAUDE_BIN", &["claude"])
}

fn homunculus() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("homunculus"))
}

struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    tmp: PathBuf,
    projects: PathBuf,
}

impl World {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let tmp = dir.path().join("tmp");
        let projects = dir.path().join("projects");
        for d in [&home, &tmp] {
            std::fs::create_dir_all(d).unwrap();
        }
        for name in ["ledger", "billing"] {
            let p = projects.join(name);
            std::fs::create_dir_all(&p).unwrap();
            let ok = Command::new("git")
                .args(["init", "-q"])
                .current_dir(&p)
                .status()
                .unwrap();
            assert!(ok.success());
            std::fs::write(p.join("Makefile"), "check:\n\t@echo all checks pass\n").unwrap();
            std::fs::write(p.join("notes.md"), "notes\n").unwrap();
        }
        Self {
            _dir: dir,
            home,
            tmp,
            projects,
        }
    }

    fn memory(&self) -> PathBuf {
        self.home.join(".claude/homunculus")
    }

    fn ours(&self, args: &[&str]) -> std::process::Output {
        let out = homunculus()
            .args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "homunculus {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// One `claude -p` process against a mock playing `turns`. Returns the request bodies,
    /// the debug log, and how long the process took.
    fn session(
        &self,
        claude: &Path,
        project: &str,
        prompt: &str,
        turns: &[Value],
        n: usize,
    ) -> (String, String, Duration) {
        self.session_with(claude, project, prompt, turns, n, &Extra::default())
    }

    /// `session`, with a plugin folder, more allowed tools and a PATH prefix.
    fn session_with(
        &self,
        claude: &Path,
        project: &str,
        prompt: &str,
        turns: &[Value],
        n: usize,
        extra: &Extra,
    ) -> (String, String, Duration) {
        let dir = self.projects.join(project);
        let turns: Vec<Value> = turns
            .iter()
            .map(|t| {
                serde_json::from_str(
                    &t.to_string()
                        .replace("{{PROJECT}}", &dir.display().to_string()),
                )
                .unwrap()
            })
            .collect();
        let server = mock::Mock::start(turns);
        let debug = self.tmp.join(format!("claude-debug-{n}.log"));
        let started = Instant::now();
        let out = Command::new("timeout")
            .arg("120")
            .arg(claude)
            .args([
                "-p",
                prompt,
                "--permission-mode",
                "acceptEdits",
                "--allowedTools",
                &format!("Bash,Read,Edit,Write{}", extra.allowed),
                "--output-format",
                "json",
                "--debug-file",
            ])
            .arg(&debug)
            .args(extra.args.iter())
            .current_dir(&dir)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", extra.path())
            .env("SHELL", "/bin/bash")
            .env("USER", "e2e")
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", &self.tmp)
            .env(
                "ANTHROPIC_BASE_URL",
                format!("http://127.0.0.1:{}", server.port),
            )
            .env("ANTHROPIC_API_KEY", "sk-e2e-not-a-key")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "claude session {n} failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (
            server.bodies(),
            std::fs::read_to_string(&debug).unwrap_or_default(),
            took,
        )
    }
}

/// What a session adds to the default run.
#[derive(Default)]
struct Extra {
    /// More tools to allow, each with a leading comma.
    allowed: String,
    args: Vec<std::ffi::OsString>,
    /// A folder put first on PATH.
    path_first: Option<PathBuf>,
}

impl Extra {
    fn path(&self) -> std::ffi::OsString {
        let rest = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs: Vec<PathBuf> = self.path_first.iter().cloned().collect();
        dirs.extend(std::env::split_paths(&rest));
        std::env::join_paths(dirs).unwrap()
    }
}

/// Hook durations Claude Code measured, from its debug log: (event, milliseconds).
fn hook_times(debug: &str) -> Vec<(String, f64)> {
    let re = regex::Regex::new(
        r"Hooks: ([A-Za-z]+)[^\[\n]* \[.*?\] finished with status (\d+) \(([\d.]+)ms\)",
    )
    .unwrap();
    re.captures_iter(debug)
        .filter_map(|c| Some((c[1].to_string(), c[3].parse().ok()?)))
        .collect()
}

#[test]
fn the_learning_loop_inside_the_real_client() {
    let Some(claude) = claude() else {
        assert!(
            std::env::var("HOMUNCULUS_E2E_REQUIRED").as_deref() != Ok("1"),
            "HOMUNCULUS_E2E_REQUIRED=1 but no claude binary was found (set CLAUDE_BIN or run .ci/run)"
        );
        eprintln!(
            "skipped: no `claude` binary (set CLAUDE_BIN, or `npm install --prefix .e2e @anthropic-ai/claude-code`)"
        );
        return;
    };
    let scenario: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/e2e/scenario.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let world = World::new();
    world.ours(&["init"]);
    let sessions = scenario["sessions"].as_array().unwrap();
    let mut bodies = Vec::new();
    let mut times: Vec<(String, f64)> = Vec::new();
    let mut wall = Vec::new();
    for (n, s) in sessions.iter().enumerate() {
        if n == 3 {
            // As the Stop hook would once enough is pending; forced here, the run is short.
            world.ours(&["observe", "--force"]);
        }
        let turns = s["turns"].as_array().unwrap();
        let (b, debug, took) = world.session(
            &claude,
            s["project"].as_str().unwrap(),
            s["prompt"].as_str().unwrap(),
            turns,
            n + 1,
        );
        bodies.push(b);
        times.extend(hook_times(&debug));
        wall.push(took);
    }

    // Learned in sessions 1-3.
    let status: Value = serde_json::from_slice(&world.ours(&["status", "--json"]).stdout).unwrap();
    let learned: Vec<&Value> = status["instincts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["trigger"]
                .as_str()
                .unwrap_or("")
                .starts_with("when `make test` fails with")
        })
        .collect();
    assert_eq!(learned.len(), 1, "{status}");
    let name = learned[0]["name"].as_str().unwrap();
    assert!(
        learned[0]["action"]
            .as_str()
            .unwrap()
            .starts_with("run `make check` instead"),
        "{status}"
    );

    // Present in the model's context: at session start in the same project...
    assert!(
        bodies[3].contains("when `make test` fails with"),
        "session 4 requests lack the instinct"
    );
    // ...and through prompt recall in another project, where SessionStart does not show it.
    assert!(
        !bodies[4].contains("# homunculus: learned memory for billing\\n(Each line")
            || bodies[4].contains(name),
        "{}",
        &bodies[4][bodies[4].find("# homunculus").unwrap_or(0)..][..600.min(bodies[4].len())]
    );
    assert!(
        bodies[4].contains("memories related to this prompt"),
        "no recall block in session 5"
    );
    assert!(bodies[4].contains(name), "session 5 recall lacks {name}");

    // One summary per session, with its tools and files.
    let summaries: Vec<PathBuf> = std::fs::read_dir(world.memory().join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(summaries.len(), 5, "{summaries:?}");
    let first = summaries
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|t| t.contains("errors: 1") && t.contains("- report-"))
        .unwrap_or_else(|| {
            panic!(
                "no summary with the failure and the written report: {:?}",
                summaries
                    .iter()
                    .map(|p| std::fs::read_to_string(p).unwrap())
                    .collect::<Vec<_>>()
            )
        });
    assert!(first.contains("\"Bash\""), "{first}");
    // The failure was observed with its error excerpt.
    let archive = std::fs::read_dir(world.memory().join("observations.archive"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        archive.contains("\"event\":\"failure\"") && archive.contains("No rule to make target"),
        "{archive}"
    );
    // Nothing we injected was learned back.
    for entry in walkdir::WalkDir::new(world.memory().join("instincts"))
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
    {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        assert!(
            !text.contains("homunculus: learned memory")
                && !text.contains("memories related to this prompt"),
            "{text}"
        );
    }

    // The same script without our hooks, for the cost of the hooks as a whole.
    world.ours(&["uninstall"]);
    let (_, _, bare) = world.session(
        &claude,
        "billing",
        "Run the test suite, please.",
        sessions[0]["turns"].as_array().unwrap(),
        6,
    );

    // What the hooks cost, as Claude Code measured them (builds that log durations).
    let mut by_event: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for (event, ms) in &times {
        by_event.entry(event.clone()).or_default().push(*ms);
    }
    let total: f64 = times.iter().map(|(_, ms)| ms).sum();
    let mut report = format!(
        "e2e: session 1 (4 turns, 9 hook calls) took {:?} with our hooks, {bare:?} without; all sessions: {wall:?}\n",
        wall[0]
    );
    if !times.is_empty() {
        report += &format!(
            "  {} hook runs took {total:.0} ms in all (Claude Code's own measure)\n",
            times.len()
        );
    }
    for (event, mut v) in by_event {
        v.sort_by(f64::total_cmp);
        report += &format!(
            "  {event}: n={} median={:.0} ms max={:.0} ms\n",
            v.len(),
            v[v.len() / 2],
            v[v.len() - 1]
        );
    }
    eprintln!("{report}");
}
