//! `homunculus doctor`: is everything wired and healthy? One line per check, `ok`,
//! `warn` or `FAIL`; exit 1 when any check fails.

use std::fmt::Write;
use std::os::unix::fs::PermissionsExt;

use anyhow::{Result, bail};

mod codex;
mod mcp;

use super::{Ctx, binary_path, print};
use crate::agent::hook_event::HookEvent;
use crate::index;
use crate::memory::identity;
use crate::setup::layout;
use crate::setup::settings::{self, SettingsFile};

#[derive(PartialEq)]
enum Level {
    Ok,
    Warn,
    Fail,
}

/// Runs the registered hook commands the way Claude Code does (through the shell, the
/// payload on stdin) against a scratch memory folder: a session start, a tool call and a
/// stop. Offline and cheap; the user's memory is not touched.
fn self_test(bin: &str) -> std::result::Result<(), String> {
    use std::io::Write;
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = scratch.path().join("memory");
    let cwd = scratch.path().display().to_string();
    let steps = [
        (
            "session-start",
            format!(
                r#"{{"session_id":"doctor-self-test","cwd":"{cwd}","hook_event_name":"SessionStart","source":"startup"}}"#
            ),
        ),
        (
            "post-tool-use",
            format!(
                r#"{{"session_id":"doctor-self-test","cwd":"{cwd}","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cargo build"}},"tool_response":{{"stdout":"ok"}}}}"#
            ),
        ),
        (
            "stop",
            format!(
                r#"{{"session_id":"doctor-self-test","cwd":"{cwd}","hook_event_name":"Stop","stop_hook_active":false}}"#
            ),
        ),
    ];
    for (event, payload) in steps {
        let command = settings::hook_command(bin, event);
        let mut child = std::process::Command::new("sh")
            .args(["-c", &command])
            .env("HOMUNCULUS_DIR", &root)
            .env_remove("HOMUNCULUS_OBSERVER")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run `{command}`: {e}"))?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(payload.as_bytes());
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!("`{command}` exited with {}", out.status));
        }
        if !stdout.trim().is_empty() && serde_json::from_str::<serde_json::Value>(&stdout).is_err()
        {
            return Err(format!(
                "`{command}` printed something that is not protocol JSON"
            ));
        }
    }
    let recorded = std::fs::read_to_string(root.join("observations/doctor-self-test.jsonl"))
        .unwrap_or_default();
    let summaries = std::fs::read_dir(root.join("sessions")).map_or(0, Iterator::count);
    if recorded.lines().count() != 1 || summaries != 1 {
        return Err(
            "the hooks ran but did not record the tool call and the session summary".into(),
        );
    }
    Ok(())
}

/// Runs every check in the order a user would fix them. A list of checks, long by
/// nature; each is a few lines.
pub fn run(ctx: &Ctx, json: bool) -> Result<()> {
    let mut out = String::new();
    let mut failed = 0;
    let style = ctx.style();
    let mut checks: Vec<(&'static str, String)> = Vec::new();
    let mut check = |level: Level, what: String| {
        let (tag, word) = match level {
            Level::Ok => (style.green("ok  "), "ok"),
            Level::Warn => (style.yellow("warn"), "warn"),
            Level::Fail => {
                failed += 1;
                (style.red("FAIL"), "fail")
            }
        };
        let _ = writeln!(out, "{tag}  {what}");
        checks.push((word, what));
    };
    let bin = binary_path()?;
    claude_code(ctx, &bin, &mut check);
    mcp::check(ctx, &mut check);
    codex::check(ctx, &bin, &mut check);
    memory_folder(ctx, &mut check);
    if json {
        let checks: Vec<serde_json::Value> = checks
            .iter()
            .map(|(level, what)| serde_json::json!({ "level": level, "message": what }))
            .collect();
        let value = serde_json::json!({ "ok": failed == 0, "failed": failed, "checks": checks });
        print(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
    } else {
        print(&out)?;
    }
    if failed > 0 {
        bail!("{failed} check(s) failed");
    }
    Ok(())
}

/// Claude Code's side: our hooks in settings.json (or the plugin), the self-test, and
/// its own auto memory.
fn claude_code(ctx: &Ctx, bin: &str, check: &mut impl FnMut(Level, String)) {
    let settings_file = ctx.paths.claude_settings();
    match SettingsFile::open(&settings_file) {
        Ok((_, s)) => {
            for program in settings::other_copies(&s, bin) {
                check(
                    Level::Warn,
                    format!(
                        "hooks of another copy of homunculus, {program}, are registered in {} too: every event runs twice (`{program} uninstall` removes them)",
                        settings_file.display()
                    ),
                );
            }
            let events = settings::installed_events(&s, bin);
            let plugin = ctx.paths.claude_skills_plugin();
            if crate::setup::plugin::is_ours(&plugin) {
                wired_by_plugin(&plugin, bin, !events.is_empty(), check);
            } else {
                if events.len() == HookEvent::ALL.len() {
                    check(
                        Level::Ok,
                        format!(
                            "all {} hooks registered in {} for {bin}",
                            HookEvent::ALL.len(),
                            settings_file.display()
                        ),
                    );
                    match self_test(bin) {
                        Ok(()) => check(Level::Ok, "self-test: the registered hook commands run, record and answer in protocol JSON (in a scratch folder)".into()),
                        Err(why) => check(Level::Fail, format!("self-test: {why}")),
                    }
                } else {
                    let missing: Vec<&str> = HookEvent::ALL
                        .iter()
                        .map(|e| e.wire_name())
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
            }
            let auto_memory_off = s.get("autoMemoryEnabled").and_then(|v| v.as_bool())
                == Some(false)
                || ctx.env.claude_auto_memory_disabled.as_deref() == Some("1".as_ref());
            if auto_memory_off {
                check(Level::Ok, "Claude Code's own auto memory is off".into());
            } else {
                check(Level::Warn, "Claude Code's own auto memory is on: both memories compete for context (set \"autoMemoryEnabled\": false in ~/.claude/settings.json to rely on homunculus alone)".into());
            }
        }
        Err(e) => check(Level::Fail, e.to_string()),
    }
}

/// The memory folder: present, private, trusted config, identity, git, index.
fn memory_folder(ctx: &Ctx, check: &mut impl FnMut(Level, String)) {
    if layout::is_ready(&ctx.paths) {
        check(
            Level::Ok,
            format!("memory folder {}", ctx.paths.root.display()),
        );
        let command = crate::setup::config::Config::load(&ctx.paths.config())
            .unwrap_or_default()
            .observer
            .llm_command;
        match crate::observer::llm::command_is_trusted(&ctx.paths, &command) {
            Ok(()) => check(
                Level::Ok,
                "config.toml and the memory folder are yours alone: observer.llm_command may run"
                    .into(),
            ),
            Err(why) => check(
                Level::Fail,
                format!("observer.llm_command will not run: {why}"),
            ),
        }
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
        let unreadable = crate::memory::store::Store::new(&ctx.paths).unreadable();
        match unreadable.as_slice() {
            [] => check(Level::Ok, "every memory file parses".into()),
            [first, ..] => check(
                Level::Warn,
                format!(
                    "{} memory file(s) do not parse and are left as they are (first: {first}); `homunculus reindex` lists them",
                    unreadable.len()
                ),
            ),
        }
        identity_check(ctx, check);
        observer_check(ctx, check);
        if index::sync::watch_running(&ctx.paths) {
            check(
                Level::Ok,
                "a watcher keeps the index in step with hand edits".into(),
            );
        } else {
            check(
                Level::Ok,
                "no watcher runs now (the next session start starts one; `index.watch` in config.toml)".into(),
            );
        }
        if let Some(lock) = crate::setup::git::stale_index_lock(&ctx.paths.root) {
            check(
                Level::Warn,
                format!(
                    "{} is left from a git that was killed: commits of the memory fail until it goes (the next commit of ours removes it)",
                    lock.display()
                ),
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
}

/// Wired by `init --plugin`: the plugin's hooks run the same self-test, and settings.json
/// hooks beside it would run every event twice.
fn wired_by_plugin(
    plugin: &std::path::Path,
    bin: &str,
    settings_too: bool,
    check: &mut impl FnMut(Level, String),
) {
    check(
        Level::Ok,
        format!(
            "Claude Code is wired by the plugin at {} (settings.json holds no hooks of ours)",
            plugin.display()
        ),
    );
    if settings_too {
        check(Level::Fail, "settings.json registers our hooks as well: every event runs twice (`homunculus init --plugin` takes them out, `homunculus init` removes the plugin)".into());
    }
    match self_test(bin) {
        Ok(()) => check(
            Level::Ok,
            "self-test: the plugin's hook commands run, record and answer in protocol JSON (in a scratch folder)".into(),
        ),
        Err(why) => check(Level::Fail, format!("self-test: {why}")),
    }
}

/// The observer's last run, from `logs/observer.log`: a run that failed (or whose
/// operations failed) is a warning with its reason.
fn observer_check(ctx: &Ctx, check: &mut impl FnMut(Level, String)) {
    let log = ctx.paths.logs().join("observer.log");
    let Some(tail) = crate::fsutil::read_tail(&log, 16 * 1024) else {
        return;
    };
    let tail = String::from_utf8_lossy(&tail);
    let Some(last_run) = tail
        .lines()
        .rev()
        .find(|l| l.contains(" observed ") || l.contains(" run failed: "))
    else {
        return;
    };
    let errors_after: Vec<&str> = tail
        .lines()
        .skip_while(|l| *l != last_run)
        .skip(1)
        .filter(|l| l.contains(" error: ") || l.contains(" git: "))
        .collect();
    if last_run.contains(" run failed: ") {
        check(
            Level::Warn,
            format!("the observer's last run failed: {last_run}"),
        );
    } else if let Some(first) = errors_after.first() {
        check(
            Level::Warn,
            format!(
                "the observer's last run had {} error(s), first: {first}",
                errors_after.len()
            ),
        );
    } else {
        check(Level::Ok, format!("the observer's last run: {last_run}"));
    }
}

/// `identity.json`: a file that does not parse is a warning (the next hook rebuilds it,
/// nothing stops working), and so is a copy left by a rebuild.
fn identity_check(ctx: &Ctx, check: &mut impl FnMut(Level, String)) {
    match identity::read(&ctx.paths) {
        Ok(identity) => check(
            Level::Ok,
            format!(
                "identity.json: {} sessions counted",
                identity.session_count()
            ),
        ),
        Err(e) => check(
            Level::Warn,
            format!(
                "{e}; the next session or command rebuilds it from the memory's files (a copy is kept)"
            ),
        ),
    }
    let copies = identity::broken_copies(&ctx.paths);
    if let Some(last) = copies.last() {
        check(
            Level::Warn,
            format!(
                "identity.json was rebuilt after it stopped parsing; the broken file is kept at {} (delete it once you have looked)",
                last.display()
            ),
        );
    }
}
