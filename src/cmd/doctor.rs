//! `homunculus doctor`: is everything wired and healthy? One line per check, `ok`,
//! `warn` or `FAIL`; exit 1 when any check fails.

use std::fmt::Write;
use std::os::unix::fs::PermissionsExt;

use anyhow::{Result, bail};

use super::{Ctx, binary_path, print};
use crate::settings::{self, HOOKS};
use crate::{index, layout};

#[derive(PartialEq)]
enum Level {
    Ok,
    Warn,
    Fail,
}

pub fn run(ctx: &Ctx) -> Result<()> {
    let mut out = String::new();
    let mut failed = 0;
    let mut check = |level: Level, what: String| {
        let tag = match level {
            Level::Ok => "ok  ",
            Level::Warn => "warn",
            Level::Fail => {
                failed += 1;
                "FAIL"
            }
        };
        let _ = writeln!(out, "{tag}  {what}");
    };
    let bin = binary_path()?;
    let settings_file = ctx.paths.claude_settings();
    match settings::read(&settings_file) {
        Ok(s) => {
            let events = settings::installed_events(&s, &bin);
            if events.len() == HOOKS.len() {
                check(
                    Level::Ok,
                    format!(
                        "all {} hooks registered in {} for {bin}",
                        HOOKS.len(),
                        settings_file.display()
                    ),
                );
            } else {
                let missing: Vec<&str> = HOOKS
                    .iter()
                    .map(|(e, ..)| *e)
                    .filter(|e| !events.iter().any(|x| x == e))
                    .collect();
                check(
                    Level::Fail,
                    format!(
                        "hooks missing in {} for {bin}: {}; run `homunculus init`",
                        settings_file.display(),
                        missing.join(", ")
                    ),
                );
            }
            let auto_memory_off = s.get("autoMemoryEnabled").and_then(|v| v.as_bool())
                == Some(false)
                || std::env::var("CLAUDE_CODE_DISABLE_AUTO_MEMORY").is_ok_and(|v| v == "1");
            if auto_memory_off {
                check(Level::Ok, "Claude Code's own auto memory is off".into());
            } else {
                check(Level::Warn, "Claude Code's own auto memory is on: both memories compete for context (set \"autoMemoryEnabled\": false to rely on homunculus alone)".into());
            }
        }
        Err(e) => check(Level::Fail, e.to_string()),
    }
    if layout::is_ready(&ctx.paths) {
        check(
            Level::Ok,
            format!("memory folder {}", ctx.paths.root.display()),
        );
        let loose: Vec<String> = walkdir::WalkDir::new(&ctx.paths.root)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| !e.path().starts_with(ctx.paths.root.join(".git")))
            .filter(|e| {
                e.metadata()
                    .is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
            })
            .take(3)
            .map(|e| e.path().display().to_string())
            .collect();
        if loose.is_empty() {
            check(Level::Ok, "permissions: folders 0700, files 0600".into());
        } else {
            check(
                Level::Warn,
                format!("readable by others: {}", loose.join(", ")),
            );
        }
        match index::resilient(&ctx.paths, ctx.now.timestamp(), |idx| {
            Ok(idx.reader()?.searcher().num_docs())
        }) {
            Ok((docs, report)) if report.rebuilt => check(
                Level::Warn,
                format!("search index was damaged and has been rebuilt ({docs} documents)"),
            ),
            Ok((docs, _)) => check(
                Level::Ok,
                format!("search index: {docs} documents, in step with the files"),
            ),
            Err(e) => check(Level::Fail, format!("search index: {e}")),
        }
    } else {
        check(
            Level::Fail,
            format!(
                "no memory folder at {}; run `homunculus init`",
                ctx.paths.root.display()
            ),
        );
    }
    print(&out)?;
    if failed > 0 {
        bail!("{failed} check(s) failed");
    }
    Ok(())
}
