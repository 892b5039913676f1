//! Recall's selection over a real index: project scoping, what is never advice, and the
//! memories tied to a file.

use super::*;
use crate::index;
use crate::testutil::Memory;

const LIMITS: StartLimits = StartLimits {
    all_up_to: 30,
    top: 15,
    convictions: 10,
};

fn names(items: &[Item]) -> Vec<&str> {
    items.iter().map(|i| i.name.as_str()).collect()
}

/// What prompt recall brings for `text` in `project`: up to three items, nothing used yet.
fn recalled(m: &Memory, project: &str, text: &str) -> Vec<Item> {
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let reader = idx.reader().unwrap();
    let usage = crate::memory::usage::Usage::default();
    let ctx = PromptContext {
        project,
        touched: &[],
        exclude: &[],
        max_items: 3,
        now: m.now.timestamp(),
        usage: &usage,
        prose: None,
    };
    prompt(&idx, &reader, text, &ctx).unwrap()
}

#[test]
fn session_start_shows_this_project_and_global_advice_only() {
    let m = Memory::new();
    let (t0, t1) = ("2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z");
    m.instinct("testing-global", 0.6, t0, t1, "");
    m.instinct("testing-ours", 0.7, t0, t1, "project: ledger\n");
    m.instinct("testing-theirs", 0.8, t0, t1, "project: storefront\n");
    m.instinct(
        "testing-promoted",
        0.8,
        t0,
        t1,
        "project: ledger\npromoted: true\n",
    );
    m.instinct(
        "testing-disputed",
        0.2,
        t0,
        t1,
        "project: ledger\ndisputed: true\n",
    );
    m.write(
        "convictions/always-rebase.md",
        "---\nname: always-rebase\naction: \"rebase, never merge, onto main\"\ndomain: git\n---\n",
    );
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let reader = idx.reader().unwrap();
    let usage = crate::memory::usage::Usage::default();
    let start = session_start(
        &idx,
        &reader,
        &StartContext {
            project: "ledger",
            words: &[],
            exclude_session: None,
            limits: LIMITS,
            now: m.now.timestamp(),
            usage: &usage,
        },
    )
    .unwrap();
    assert_eq!(names(&start.instincts), ["testing-ours", "testing-global"]);
    assert_eq!(names(&start.convictions), ["always-rebase"]);
    assert_eq!(start.eligible_instincts, 2);
}

#[test]
fn path_triggers_match_globs_relative_or_absolute() {
    let m = Memory::new();
    let (t0, t1) = ("2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z");
    m.instinct(
        "architecture-schema",
        0.6,
        t0,
        t1,
        "paths: [\"src/schema/**\"]\n",
    );
    m.instinct(
        "architecture-migrations",
        0.5,
        t0,
        t1,
        "paths: [\"migrations/*.sql\"]\n",
    );
    m.instinct("testing-nothing", 0.9, t0, t1, "");
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let reader = idx.reader().unwrap();
    let now = m.now.timestamp();
    let hit = files::for_path(
        &idx,
        &reader,
        "src/schema/amounts.rs",
        "/r/src/schema/amounts.rs",
        now,
    )
    .unwrap();
    assert_eq!(names(&hit), ["architecture-schema"]);
    let sql = files::for_path(
        &idx,
        &reader,
        "migrations/001_init.sql",
        "/r/migrations/001_init.sql",
        now,
    )
    .unwrap();
    assert_eq!(names(&sql), ["architecture-migrations"]);
    let none = files::for_path(&idx, &reader, "README.md", "/r/README.md", now).unwrap();
    assert!(none.is_empty());
}

#[test]
fn an_item_sent_often_and_never_used_ranks_below_its_peers() {
    let m = Memory::new();
    for (name, extra) in [("compose-up", "detached"), ("compose-logs", "follow")] {
        m.write(
            &format!("instincts/personal/{name}.md"),
            &format!(
                "---\ntrigger: \"when starting the docker compose services\"\naction: \"run docker compose {extra}\"\nconfidence: 0.7\ndomain: docker\n---\n"
            ),
        );
    }
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let reader = idx.reader().unwrap();
    let recall = |usage: &crate::memory::usage::Usage| {
        let ctx = PromptContext {
            project: "ledger",
            touched: &[],
            exclude: &[],
            max_items: 1,
            now: m.now.timestamp(),
            usage,
            prose: None,
        };
        let items = prompt(&idx, &reader, "start the docker compose services", &ctx).unwrap();
        items.into_iter().map(|i| i.id).collect::<Vec<_>>()
    };
    let fresh = recall(&Default::default());
    assert_eq!(fresh.len(), 1);
    let mut usage = crate::memory::usage::Usage::default();
    let ignored = crate::memory::usage::Counts {
        injected: 40,
        listed: 0,
        used: 0,
        blind: false,
    };
    usage.items.insert(fresh[0].clone(), ignored);
    let after = recall(&usage);
    assert_eq!(after.len(), 1);
    assert_ne!(after, fresh, "the ignored item gives way");
}

#[test]
fn a_slip_of_one_letter_finds_the_word_the_memory_has() {
    let known = |w: &str| -> u64 {
        match w {
            "clippi" => 3,
            "local" => 5,
            "receiv" => 1,
            "card" => 9,
            _ => 0,
        }
    };
    let fix = |w: &str| prompt::typo_fix(w, &known).map(|(w, _)| w);
    assert_eq!(
        fix("clipi").as_deref(),
        Some("clippi"),
        "a letter not doubled"
    );
    assert_eq!(fix("locali").as_deref(), Some("local"), "a letter too many");
    assert_eq!(
        fix("reciev").as_deref(),
        Some("receiv"),
        "two letters swapped"
    );
    assert_eq!(
        fix("cart"),
        None,
        "short words are one slip from too many others"
    );
    assert_eq!(fix("kubernetes"), None, "nothing close: nothing");
    assert_eq!(fix("e0502x"), None, "codes are not words");
}

#[test]
fn session_start_lists_an_instinct_sent_often_and_never_acted_on_after_the_rest() {
    let m = Memory::new();
    let (t0, t1) = ("2026-02-01T00:00:00Z", "2026-02-28T00:00:00Z");
    m.instinct("testing-ignored", 0.7, t0, t1, "project: ledger\n");
    m.instinct("testing-heeded", 0.6, t0, t1, "project: ledger\n");
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let reader = idx.reader().unwrap();
    let listed = |usage: &crate::memory::usage::Usage| {
        let ctx = StartContext {
            project: "ledger",
            words: &[],
            exclude_session: None,
            limits: LIMITS,
            now: m.now.timestamp(),
            usage,
        };
        let start = session_start(&idx, &reader, &ctx).unwrap();
        names(&start.instincts)
            .into_iter()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let mut usage = crate::memory::usage::Usage::default();
    assert_eq!(listed(&usage), ["testing-ignored", "testing-heeded"]);
    usage.items.insert(
        "instincts/personal/testing-ignored.md".into(),
        crate::memory::usage::Counts {
            injected: 20,
            ..Default::default()
        },
    );
    assert_eq!(listed(&usage), ["testing-heeded", "testing-ignored"]);
}

#[test]
fn a_word_every_session_summary_says_still_finds_the_one_lesson_about_it() {
    let m = Memory::new();
    // Early on a memory is mostly session summaries: fifty of them say `nix flake`.
    for n in 0..50 {
        m.write(
            &format!("sessions/2026-01-{:02}T10{n:02}00Z-{n:08x}.md", n % 28 + 1),
            &format!(
                "---\ntype: session\ndate: 2026-01-01T10:00:00Z\nproject: \"conf\"\n---\n\n# Nix flake work {n}\n\n## Summary\n\nEdited the nix flake of host {n}; made sure nix flake check passes.\n"
            ),
        );
    }
    m.write(
        "episodes/2026-01-20-git-add-before-nix-flake-check.md",
        "---\ndate: 2026-01-20\ntype: episode\nproject: \"conf\"\ntags: [\"tooling\"]\noccurrences: 1\nprovenance: model\n---\n\n# git add before nix flake check\n\nWhen `nix flake check` fails with \"error: Path 'flake.nix' is not tracked by Git\": run `git add flake.nix` first, then `nix flake check` again\n",
    );
    let items = recalled(&m, "conf", "make sure nix flake check passes on the host");
    assert_eq!(
        names(&items),
        ["2026-01-20-git-add-before-nix-flake-check"],
        "the summaries, which this prompt cannot bring, do not make its words common"
    );
}

#[test]
fn an_episode_of_no_project_holds_everywhere_a_session_of_none_does_not() {
    let m = Memory::new();
    m.write(
        "episodes/2026-03-23-list-files-by-pattern-with-the-glob-tool.md",
        "---\ndate: 2026-03-23\ntype: episode\nproject: \"unknown\"\ntags: [\"tooling\"]\noccurrences: 2\nprovenance: model\n---\n\n# list files by pattern with the Glob tool\n\nWhen about to use a wildcard in a shell command: list files by pattern with the Glob tool or `find`: the Bash tool's shell is zsh, where a glob that matches nothing is an error (\"no matches found\")\n",
    );
    m.write(
        "sessions/2026-03-24T100000Z-0000abcd.md",
        "---\ntype: session\ndate: 2026-03-24T10:00:00Z\nproject: \"unknown\"\n---\n\n# Glob tidy-up in the home folder\n\n## Summary\n\nListed files by glob with zsh; no matches found for *.mov.\n",
    );
    let text = "what did we do last time? the zsh glob says no matches found for the mov files";
    let items = recalled(&m, "site", text);
    assert_eq!(
        names(&items),
        ["2026-03-23-list-files-by-pattern-with-the-glob-tool"],
        "{items:?}"
    );
}

#[test]
fn a_quoted_stopword_or_a_count_is_no_keyword() {
    let m = Memory::new();
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let words = crate::index::search::query_words(
        &idx,
        "suggest a format that isn't just 'what went well / what didn't', two short paragraphs",
    );
    for said_nothing in ["what", "two", "didn"] {
        assert!(!words.iter().any(|w| w == said_nothing), "{words:?}");
    }
    assert!(words.iter().any(|w| w == "format"), "{words:?}");
}

#[test]
fn a_query_reads_past_a_long_preamble() {
    let m = Memory::new();
    let (idx, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    let preamble: Vec<String> = (0..120).map(|n| format!("step{n}word")).collect();
    let text = format!("{} ECONNREFUSED reconciler", preamble.join(" "));
    let words = crate::index::search::query_words(&idx, &text);
    assert!(
        words.iter().any(|w| w == "reconcil"),
        "{:?}",
        &words[words.len().saturating_sub(3)..]
    );
}
