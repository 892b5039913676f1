//! The layering `src/lib.rs` states is true: a module imports only from layers below its
//! own (or from itself), never up and never sideways across one layer, so no two modules
//! form a circle. Reads the source; fails naming the file and the import.

use std::path::Path;

/// Each top-level module's layer, outermost first. Within the primitives (the last
/// layer) any import is fine: they are leaves or near-leaves.
const LAYERS: &[&[&str]] = &[
    &["main", "cmd", "cli"],
    &["hooks", "mcp", "ui"],
    &["ask"],
    &["recall", "observer"],
    &["index", "setup"],
    &["memory"],
    &["agent"],
    &[
        "shell", "env", "paths", "fsutil", "lock", "log", "text", "time", "testutil",
    ],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Whether `from` may import `to`.
fn allowed(from: &str, to: &str) -> bool {
    if from == to || to == "testutil" || (from == "cmd" && to == "cli") {
        return true;
    }
    match (layer(from), layer(to)) {
        (Some(a), Some(b)) => a < b || (a == b && a == LAYERS.len() - 1),
        _ => false,
    }
}

#[test]
fn no_module_imports_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let import = regex::Regex::new(r"crate::([a-z_]+)").unwrap();
    let mut wrong = Vec::new();
    for entry in walkdir::WalkDir::new(&src).into_iter().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let module = first.to_string_lossy().trim_end_matches(".rs").to_string();
        // The crate root declares every module; test helpers set up any layer.
        if module == "lib" || module == "testutil" {
            continue;
        }
        assert!(layer(&module).is_some(), "{module} has no layer in LAYERS");
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for cap in import.captures_iter(line) {
                let to = &cap[1];
                if layer(to).is_some() && !allowed(&module, to) {
                    wrong.push(format!(
                        "src/{}:{}: {module} -> {to}",
                        relative.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
}
