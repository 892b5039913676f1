//! A scripted stand-in for the Anthropic Messages API on 127.0.0.1 (ephemeral port):
//! plays a list of assistant turns (text or tool calls) as streaming SSE or JSON, picks
//! the turn from the number of assistant messages in the request (so retries replay the
//! same turn), and logs every request body.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::{Value, json};

pub struct Mock {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Value>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Mock {
    /// Serves `turns` until dropped.
    pub fn start(turns: Vec<Value>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, halt) = (Arc::clone(&requests), Arc::clone(&stop));
        let turns = Arc::new(turns);
        let ids = Arc::new(AtomicUsize::new(0));
        let thread = std::thread::spawn(move || {
            while !halt.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (log, turns, ids) =
                            (Arc::clone(&log), Arc::clone(&turns), Arc::clone(&ids));
                        std::thread::spawn(move || serve(stream, &turns, &log, &ids));
                    }
                    Err(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
                }
            }
        });
        Self {
            port,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    /// Every request body so far, as one string (injected text can sit anywhere in it).
    pub fn bodies(&self) -> String {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(stream: TcpStream, turns: &[Value], log: &Mutex<Vec<Value>>, ids: &AtomicUsize) {
    let _ = stream.set_nonblocking(false);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    // One request per connection (we answer `Connection: close`).
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_string();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let (status, content_type, payload) = answer(&path, &body, turns, ids);
    log.lock()
        .unwrap()
        .push(json!({ "path": path, "body": body }));
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nrequest-id: req_mock\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    let _ = writer.write_all(head.as_bytes());
    let _ = writer.write_all(&payload);
    let _ = writer.flush();
}

fn answer(
    path: &str,
    body: &Value,
    turns: &[Value],
    ids: &AtomicUsize,
) -> (&'static str, &'static str, Vec<u8>) {
    let path = path.split('?').next().unwrap_or(path);
    if path == "/v1/messages/count_tokens" {
        return (
            "200 OK",
            "application/json",
            json!({"input_tokens": 100}).to_string().into_bytes(),
        );
    }
    if path == "/v1/responses" {
        return responses(body, turns, ids);
    }
    if path == "/v1/models" {
        return (
            "200 OK",
            "application/json",
            json!({"models": [], "data": []}).to_string().into_bytes(),
        );
    }
    if path != "/v1/messages" {
        return (
            "404 Not Found",
            "application/json",
            json!({"type": "error", "error": {"type": "not_found_error", "message": "mock"}})
                .to_string()
                .into_bytes(),
        );
    }
    let main = body
        .get("tools")
        .is_some_and(|t| t.as_array().is_some_and(|a| !a.is_empty()));
    let assistants = body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
    let turn = if main {
        turns.get(assistants).cloned()
    } else {
        None
    };
    let mut content = Vec::new();
    let mut stop = "end_turn";
    match turn {
        Some(t) => {
            if let Some(text) = t.get("text").and_then(Value::as_str) {
                content.push(json!({"type": "text", "text": text}));
            }
            if let Some(tool) = t.get("tool").and_then(Value::as_str) {
                let id = format!("toolu_mock_{:06}", ids.fetch_add(1, Ordering::Relaxed));
                content
                    .push(json!({"type": "tool_use", "id": id, "name": tool, "input": t["input"]}));
                stop = "tool_use";
            }
        }
        None => content.push(json!({"type": "text", "text": if main { "done" } else { "ok" }})),
    }
    let message = json!({
        "id": format!("msg_mock_{:06}", ids.fetch_add(1, Ordering::Relaxed)),
        "type": "message", "role": "assistant",
        "model": body.get("model").cloned().unwrap_or(json!("claude-sonnet-4-5")),
        "content": content, "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": 1000, "output_tokens": 25, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    });
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        return (
            "200 OK",
            "text/event-stream; charset=utf-8",
            sse(&message).into_bytes(),
        );
    }
    (
        "200 OK",
        "application/json",
        message.to_string().into_bytes(),
    )
}

/// OpenAI's Responses API (what Codex calls), streamed: the turn is picked by the number
/// of tool outputs in the request, so each call's answer leads to the next turn.
fn responses(
    body: &Value,
    turns: &[Value],
    ids: &AtomicUsize,
) -> (&'static str, &'static str, Vec<u8>) {
    let done = body["input"].as_array().map_or(0, |items| {
        items
            .iter()
            .filter(|i| {
                matches!(
                    i["type"].as_str(),
                    Some("function_call_output" | "custom_tool_call_output")
                )
            })
            .count()
    });
    let n = ids.fetch_add(1, Ordering::Relaxed);
    let item = match turns.get(done) {
        Some(t) if t.get("tool").is_some() => {
            let mut item = json!({
                "type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
                "name": t["tool"], "arguments": t["input"].to_string(),
            });
            if let Some(ns) = t.get("namespace") {
                item["namespace"] = ns.clone();
            }
            item
        }
        t => json!({
            "type": "message", "role": "assistant", "id": format!("msg_{n}"),
            "content": [{"type": "output_text", "text": t.and_then(|t| t["text"].as_str()).unwrap_or("done")}],
        }),
    };
    let id = format!("resp_{n}");
    let usage = json!({"input_tokens": 10, "input_tokens_details": null, "output_tokens": 5, "output_tokens_details": null, "total_tokens": 15});
    let mut out = event(
        "response.created",
        &json!({"type": "response.created", "response": {"id": id}}),
    );
    out += &event(
        "response.output_item.done",
        &json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
    );
    out += &event(
        "response.completed",
        &json!({"type": "response.completed", "response": {"id": id, "usage": usage}}),
    );
    ("200 OK", "text/event-stream", out.into_bytes())
}

fn event(name: &str, data: &Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// A complete message as the streaming API's event sequence.
fn sse(message: &Value) -> String {
    let mut head = message.clone();
    head["content"] = json!([]);
    head["stop_reason"] = Value::Null;
    let mut out = event(
        "message_start",
        &json!({"type": "message_start", "message": head}),
    );
    out += &event("ping", &json!({"type": "ping"}));
    for (i, block) in message["content"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if block["type"] == "text" {
            out += &event(
                "content_block_start",
                &json!({"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}),
            );
            out += &event(
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": block["text"]}}),
            );
        } else {
            out += &event(
                "content_block_start",
                &json!({"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}),
            );
            out += &event(
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": block["input"].to_string()}}),
            );
        }
        out += &event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": i}),
        );
    }
    out += &event(
        "message_delta",
        &json!({"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": null}, "usage": {"output_tokens": 25}}),
    );
    out += &event("message_stop", &json!({"type": "message_stop"}));
    out
}
