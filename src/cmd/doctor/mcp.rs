//! Doctor's check of the MCP server: registered where Claude Code reads it, and
//! answering the protocol (initialize, then tools/list) when started as registered.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::Level;
use crate::cmd::Ctx;
use crate::setup::settings::SettingsFile;

/// The tools a working server lists.
const TOOLS: [&str; 6] = [
    "search",
    "get",
    "recent_sessions",
    "remember",
    "feedback",
    "forget",
];

pub(super) fn check(ctx: &Ctx, check: &mut impl FnMut(Level, String)) {
    let plugin = ctx.paths.claude_skills_plugin();
    let file = if crate::setup::plugin::is_ours(&plugin) {
        plugin.join(".mcp.json")
    } else {
        let Ok(file) = ctx.env.claude_state_file() else {
            return;
        };
        file
    };
    let registered = SettingsFile::open(&file)
        .ok()
        .and_then(|(_, config)| crate::setup::mcp::registered(&config));
    let Some(bin) = registered else {
        check(
            Level::Warn,
            format!(
                "MCP server not registered in {}: the model cannot search the memory itself (`homunculus init` registers it)",
                file.display()
            ),
        );
        return;
    };
    match speak(&bin, ctx) {
        Ok(()) => check(
            Level::Ok,
            format!(
                "MCP server registered in {} answers the protocol with its {} tools",
                file.display(),
                TOOLS.len()
            ),
        ),
        Err(why) => check(Level::Fail, format!("MCP server `{bin} mcp`: {why}")),
    }
}

/// Starts `bin mcp` and asks for its tools, giving up after a few seconds.
fn speak(bin: &str, ctx: &Ctx) -> Result<(), String> {
    let mut child = Command::new(bin)
        .arg("mcp")
        .env("HOMUNCULUS_DIR", &ctx.paths.root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"homunculus-doctor","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ];
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let answers: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .take(2)
            .collect();
        let _ = tx.send(answers);
    });
    for r in requests {
        writeln!(stdin, "{r}").map_err(|e| format!("it stopped reading: {e}"))?;
    }
    let answers = rx.recv_timeout(Duration::from_secs(5));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let answers = answers.map_err(|_| "no answer within 5 s".to_string())?;
    let listed = answers
        .get(1)
        .and_then(|a| serde_json::from_str::<serde_json::Value>(a).ok())
        .ok_or("it did not answer tools/list")?;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let missing: Vec<&str> = TOOLS
        .iter()
        .copied()
        .filter(|t| !names.contains(t))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("its tools lack {}", missing.join(", ")))
    }
}
