//! `cargo bench --bench bench -- ui [1k 10k]`: each page of the review screen, served by
//! a running `homunculus ui` on a generated corpus, fetched 20 times (one request per
//! connection, as a browser's first load), median.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::Instant;

use super::{command, corpus_home, ms, percentile};

const PAGES: &[&str] = &[
    "/",
    "/inbox",
    "/memory",
    "/memory?q=flaky+integration+test",
    "/sessions",
    "/injections",
];

fn fetch(port: u16, target: &str) -> usize {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{target}: {}",
        String::from_utf8_lossy(&raw[..raw.len().min(200)])
    );
    raw.len()
}

pub fn run(sizes: &[usize]) {
    println!("| items | {} |", PAGES.join(" | "));
    println!("| ---: |{}", " ---: |".repeat(PAGES.len()));
    for &items in sizes {
        let home = corpus_home(items);
        let mut cmd = command(&home, &["ui", "--port", "0"]);
        cmd.stdout(Stdio::piped());
        let mut child = cmd.spawn().expect("start homunculus ui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.split_whitespace().last().unwrap().to_string();
        let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
        let (port, token) = rest.split_once("/?t=").unwrap();
        let port: u16 = port.parse().unwrap();
        let mut row = format!("| {items} |");
        for page in PAGES {
            let sep = if page.contains('?') { '&' } else { '?' };
            let target = format!("{page}{sep}t={token}");
            fetch(port, &target);
            let mut times: Vec<f64> = (0..20)
                .map(|_| {
                    let started = Instant::now();
                    fetch(port, &target);
                    ms(started.elapsed())
                })
                .collect();
            row += &format!(" {:.1} ms |", percentile(&mut times, 0.5));
        }
        println!("{row}");
        let _ = child.kill();
        let _ = child.wait();
    }
}
