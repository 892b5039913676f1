//! `homunculus ui`: the review screen over real HTTP (a plain TCP client, one request per
//! connection): the token and Host checks, escaping of hostile memory text, the accept,
//! edit and reject round trips through the lossless editor, and a rejection that a
//! replay does not undo.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

use crate::common::{TestEnv, changed_lines, fixture};

/// A running review screen.
struct Screen {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status and body of one response.
struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Screen {
    fn start(env: &TestEnv) -> Self {
        let mut child = env
            .spawnable()
            .args(["ui", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.split_whitespace().last().unwrap().to_string();
        let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
        let (port, query) = rest.split_once("/?t=").unwrap();
        Self {
            child,
            port: port.parse().unwrap(),
            token: query.to_string(),
        }
    }

    fn send(&self, method: &str, target: &str, host: &str, body: &str) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            stream,
            "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        Reply {
            status: head.split_whitespace().nth(1).unwrap().parse().unwrap(),
            head: head.to_string(),
            body: body.to_string(),
        }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn get(&self, path: &str) -> Reply {
        let sep = if path.contains('?') { '&' } else { '?' };
        self.send(
            "GET",
            &format!("{path}{sep}t={}", self.token),
            &self.host(),
            "",
        )
    }

    fn post(&self, path: &str, form: &str) -> Reply {
        self.send(
            "POST",
            &format!("{path}?t={}", self.token),
            &self.host(),
            form,
        )
    }
}

fn ready() -> TestEnv {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    env
}

#[test]
fn every_request_needs_the_token_and_this_host() {
    let env = ready();
    let screen = Screen::start(&env);
    assert_eq!(screen.token.len(), 32);
    assert_eq!(screen.get("/").status, 200);
    let host = screen.host();
    for (target, host) in [
        ("/".to_string(), host.as_str()),
        (
            "/?t=00000000000000000000000000000000".to_string(),
            host.as_str(),
        ),
        (format!("/?t={}", screen.token), "evil.example"),
        (format!("/?t={}", screen.token), "127.0.0.1:1"),
    ] {
        let reply = screen.send("GET", &target, host, "");
        assert_eq!(reply.status, 403, "{target} as {host}");
    }
    // Changes come only by POST, with the token.
    assert_eq!(screen.get("/accept").status, 405);
    let no_token = screen.send("POST", "/accept", &host, "id=testing-use-nextest");
    assert_eq!(no_token.status, 403);
    let ok = screen.get("/");
    assert!(
        ok.head
            .to_ascii_lowercase()
            .contains("content-security-policy: default-src 'none'")
    );
    assert!(
        !ok.head
            .to_ascii_lowercase()
            .contains("access-control-allow-origin")
    );
}

#[test]
fn every_page_shows_its_items_and_escapes_memory_text() {
    let env = ready();
    fs::write(
        env.instinct("tooling-hostile"),
        "---\ntrigger: \"when <img src=x onerror=alert(1)> appears\"\naction: \"<script>alert('owned')</script> & run make\"\nconfidence: 0.7\ndomain: tooling\ncreated: 2026-02-19T00:00:00Z\nlast_seen: 2026-02-19T00:00:00Z\n---\n\n# <u>under</u> title\n\n## Evidence\n\n- <iframe src=//evil>\n",
    )
    .unwrap();
    let screen = Screen::start(&env);
    for (path, must) in [
        ("/", "instincts"),
        ("/inbox", "Use nextest"),
        ("/memory", "testing-use-nextest.md"),
        ("/memory?q=nextest", "cargo nextest run"),
        ("/sessions", "ledger-svc"),
        ("/injections", "Injections"),
        ("/item?id=testing-use-nextest", "## Evidence"),
    ] {
        let page = screen.get(path);
        assert_eq!(page.status, 200, "{path}");
        assert!(page.body.contains(must), "{path} lacks {must}");
        for raw in ["<script>alert", "<img src=x", "<iframe", "<u>"] {
            assert!(!page.body.contains(raw), "{path} shows {raw} unescaped");
        }
    }
    fs::copy(
        fixture("broken/testing-bad-confidence.md"),
        env.instinct("testing-bad-confidence"),
    )
    .unwrap();
    let inbox = screen.get("/inbox").body;
    assert!(
        inbox.contains("testing-bad-confidence.md:"),
        "a broken file is shown with its line"
    );
    assert!(
        inbox.contains("&#60;script&#62;alert(&#39;owned&#39;)&#60;/script&#62; &#38; run make"),
        "{inbox}"
    );
    assert_eq!(screen.get("/item?id=../../identity.json").status, 404);
    let git_only = screen.get("/memory?domain=git").body;
    assert!(
        git_only.contains("git-autostash") && !git_only.contains("testing-use-nextest"),
        "{git_only}"
    );
}

#[test]
fn accept_edit_and_reject_change_only_their_lines() {
    let env = ready();
    let screen = Screen::start(&env);
    let path = env.instinct("testing-use-nextest");
    let before = fs::read_to_string(&path).unwrap();
    let accepted = screen.post(
        "/accept",
        "id=instincts%2Fpersonal%2Ftesting-use-nextest.md",
    );
    assert_eq!(accepted.status, 303, "{}", accepted.body);
    let after = fs::read_to_string(&path).unwrap();
    assert_eq!(
        changed_lines(&before, &after),
        (vec![], vec!["confirmed_by: user".to_string()])
    );
    assert!(
        !screen.get("/inbox").body.contains("testing-use-nextest.md"),
        "an accepted item leaves the inbox"
    );

    let git = env.instinct("git-autostash");
    let before = fs::read_to_string(&git).unwrap();
    let edited = screen.post(
        "/edit",
        "id=git-autostash&trigger=when+pulling+with+local+changes&action=use+git+pull+--rebase+--autostash%2C+then+run+the+tests",
    );
    assert_eq!(edited.status, 303, "{}", edited.body);
    let (removed, added) = changed_lines(&before, &fs::read_to_string(&git).unwrap());
    assert_eq!(removed.len(), 2, "{removed:?}");
    assert_eq!(
        added,
        [
            "trigger: \"when pulling with local changes\"",
            "action: \"use git pull --rebase --autostash, then run the tests\"",
            "confirmed_by: user"
        ]
    );
    // Destructive advice is refused, from the user as from the observer.
    let refused = screen.post(
        "/edit",
        "id=git-autostash&trigger=when+stuck&action=run+rm+-rf+~+and+start+over",
    );
    assert_eq!(refused.status, 422);

    let rejected = screen.post("/reject", "id=debugging-check-env-first");
    assert_eq!(rejected.status, 303);
    let text = env.read("instincts/personal/debugging-check-env-first.md");
    assert!(text.contains("retired: true"), "{text}");
    assert!(
        !screen
            .get("/memory?q=environment")
            .body
            .contains("debugging-check-env-first")
    );
}

#[test]
fn a_rejected_lesson_stays_rejected_through_a_replay() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let project = env.project().display().to_string();
    let copy = |to: &std::path::Path, from_id: &str, to_id: &str| {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(fixture("codex/sessions/2026/11/20"))
            .unwrap()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().replace(from_id, to_id);
            let text = fs::read_to_string(entry.path())
                .unwrap()
                .replace("$PROJECT", &project)
                .replace(from_id, to_id);
            fs::write(to.join(name), text).unwrap();
        }
    };
    let first = env.home.join("history/1");
    copy(&first, "1111", "1111");
    env.run(&["replay", &first.display().to_string()]).success();
    let learned = env.instinct("testing-make-check-instead-of-make-test");
    assert!(learned.exists());
    let screen = Screen::start(&env);
    let reply = screen.post("/reject", "id=testing-make-check-instead-of-make-test");
    assert_eq!(reply.status, 303);
    drop(screen);
    let rejected = fs::read_to_string(&learned).unwrap();
    // The same lesson in other sessions: replayed, it is recognised and left alone.
    let second = env.home.join("history/2");
    copy(&second, "1111", "2222");
    let out = env.run(&["replay", &second.display().to_string()]);
    out.success();
    assert_eq!(fs::read_to_string(&learned).unwrap(), rejected, "{out}");
    let status = env.run(&["status"]);
    assert!(!status.stdout.contains("make-check"), "{status}");
    let mut other = fs::read_dir(env.memory().join("instincts/personal"))
        .unwrap()
        .flatten()
        .map(|e| fs::read_to_string(e.path()).unwrap());
    assert!(
        other.all(|t| t.contains("retired: true") || !t.contains("make check")),
        "the lesson came back under another name"
    );
}
