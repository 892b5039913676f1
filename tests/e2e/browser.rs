//! The review screen in a real browser: headless Chromium (Debian's package; `.ci/run`
//! installs it where it can) loads each page of a running `homunculus ui`, the rendered
//! DOM is checked for the items the page must show, and a screenshot is taken. Skipped
//! with a message where no Chromium exists.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{World, homunculus};

fn chromium() -> Option<PathBuf> {
    super::program(
        "CHROMIUM_BIN",
        &["chromium", "chromium-browser", "google-chrome"],
    )
}

/// Runs headless Chromium on `url` with `what` (`--dump-dom`, `--screenshot=...`).
fn browse(chromium: &Path, profile: &Path, what: &str, url: &str) -> String {
    let out = Command::new("timeout")
        .arg("60")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1280,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(what)
        .arg(url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium {what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn each_page_renders_in_a_real_browser() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no Chromium (apt-get install chromium, or set CHROMIUM_BIN)");
        return;
    };
    let world = World::new();
    world.ours(&["init"]);
    let memory = world.memory();
    std::fs::write(
        memory.join("instincts/personal/testing-use-nextest.md"),
        "---\ntrigger: \"when running the tests of the ledger\"\naction: \"use cargo nextest run; cargo test misses the integration harness\"\nconfidence: 0.8\ndomain: testing\ncreated: 2026-11-01T00:00:00Z\nlast_seen: 2026-11-20T00:00:00Z\nprovenance: user\n---\n\n# Use nextest\n\n## Evidence\n\n- 2026-11-01: the user said \"always use nextest\" (session 7c1e5a2b)\n",
    )
    .unwrap();
    let mut server = homunculus()
        .args(["ui", "--port", "0"])
        .env_clear()
        .env("HOME", &world.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.split_whitespace().last().unwrap().to_string();
    let (base, token) = url.split_once("/?t=").unwrap();
    let profile = world.tmp.join("chromium-profile");
    let shots = world.tmp.join("shots");
    std::fs::create_dir_all(&shots).unwrap();
    for (page, must) in [
        ("/", "waiting for review"),
        ("/inbox", "Use nextest"),
        ("/memory", "testing-use-nextest.md"),
        ("/memory?q=nextest", "cargo nextest run"),
        ("/sessions", "Sessions"),
        ("/injections", "what reached the model"),
        ("/item?id=testing-use-nextest", "the user said"),
    ] {
        let sep = if page.contains('?') { '&' } else { '?' };
        let target = format!("{base}{page}{sep}t={token}");
        let dom = browse(&chromium, &profile, "--dump-dom", &target);
        assert!(dom.contains(must), "{page} lacks {must}:\n{dom}");
        let shot = shots.join(format!("{}.png", page.replace(['/', '?', '=', '&'], "_")));
        browse(
            &chromium,
            &profile,
            &format!("--screenshot={}", shot.display()),
            &target,
        );
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(size > 5_000, "{page}: screenshot of {size} bytes");
    }
    let _ = server.kill();
    let _ = server.wait();
}
