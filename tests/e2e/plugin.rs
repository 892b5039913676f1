//! The repository's plugin inside the real Claude Code CLI (`--plugin-dir plugin`, the
//! binary on PATH as a user would install it): `claude plugin validate` accepts it, its
//! hooks fire, and its MCP server answers a `search` the scripted model asks for.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use super::{Extra, World, claude, homunculus};

/// The plugin's search tool as Claude Code names it: `mcp__plugin_<plugin>_<server>__<tool>`.
const SEARCH: &str = "mcp__plugin_homunculus_homunculus__search";

#[test]
fn the_plugin_loads_its_hooks_fire_and_its_mcp_tool_answers() {
    let Some(claude) = claude() else {
        assert!(
            std::env::var("HOMUNCULUS_E2E_REQUIRED").as_deref() != Ok("1"),
            "HOMUNCULUS_E2E_REQUIRED=1 but no claude binary was found"
        );
        eprintln!("skipped: no `claude` binary");
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for target in [repo.join("plugin"), repo.to_path_buf()] {
        let out = Command::new(&claude)
            .args(["plugin", "validate"])
            .arg(&target)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "claude plugin validate {}: {}{}",
            target.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let world = World::new();
    // A memory folder with one lesson, and no settings.json wiring: the plugin is all.
    world.ours(&["init"]);
    world.ours(&["uninstall"]);
    std::fs::write(
        world.memory().join("instincts/personal/testing-use-nextest.md"),
        "---\ntrigger: \"when running the tests of the ledger\"\naction: \"use cargo nextest run; cargo test misses the integration harness\"\nconfidence: 0.8\ndomain: testing\ncreated: 2026-11-01T00:00:00Z\nlast_seen: 2026-11-20T00:00:00Z\n---\n\n# Use nextest\n\n## Evidence\n\n- seen\n",
    )
    .unwrap();
    let bin_dir = world.home.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(homunculus().get_program(), bin_dir.join("homunculus")).unwrap();
    let extra = Extra {
        allowed: format!(",{SEARCH}"),
        args: vec!["--plugin-dir".into(), repo.join("plugin").into()],
        path_first: Some(bin_dir),
    };
    let turns = [
        json!({"tool": SEARCH, "input": {"query": "nextest"}}),
        json!({"tool": "Bash", "input": {"command": "make check", "description": "Run the checks"}}),
        json!({"text": "Done."}),
    ];
    let (bodies, _, _) = world.session_with(
        &claude,
        "ledger",
        "How do I run the tests here?",
        &turns,
        1,
        &extra,
    );
    assert!(
        bodies.contains(SEARCH),
        "the plugin's MCP tools were not offered to the model"
    );
    // The tool's answer (its hits as JSON) came back as the tool result.
    let answered = bodies.lines().any(|request| {
        let request: serde_json::Value = serde_json::from_str(request).unwrap_or_default();
        request["body"]["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|m| {
                m["content"].as_array().into_iter().flatten().any(|block| {
                    block["type"] == "tool_result"
                        && block["content"]
                            .to_string()
                            .contains("testing-use-nextest.md")
                        && block["content"].to_string().contains("\\\"lesson\\\"")
                })
            })
    });
    if !answered {
        eprintln!("{bodies}");
    }
    assert!(answered, "the search answer did not reach the model");
    // The hooks fired: the session start was answered and the tool calls recorded.
    assert!(
        bodies.contains("homunculus"),
        "nothing of ours reached the model"
    );
    let recorded: String = std::fs::read_dir(world.memory().join("observations"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(recorded.contains("make check"), "{recorded}");
    assert_eq!(
        std::fs::read_dir(world.memory().join("sessions"))
            .unwrap()
            .count(),
        1,
        "one session summary, written by the plugin's Stop hook"
    );
}
