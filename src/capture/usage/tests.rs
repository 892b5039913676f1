//! Use detection over real-shaped actions and tool calls, and the rank weight.

use super::*;

fn injected<'a>(action: &'a str, globs: &'a [String], by_path: bool) -> Injected<'a> {
    Injected {
        id: "instincts/personal/x.md",
        action,
        globs,
        by_path,
    }
}

fn used(action: &str, globs: &[String], by_path: bool, touch: Touch) -> bool {
    let mut w = vec![Watch {
        id: "x".into(),
        cues: cues(&injected(action, globs, by_path)),
    }];
    !take_used(&mut w, &touch).is_empty()
}

fn shell(command: &str) -> Touch<'_> {
    Touch {
        command: Some(command),
        ..Touch::default()
    }
}

fn file(path: &str) -> Touch<'_> {
    Touch {
        file: Some(path),
        ..Touch::default()
    }
}

#[test]
fn the_advised_command_counts_and_the_warned_one_does_not() {
    let action = "use `pnpm`, not `npm`: this project uses pnpm consistently";
    assert!(used(
        action,
        &[],
        false,
        shell("pnpm install --frozen-lockfile")
    ));
    assert!(!used(action, &[], false, shell("npm install")));
    // The rule the observer writes from a rejection names the rejected command too.
    let action = "Use pnpm, not npm: the user rejected `npm install` and said \"use pnpm\"";
    assert!(!used(action, &[], false, shell("npm install")));
    assert!(used(action, &[], false, shell("pnpm install")));
    // `npm` inside `pnpm` is not a use of npm, nor of anything else.
    assert!(!used("never `npm` here", &[], false, shell("pnpm i")));
    assert!(used(
        "run `cargo fmt --all` before committing",
        &[],
        false,
        shell("cargo  fmt --all && git commit -m x")
    ));
    assert!(!used(
        "run `cargo fmt --all` before committing",
        &[],
        false,
        shell("cargo fmt")
    ));
}

#[test]
fn commands_named_in_prose_count() {
    let action = "use cargo nextest run; cargo test misses the integration harness";
    assert!(used(action, &[], false, shell("cargo nextest run -p core")));
    assert!(!used(action, &[], false, shell("cargo test")));
    let action = "run git pull --rebase first, then push";
    assert!(used(
        action,
        &[],
        false,
        shell("git pull --rebase origin main")
    ));
    assert_eq!(
        plain_commands("use early returns instead of nesting"),
        ["early returns"]
    );
    assert!(plain_commands("prefer Result over panics").is_empty());
}

#[test]
fn reading_the_item_or_a_file_it_names_counts() {
    let action = "also update src/schema.rs and `migrations/001.sql`.";
    assert!(used(action, &[], false, file("/home/u/p/src/schema.rs")));
    assert!(used(
        action,
        &[],
        false,
        file("/home/u/p/migrations/001.sql")
    ));
    assert!(used(action, &[], false, shell("cat src/schema.rs")));
    assert!(!used(action, &[], false, file("/home/u/p/src/schema.rsx")));
    assert!(used(
        "anything",
        &[],
        false,
        file("/home/u/.claude/homunculus/instincts/personal/x.md")
    ));
    assert!(!used(
        "see https://example.com/a.html",
        &[],
        false,
        file("/a.html")
    ));
}

#[test]
fn a_path_trigger_is_not_used_by_the_touch_that_fired_it() {
    let globs = vec!["src/*.rs".to_string()];
    let touch = || Touch {
        file: Some("/p/src/lib.rs"),
        relative: Some("src/lib.rs"),
        command: None,
    };
    assert!(used("keep it small", &globs, false, touch()));
    assert!(!used("keep it small", &globs, true, touch()));
}

#[test]
fn ignored_items_rank_lower_the_more_they_are_ignored() {
    let mut u = Usage::default();
    let counts = |injected, used| Counts {
        injected,
        listed: 100,
        used,
        blind: false,
    };
    u.items.insert("a".into(), counts(4, 0));
    u.items.insert("b".into(), counts(9, 0));
    u.items.insert("c".into(), counts(50, 0));
    u.items.insert("d".into(), counts(50, 1));
    assert_eq!(u.rank_weight("a"), 1.0);
    assert!(u.rank_weight("b") < 1.0 && u.rank_weight("b") > u.rank_weight("c"));
    assert_eq!(u.rank_weight("c"), MIN_WEIGHT);
    assert_eq!(u.rank_weight("d"), 1.0);
    assert_eq!(u.rank_weight("unknown"), 1.0);
    u.items.insert(
        "e".into(),
        Counts {
            blind: true,
            ..counts(50, 0)
        },
    );
    assert_eq!(
        u.rank_weight("e"),
        1.0,
        "a rule against something is never ignored"
    );
    let rule = Injected {
        id: "convictions/no-force-push.md",
        action: "never force-push to main",
        globs: &[],
        by_path: false,
    };
    assert!(!observable(&cues(&rule)));
}
