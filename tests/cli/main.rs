//! The one integration-test binary: each module drives the built `homunculus` binary
//! through one command with a temporary HOME and a fixed clock.

// Test and benchmark code sets up files and reads the clock directly; the house rules
// in clippy.toml are for the program.
#![allow(clippy::disallowed_methods)]

mod codex;
mod common;

mod evolve;
mod export_import;
mod feedback;
mod hooks;
mod init;
mod install;
mod layers;
mod mcp;
mod misc;
mod observe;
mod plugin;
mod replay;
mod search;
mod security;
mod status;
mod ui;
mod watch;

/// Fails when a test file in tests/cli is not listed above (it would never run).
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "main") {
            assert!(
                main.contains(&format!("mod {module};")),
                "tests/cli/{name} is not listed in main.rs"
            );
        }
    }
}
