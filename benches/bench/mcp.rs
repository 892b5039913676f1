//! `cargo bench --bench bench -- mcp [1k 10k 100k]`: the MCP server's `search` as the
//! model sees it, one JSON-RPC round trip on stdio to a server already running on a
//! generated corpus (the index open, brought up to date before each call).

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Instant;

use super::{QUERIES, command, corpus_home, ms, percentile};

const CALLS: usize = 200;

pub fn run(sizes: &[usize]) {
    println!("| items | MCP search median | p95 | first call (opens the index) |");
    println!("| ---: | ---: | ---: | ---: |");
    for &items in sizes {
        let home = corpus_home(items);
        let project = home.join("src/ledger-svc");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let mut cmd = command(&home, &["mcp"]);
        cmd.current_dir(&project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        let mut child = cmd.spawn().expect("start homunculus mcp");
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let mut ask = |message: String, answer: bool| {
            writeln!(stdin, "{message}").unwrap();
            stdin.flush().unwrap();
            if answer {
                line.clear();
                stdout.read_line(&mut line).unwrap();
                assert!(!line.contains("\"error\""), "{line}");
            }
        };
        ask(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#.into(), true);
        ask(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
            false,
        );
        let search = |id: usize, q: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"search","arguments":{{"query":"{q}"}}}}}}"#
            )
        };
        let started = Instant::now();
        ask(search(1, "warmup"), true);
        let first = ms(started.elapsed());
        let mut times: Vec<f64> = (0..CALLS)
            .map(|n| {
                let started = Instant::now();
                ask(search(n + 2, QUERIES[n % QUERIES.len()]), true);
                ms(started.elapsed())
            })
            .collect();
        drop(stdin);
        let _ = child.wait();
        println!(
            "| {items} | {:.2} ms | {:.2} ms | {:.0} ms |",
            percentile(&mut times.clone(), 0.5),
            percentile(&mut times, 0.95),
            first
        );
    }
}
