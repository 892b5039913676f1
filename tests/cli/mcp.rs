//! `homunculus mcp`: the real binary spoken to over stdio, as Claude Code or Codex does
//! (newline-delimited JSON-RPC): the tools listed, each answering, bad arguments turned
//! away with protocol errors, and changes that go through the same rules as the CLI's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{Value, json};

use crate::common::TestEnv;

/// A running server and the next request id.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    /// Starts `homunculus mcp` in `cwd` and completes the handshake.
    fn start(env: &TestEnv, cwd: &std::path::Path) -> Self {
        let mut child = env
            .spawnable()
            .arg("mcp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut client = Self {
            child,
            stdin,
            stdout,
            next: 1,
        };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "homunculus", "{init}");
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        let answer: Value =
            serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}"));
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// Calls a tool; its structured answer, or the protocol error.
    fn call(&mut self, tool: &str, arguments: Value) -> Result<Value, Value> {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        match answer.get("error") {
            Some(e) => Err(e.clone()),
            None => Ok(answer["result"]["structuredContent"].clone()),
        }
    }

    /// Closes stdin and checks the server then ends cleanly, having printed nothing
    /// on stderr.
    fn finish(self) {
        drop(self.stdin);
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn ready() -> TestEnv {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    env
}

#[test]
fn lists_six_tools_that_tell_the_model_when_to_use_them() {
    let env = ready();
    let mut client = Client::start(&env, &env.project());
    let list = client.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "feedback",
            "forget",
            "get",
            "recent_sessions",
            "remember",
            "search"
        ]
    );
    for tool in tools {
        let description = tool["description"].as_str().unwrap();
        assert!(description.split_whitespace().count() >= 15, "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    client.finish();
}

#[test]
fn search_then_get_gives_the_lesson_then_the_whole_item() {
    let env = ready();
    let mut client = Client::start(&env, &env.project());
    let found = client.call("search", json!({"query": "nextest"})).unwrap();
    let first = &found["hits"][0];
    assert_eq!(
        first["id"], "instincts/personal/testing-use-nextest.md",
        "{found}"
    );
    assert_eq!(first["kind"], "instinct");
    assert!(
        first["lesson"]
            .as_str()
            .unwrap()
            .contains("cargo nextest run"),
        "{found}"
    );
    let item = client.call("get", json!({"id": first["id"]})).unwrap();
    assert!(
        item["text"].as_str().unwrap().contains("## Evidence"),
        "{item}"
    );
    // A name works as well as an id.
    let by_name = client
        .call("get", json!({"id": "testing-use-nextest"}))
        .unwrap();
    assert_eq!(by_name["id"], first["id"]);
    let only_episodes = client
        .call("search", json!({"query": "port", "kind": "episode"}))
        .unwrap();
    assert!(
        only_episodes["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["kind"] == "episode"),
        "{only_episodes}"
    );
    client.finish();
}

#[test]
fn bad_arguments_are_protocol_errors_and_nothing_leaves_the_folder() {
    let env = ready();
    std::fs::write(env.home.join("secret.md"), "---\na: b\n---\nsecret\n").unwrap();
    let mut client = Client::start(&env, &env.project());
    for (tool, args) in [
        ("search", json!({"query": "  "})),
        ("search", json!({"query": "x", "kind": "recipe"})),
        ("search", json!({"query": "x", "limit": 0})),
        ("get", json!({"id": "../../secret.md"})),
        ("get", json!({"id": "/etc/passwd"})),
        ("get", json!({"id": "identity.json"})),
        ("get", json!({"id": "no-such-thing"})),
        (
            "feedback",
            json!({"id": "testing-use-nextest", "verdict": "meh"}),
        ),
        (
            "feedback",
            json!({"id": "../../secret", "verdict": "wrong"}),
        ),
        ("forget", json!({"id": "../../secret.md"})),
        ("remember", json!({"text": "x"})),
        (
            "remember",
            json!({"text": "use bun here", "domain": "cooking"}),
        ),
    ] {
        let err = client.call(tool, args.clone()).unwrap_err();
        assert_eq!(err["code"], -32602, "{tool} {args}: {err}");
    }
    // Arguments that do not fit the schema at all are answered by the SDK as a tool
    // error the model can correct (the MCP revision of 2025-11-25 asks for that).
    let missing = client.request(
        "tools/call",
        json!({"name": "search", "arguments": {"limit": 3}}),
    );
    assert_eq!(missing["result"]["isError"], true, "{missing}");
    let unknown = client.request("tools/call", json!({"name": "shell", "arguments": {}}));
    assert!(unknown.get("error").is_some(), "{unknown}");
    client.finish();
    assert_eq!(
        std::fs::read_to_string(env.home.join("secret.md")).unwrap(),
        "---\na: b\n---\nsecret\n"
    );
}

#[test]
fn remember_writes_a_user_rule_through_the_same_rules_as_learning() {
    let env = ready();
    let mut client = Client::start(&env, &env.project());
    let done = client
        .call(
            "remember",
            json!({"text": "always run the migrations with sqlx migrate run, not by hand"}),
        )
        .unwrap();
    assert_eq!(done["created"], true, "{done}");
    let id = done["id"].as_str().unwrap().to_string();
    let text = env.read(&id);
    for line in [
        "confidence: 0.60",
        "provenance: user",
        "source: mcp",
        "project: \"ledger-svc\"",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    // Said again: one file, reinforced.
    let again = client
        .call(
            "remember",
            json!({"text": "always run the migrations with sqlx migrate run, not by hand"}),
        )
        .unwrap();
    assert_eq!(
        (again["created"].clone(), again["id"].clone()),
        (json!(false), json!(id))
    );
    // Destructive advice is refused, and a secret never reaches the file.
    let err = client
        .call(
            "remember",
            json!({"text": "clean the build with rm -rf ~ before release"}),
        )
        .unwrap_err();
    assert!(
        err["message"].as_str().unwrap().contains("destroys"),
        "{err}"
    );
    let token = "ghp_9fK2xQ7mZ4rT1vB8nL3wY6hJ0dS5aP2cE7uG";
    let secret = client
        .call(
            "remember",
            json!({"text": format!("the deploy bot token is {token}"), "everywhere": true}),
        )
        .unwrap();
    let written = env.read(secret["id"].as_str().unwrap());
    assert!(!written.contains(token), "{written}");
    assert!(
        !written.contains("project:"),
        "everywhere means no project:\n{written}"
    );
    // An address is personal data: masked in the memory file.
    let mail = client
        .call(
            "remember",
            json!({"text": "send the release notes to alice.smith@corp.example.com"}),
        )
        .unwrap();
    let written = env.read(mail["id"].as_str().unwrap());
    assert!(
        !written.contains("alice.smith@") && written.contains("a…@corp.example.com"),
        "{written}"
    );
    // Found by the CLI's search as well: one index, one implementation.
    let out = env.run(&["search", "migrations", "--json"]);
    assert!(out.stdout.contains(&id), "{out}");
    client.finish();
}

#[test]
fn feedback_and_forget_change_the_item_and_what_search_finds() {
    let env = ready();
    let mut client = Client::start(&env, &env.project());
    let judged = client
        .call(
            "feedback",
            json!({"id": "testing-use-nextest", "verdict": "wrong"}),
        )
        .unwrap();
    assert!(
        judged["after"].as_f64() < judged["before"].as_f64(),
        "{judged}"
    );
    let gone = client
        .call("forget", json!({"id": "instincts/personal/testing-use-nextest.md", "reason": "we moved to bazel"}))
        .unwrap();
    assert_eq!(gone["changed"], true);
    let text = env.read("instincts/personal/testing-use-nextest.md");
    assert!(
        text.contains("retired: true") && text.contains("forgotten: we moved to bazel"),
        "{text}"
    );
    let found = client.call("search", json!({"query": "nextest"})).unwrap();
    assert!(
        !found.to_string().contains("testing-use-nextest"),
        "a forgotten item is not found: {found}"
    );
    // Neither status nor the CLI search show it; forgetting twice changes nothing.
    assert!(!env.run(&["status"]).stdout.contains("use-nextest"));
    let again = client
        .call("forget", json!({"id": "testing-use-nextest"}))
        .unwrap();
    assert_eq!(again["changed"], false);
    client.finish();
}

#[test]
fn recent_sessions_says_where_we_left_off_in_this_project() {
    let env = ready();
    env.hook("session-start", "session_start_startup");
    env.hook("user-prompt-submit", "user_prompt_submit");
    env.hook("stop", "stop");
    let mut client = Client::start(&env, &env.project());
    let recent = client.call("recent_sessions", json!({})).unwrap();
    assert_eq!(recent["project"], "ledger-svc", "{recent}");
    let sessions = recent["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{recent}");
    assert!(
        sessions[0]["date"].as_str() > sessions[1]["date"].as_str(),
        "newest first: {recent}"
    );
    client.finish();
}

#[test]
fn init_project_registers_the_server_in_mcp_json_and_uninstall_removes_it() {
    let env = TestEnv::new();
    let project = env.project();
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["init", "--project"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(
        config["mcpServers"]["homunculus"],
        json!({"type": "stdio", "command": "homunculus", "args": ["mcp"], "env": {}})
    );
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["uninstall", "--project"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        !project.join(".mcp.json").exists(),
        "init created it, uninstall removes it"
    );
}
