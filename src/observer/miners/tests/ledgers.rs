//! Tests of the miners that count over sessions: co-edits, tool choices, tool slips.

use super::*;

#[test]
fn coedits_need_three_sessions_and_numbered_files_stand_for_their_folder() {
    let roots = |_: &Observation| Some("/src/ledger".to_string());
    let mut ledger = Ledger::default();
    let session = |sid: &str, n: usize| {
        vec![
            edit(sid, "scheduling/models.py"),
            edit(sid, &format!("scheduling/migrations/00{n}_change.py")),
        ]
    };
    assert!(coedits(&[session("s1", 12), session("s2", 13)], &roots, &mut ledger).is_empty());
    // The same session again (a resumed copy) does not count twice.
    assert!(coedits(&[session("s2", 13)], &roots, &mut ledger).is_empty());
    let found = coedits(&[session("s3", 14)], &roots, &mut ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].paths,
        ["scheduling/migrations/*", "scheduling/models.py"]
    );
}

#[test]
fn files_that_change_together_are_one_memory_and_hubs_and_own_tests_are_no_signal() {
    let roots = |_: &Observation| Some("/src/ledger".to_string());
    let mut ledger = Ledger::default();
    let feature = [
        "src/schema.rs",
        "src/db/queries.rs",
        "migrations/0001_x.sql",
    ];
    let mut found = Vec::new();
    for n in 1..=4 {
        let sid = format!("s{n}");
        let mut s: Vec<Observation> = feature.iter().map(|f| edit(&sid, f)).collect();
        s.push(edit(&sid, "CLAUDE.md"));
        found = coedits(&[s], &roots, &mut ledger);
        let tid = format!("t{n}");
        let own = vec![edit(&tid, "src/api.rs"), edit(&tid, "src/api_test.rs")];
        assert!(coedits(&[own], &roots, &mut ledger).is_empty());
    }
    // A hub that changes in every session besides.
    for n in 5..=12 {
        let sid = format!("h{n}");
        found.extend(coedits(
            &[vec![
                edit(&sid, "src/main.rs"),
                edit(&sid, &format!("src/m{n}.rs")),
            ]],
            &roots,
            &mut ledger,
        ));
    }
    let clusters: Vec<&Vec<String>> = found.iter().map(|f| &f.paths).collect();
    assert!(
        clusters
            .iter()
            .any(|p| p.len() == 3 && p.contains(&"src/schema.rs".to_string())),
        "{clusters:?}"
    );
    assert!(
        found.iter().all(|f| !f
            .paths
            .iter()
            .any(|p| p == "CLAUDE.md" || p == "src/main.rs")),
        "{found:?}"
    );
    // The feature is one memory, not six ordered pairs; the file and its test none.
    assert!(
        found
            .iter()
            .all(|f| f.paths != ["src/api.rs", "src/api_test.rs"]),
        "{found:?}"
    );
}

#[test]
fn a_tool_used_consistently_and_the_default_failing_counts_for_it() {
    let mut ledger = Ledger::default();
    let sessions: Vec<Vec<Observation>> = (1..=3)
        .map(|n| {
            let sid = format!("s{n}");
            vec![
                failed(&sid, "cargo test", "thread 'main' panicked: a global default trace dispatcher has already been set"),
                ok(&sid, "cargo nextest run"),
            ]
        })
        .collect();
    let found = choices(&sessions, &mut ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].action.contains("cargo nextest"));
    // Real: claude-code-log runs every Python tool through `uv run` (9 sessions).
    let mut ledger = Ledger::default();
    let uv: Vec<Vec<Observation>> = ["a", "b", "c"]
        .iter()
        .map(|s| {
            vec![
                ok(s, "uv run pytest -m 'not (tui or browser)'"),
                ok(s, "uv run pyright"),
            ]
        })
        .collect();
    let found = choices(&uv, &mut ledger);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .any(|f| f.action.starts_with("use `uv run pytest`")),
        "{found:?}"
    );
    // ruff works bare there too: no rule that it must not.
    let mut ledger = Ledger::default();
    let mixed: Vec<Vec<Observation>> = ["a", "b", "c"]
        .iter()
        .map(|s| vec![ok(s, "uv run ruff check"), ok(s, "ruff format")])
        .collect();
    assert!(choices(&mixed, &mut ledger).is_empty());
}

#[test]
fn the_tools_own_rules_are_learned_only_where_their_message_did_not_teach() {
    let slip = |sid: &str, project: &str, second: u32| {
        let mut o = edit(sid, "src/a.rs");
        o.event = Event::Failure;
        o.outcome = Some(Outcome::ToolError);
        o.error = Some("<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>".into());
        o.project = project.into();
        o.ts = format!("2026-02-20T12:00:{second:02}.000Z");
        o
    };
    // The agent read the file and went on, in session after session: the refusal said
    // what to do and it was done, so there is nothing to remember.
    let mut ledger = Ledger::default();
    let taught: Vec<Vec<Observation>> = ["s1", "s2", "s3", "s4"]
        .iter()
        .map(|s| vec![slip(s, "atlas", 0), edit(s, "src/a.rs")])
        .collect();
    assert!(protocol(&taught, &mut ledger).is_empty());
    // Parallel calls are refused together, before the agent could have read a word.
    let parallel: Vec<Vec<Observation>> = ["p1", "p2", "p3"]
        .iter()
        .map(|s| vec![slip(s, "atlas", 0), slip(s, "atlas", 0)])
        .collect();
    assert!(protocol(&parallel, &mut ledger).is_empty());
    // Refused again on the same file after the message: it did not teach. From the
    // third such session, a memory for everyone.
    let again = |s: &str, p: &str| vec![slip(s, p, 0), slip(s, p, 9), edit(s, "src/a.rs")];
    assert!(protocol(&[again("r1", "ledger")], &mut ledger).is_empty());
    assert!(protocol(&[again("r2", "atlas")], &mut ledger).is_empty());
    let found = protocol(&[again("r3", "atlas")], &mut ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].project, None);
    assert_eq!(found[0].key, "protocol:not-read");
    assert!(
        found[0]
            .action
            .starts_with("open the file with the Read tool")
    );
    assert!(!found[0].title.contains("not been read"));
}

#[test]
fn sudo_without_a_terminal_is_learned_from_sudos_own_words() {
    let denied = |sid: &str, project: &str| {
        let mut o = failed(
            sid,
            "sudo nix-env --list-generations --profile /nix/var/nix/profiles/system",
            "Exit code 1\nsudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper",
        );
        o.project = project.into();
        o
    };
    // A log that quotes sudo mid-line is not sudo speaking.
    let quoted = failed(
        "q1",
        "grep sudo /var/log/auth.log",
        "Exit code 1\nJan 1 host x: pam: sudo: a terminal is required",
    );
    let mut ledger = Ledger::default();
    assert!(
        protocol(
            &[vec![quoted.clone()], vec![denied("s1", "system-conf")]],
            &mut ledger
        )
        .is_empty()
    );
    assert!(protocol(&[vec![quoted]], &mut ledger).is_empty());
    let found = protocol(&[vec![denied("s2", "dotfiles")]], &mut ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].key, "protocol:sudo-password");
    assert_eq!(found[0].project, None);
    assert!(found[0].trigger.contains("sudo"), "{}", found[0].trigger);
    assert!(
        found[0].action.contains("give the user the command"),
        "{}",
        found[0].action
    );
    assert!(
        found[0]
            .evidence
            .contains("said \"sudo: a terminal is required\""),
        "{}",
        found[0].evidence
    );
}

#[test]
fn zsh_aborting_on_an_unmatched_glob_is_learned_from_the_agents_own_shell_only() {
    let nomatch = |sid: &str, project: &str| {
        let mut o = failed(
            sid,
            "ls ~/Downloads/*.{mp4,mov}",
            "Exit code 1 | (eval):1: no matches found: /Users/u/Downloads/*.mov",
        );
        o.project = project.into();
        o
    };
    // Output of a remote zsh reached over ssh says the same words without "(eval)".
    let remote = failed(
        "r1",
        "ssh box 'ls /etc/app/*'",
        "Exit code 1 | zsh: no matches found: /etc/app/*",
    );
    let mut ledger = Ledger::default();
    let sessions = vec![vec![remote.clone()], vec![nomatch("s1", "site")]];
    assert!(protocol(&sessions, &mut ledger).is_empty());
    let again = vec![vec![remote], vec![nomatch("s1", "site")]];
    assert!(protocol(&again, &mut ledger).is_empty());
    // The shell's message does not say what to do: a second session is enough.
    let found = protocol(&[vec![nomatch("s2", "Downloads")]], &mut ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].key, "protocol:zsh-nomatch");
    assert_eq!(found[0].project, None);
    assert!(
        found[0]
            .action
            .starts_with("list files by pattern with the Glob tool")
    );
    assert!(
        found[0].trigger.contains("wildcard"),
        "{}",
        found[0].trigger
    );
    assert!(
        found[0]
            .evidence
            .contains("(session s2; before in session s1)"),
        "{}",
        found[0].evidence
    );
}
