//! Codex as a second agent, end to end: the real `codex` CLI (npm `@openai/codex`)
//! offline against a scripted Responses API server, our hooks and MCP server registered
//! by the real `homunculus init --agent codex`. Three sessions fail on `make test` and
//! recover with `make check`; the fourth is handed the lesson at its start and finds it
//! again through the MCP `search` tool the scripted model calls.
//!
//! Codex runs a user's hooks only once they are trusted (`/hooks` in its TUI); the test
//! passes `--dangerously-bypass-hook-trust`, as a CI job of a user's would.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::{World, mock};

fn codex() -> Option<PathBuf> {
    super::program("CODEX_BIN", &["codex"])
}

/// The provider Codex is pointed at: the mock, whose port each run passes with `-c`.
const PROVIDER: &str = "model = \"mock-model\"\nmodel_provider = \"mock\"\n\n[model_providers.mock]\nname = \"mock\"\nbase_url = \"http://127.0.0.1:9/v1\"\nwire_api = \"responses\"\nenv_key = \"MOCK_API_KEY\"\n";

/// One `codex exec` against a mock playing `turns`; the request bodies.
fn session(world: &World, codex: &Path, project: &str, prompt: &str, turns: Vec<Value>) -> String {
    let server = mock::Mock::start(turns);
    let out = Command::new("timeout")
        .arg("120")
        .arg(codex)
        .arg("exec")
        .arg("-c")
        .arg(format!(
            "model_providers.mock.base_url=\"http://127.0.0.1:{}/v1\"",
            server.port
        ))
        .args([
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
            "-s",
            "workspace-write",
            prompt,
        ])
        .current_dir(world.projects.join(project))
        .env_clear()
        .env("HOME", &world.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("MOCK_API_KEY", "not-a-key")
        .env("TMPDIR", &world.tmp)
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "codex exec failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    server.bodies()
}

#[test]
fn codex_records_learns_and_recalls_through_hooks_and_mcp() {
    let Some(codex) = codex() else {
        assert!(
            std::env::var("HOMUNCULUS_E2E_REQUIRED").as_deref() != Ok("1"),
            "HOMUNCULUS_E2E_REQUIRED=1 but no codex binary was found (set CODEX_BIN or run .ci/run)"
        );
        eprintln!("skipped: no `codex` binary (npm install --prefix .e2e @openai/codex)");
        return;
    };
    let world = World::new();
    let codex_home = world.home.join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::write(codex_home.join("config.toml"), PROVIDER).unwrap();
    world.ours(&["init", "--agent", "codex"]);
    let shell = |cmd: &str| json!({"tool": "exec_command", "input": {"cmd": cmd}});
    for n in 1..=3 {
        session(
            &world,
            &codex,
            "ledger",
            "Run the test suite for the ledger, please.",
            vec![
                shell("make test"),
                shell("make check"),
                json!({"text": format!("Run {n}: the checks pass (make check).")}),
            ],
        );
    }
    // The failure was seen as one, with its error, though Codex's hook payload carries
    // only the output (the status comes from its session file).
    let archive_and_pending: String = ["observations", "observations.archive"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(world.memory().join(d))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(
        archive_and_pending.contains("\"event\":\"failure\"")
            && archive_and_pending.contains("No rule to make target"),
        "{archive_and_pending}"
    );
    world.ours(&["observe", "--force"]);
    let status: Value = serde_json::from_slice(&world.ours(&["status", "--json"]).stdout).unwrap();
    assert!(
        status["instincts"].as_array().unwrap().iter().any(|i| {
            i["trigger"].as_str().unwrap_or("").contains("make test")
                && i["action"].as_str().unwrap_or("").contains("make check")
        }),
        "{status}"
    );
    let search =
        json!({"tool": "search", "namespace": "mcp__homunculus", "input": {"query": "make test"}});
    let bodies = session(
        &world,
        &codex,
        "ledger",
        "Run the tests again.",
        vec![search, json!({"text": "Done."})],
    );
    assert!(
        bodies.contains("homunculus-memory") && bodies.contains("run `make check` instead"),
        "the lesson was not handed to Codex at session start"
    );
    let answered = bodies.lines().any(|line| {
        let request: Value = serde_json::from_str(line).unwrap_or_default();
        request["body"]["input"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|item| {
                item["type"] == "function_call_output"
                    && item["output"].to_string().contains("\\\"lesson\\\"")
            })
    });
    assert!(answered, "the MCP search answer did not reach the model");
    assert_eq!(
        std::fs::read_dir(world.memory().join("sessions"))
            .unwrap()
            .count(),
        4,
        "one summary per Codex session"
    );
}
