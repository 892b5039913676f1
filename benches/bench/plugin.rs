//! `cargo bench --bench bench -- plugin`: what one hook costs by each wiring, as Claude
//! Code starts it. settings.json hooks are shell strings (`sh -c '<bin> hook …'`); the
//! repository plugin's are exec form through its launcher script (sh, then exec); the
//! plugin `init --plugin` writes calls the binary directly.

use std::path::Path;
use std::process::Command;

use super::{BIN, NOW, measure_with_input, ms, percentile};

const RUNS: usize = 100;

/// Builds the command of one wiring, ready to run.
type Wiring<'a> = (&'static str, Box<dyn Fn() -> Command + 'a>);

pub fn run() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("homunculus")).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let launcher = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/bin/homunculus-hook");
    let with_env = |mut cmd: Command| {
        cmd.env_clear()
            .env("HOME", &home)
            .env("HOMUNCULUS_NOW", NOW)
            .env("PATH", &path)
            .stdout(std::process::Stdio::null());
        cmd
    };
    let init = with_env(Command::new(BIN)).arg("init").status().unwrap();
    assert!(init.success());
    let payload = format!(
        r#"{{"session_id":"bench-plugin","transcript_path":"/tmp/t.jsonl","cwd":"{}","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cargo build"}},"tool_response":{{"stdout":"ok"}},"tool_use_id":"t1"}}"#,
        home.display()
    );
    let wirings: [Wiring; 3] = [
        (
            "settings.json (sh -c, shell form)",
            Box::new(|| {
                let mut c = Command::new("sh");
                c.args(["-c", &format!("'{BIN}' hook post-tool-use")]);
                with_env(c)
            }),
        ),
        (
            "repository plugin (exec form, launcher)",
            Box::new(|| {
                let mut c = Command::new(&launcher);
                c.args(["hook", "post-tool-use"]);
                with_env(c)
            }),
        ),
        (
            "init --plugin (exec form, the binary)",
            Box::new(|| {
                let mut c = Command::new(BIN);
                c.args(["hook", "post-tool-use"]);
                with_env(c)
            }),
        ),
    ];
    println!("| wiring | post-tool-use median | p95 |");
    println!("| --- | ---: | ---: |");
    for (name, make) in &wirings {
        let mut times: Vec<f64> = (0..RUNS)
            .map(|_| ms(measure_with_input(make(), Some(payload.as_bytes())).wall))
            .collect();
        println!(
            "| {name} | {:.2} ms | {:.2} ms |",
            percentile(&mut times.clone(), 0.5),
            percentile(&mut times, 0.95)
        );
    }
}
