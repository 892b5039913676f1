//! Tests of what the user said and did: rules, corrections, refused commands.

use super::*;

fn rules_of(text: &str) -> Vec<(Option<String>, Option<String>, bool)> {
    corrections::rules(text, false)
        .into_iter()
        .map(|r| (r.prefer, r.avoid, r.explicit))
        .collect()
}

#[test]
fn stated_rules_and_what_is_no_rule() {
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        rules_of("no, don't use npm here, use pnpm"),
        [(s("pnpm"), s("npm"), true)]
    );
    assert_eq!(
        rules_of("Use httpx instead of requests everywhere."),
        [(s("httpx"), s("requests everywhere"), true)]
    );
    assert_eq!(
        rules_of("Always run migrations with --fake-initial in this repo"),
        [(s("run migrations with --fake-initial"), None, true)]
    );
    assert_eq!(rules_of("never commit directly to main").len(), 1);
    assert_eq!(rules_of("Named exports only").len(), 1);
    // Negations, questions and hedges are no rules.
    for text in [
        "AVX512 won't always be available, so guard it at runtime",
        "does it always prompt for the password?",
        "I'm not sure we should never cache this",
        // Real: src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl:229
        "BadZipFile we don't do anything (pass) - shouldn't we report it?",
        // Real: Users-dain-workspace-claude-code-log-sample/89488521-…jsonl:4
        "we don't need to check for the existence of the file",
        "Why do we always rebuild the index?",
    ] {
        assert!(rules_of(text).is_empty(), "{text}: {:?}", rules_of(text));
    }
}

#[test]
fn the_same_rule_in_other_words_is_one_key() {
    let keys = |text: &str| -> Vec<String> {
        corrections(&[prompt("s1", text)])
            .into_iter()
            .map(|f| f.key)
            .collect()
    };
    assert_eq!(
        keys("don't use npm in this repo, use pnpm"),
        keys("Never use npm here.")
    );
    let found = corrections(&[prompt("s1", "never use npm here")]);
    assert!(found[0].explicit);
    assert!(
        found[0].action.starts_with("Never use npm here"),
        "{:?}",
        found[0]
    );
}

#[test]
fn rejections_and_interrupts_are_corrections() {
    // Real: Users-dain-workspace-JSSoundRecorder/7acd37a8-…jsonl:74/77 — `npm install`
    // rejected, the user said to use pnpm.
    let found = corrections(&[
        rejected("s1", "npm install", Some("use pnpm")),
        ok("s1", "pnpm install"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].key.ends_with(":-npm"), "{found:?}");
    // An interrupted call, then a new instruction.
    let after = corrections(&[
        Observation {
            outcome: Some(Outcome::Blocked),
            ..failed("s1", "pnpm test:e2e", "")
        },
        prompt("s1", "run pnpm test:unit instead, e2e needs the VPN"),
    ]);
    assert_eq!(after.len(), 1, "{after:?}");
    // The same instruction with nothing stopped is just a request.
    assert!(corrections(&[prompt("s1", "run pnpm test:unit")]).is_empty());
}

#[test]
fn statements_fragments_and_pastes_are_no_rules() {
    use super::corrections::rules;
    for (text, redirect) in [
        // Statements about something, not instructions.
        (
            "did you not look in the telecom-mobile repo? i only see js/ts stuff",
            false,
        ),
        (
            "I change the `flake.nix` file to no longer use nixos",
            false,
        ),
        ("it is not installed yet, use brew", false),
        ("we have no more time, use the old one", false),
        // An instruction that names nothing.
        ("try again the same thing", true),
        // "not" inside a clause of its own.
        (
            "use chrome dev tools mcp to identify issues alongside lighthouse (this is not installed yet, so install it first)",
            false,
        ),
    ] {
        let found = rules(text, redirect);
        let avoid: Vec<_> = found.iter().filter(|r| r.avoid.is_some()).collect();
        assert!(
            avoid.is_empty() && found.iter().all(|r| !r.explicit || r.prefer.is_some()),
            "{text}: {found:?}"
        );
    }
    // What was pasted is no rule of the user's.
    let pasted = [
        prompt(
            "s1",
            "why does CI fail?\n```\nERROR: always run with --force\nhint: never use yarn here\n```",
        ),
        prompt(
            "s1",
            "> Use npm instead of pnpm for installs\nwhat does this mean?",
        ),
    ];
    assert!(
        corrections(&pasted).is_empty(),
        "{:?}",
        corrections(&pasted)
    );
    // Typed rules still are.
    let typed = corrections(&[prompt("s1", "don't use npm in this repo, use pnpm")]);
    assert_eq!(typed.len(), 1);
    assert_eq!(
        typed[0].provenance,
        crate::memory::provenance::Provenance::User
    );
}

#[test]
fn a_command_the_user_refuses_is_found_once_per_session() {
    let found = refused(&[
        rejected("s1", "sudo nixos-rebuild switch --flake .", None),
        rejected("s1", "nixos-rebuild build --flake .#nixos", None),
        rejected("s1", "which python3", None),
        rejected("s1", "ls -la /etc/nixos", None),
    ]);
    let keys: Vec<&str> = found.iter().map(|f| f.key.as_str()).collect();
    // Its verb tells a rebuild the user runs (`switch`) from one they may just have
    // stopped (`build`): each is its own.
    assert_eq!(
        keys,
        [
            "rejected:ledger:nixos-rebuild switch",
            "rejected:ledger:nixos-rebuild build"
        ],
        "{found:?}"
    );
    assert_eq!(
        found[0].provenance,
        crate::memory::provenance::Provenance::User
    );
    // Reported from the second session on.
    let mut ledger = Ledger::default();
    let one = vec![rejected("s1", "nixos-rebuild switch", None)];
    let two = vec![rejected("s2", "nixos-rebuild switch", None)];
    assert!(rejections(std::slice::from_ref(&one), &mut ledger).is_empty());
    let found = rejections(&[two], &mut ledger);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].known, 2);
}

#[test]
fn a_command_the_user_also_lets_run_is_not_one_they_refuse() {
    let refused = |session: &str| vec![rejected(session, "rm -rf build", None)];
    let ran = |session: &str| vec![ok(session, "rm old.log")];
    // Let run once, refused in three sessions: the refusals were redirects.
    let mut ledger = Ledger::default();
    assert!(rejections(&[ran("s1")], &mut ledger).is_empty());
    let found = rejections(&[refused("s2"), refused("s3"), refused("s4")], &mut ledger);
    assert!(found.is_empty(), "{found:?}");
    // The same when the run comes after the refusals in one batch.
    let mut ledger = Ledger::default();
    let found = rejections(&[refused("s2"), refused("s3"), ran("s4")], &mut ledger);
    assert!(found.is_empty(), "{found:?}");
    // Never let run: reported from the second refusal.
    let mut ledger = Ledger::default();
    let found = rejections(&[refused("s2"), refused("s3")], &mut ledger);
    assert_eq!(keys_of(&found), ["rejected:ledger:rm"]);
    assert_eq!(found[0].known, 2);
    // Once it runs with the user's leave, the refusal is contradicted, and not reported
    // again.
    let against = rejections(&[ran("s4")], &mut ledger);
    assert!(
        !against.is_empty() && against.iter().all(|f| f.opposite),
        "{against:?}"
    );
    assert_eq!(keys_of(&against)[0], "rejected:ledger:rm");
    assert!(rejections(&[refused("s5")], &mut ledger).is_empty());
}

fn keys_of(found: &[super::Finding]) -> Vec<&str> {
    found.iter().map(|f| f.key.as_str()).collect()
}

#[test]
fn rules_said_with_a_gerund_or_another_verb_are_rules() {
    use super::corrections::rules;
    for text in [
        "stop making changes without checking with me first",
        "dont give me any plans, just tell me what your findings are",
        "never revert my changes on your own",
    ] {
        let found = rules(text, false);
        assert!(found.iter().any(|r| r.avoid.is_some()), "{text}: {found:?}");
    }
}

#[test]
fn a_rule_said_in_anger_is_still_the_rule() {
    use super::corrections::rules;
    // What frustration puts in front or in between says how, not what.
    for (text, rule) in [
        (
            "fuck me stop making chnages without checking with me first",
            "stop making chnages without checking with me first",
        ),
        (
            "dont fkn give me any plans, just tell me what your findings are",
            "dont give me any plans, just tell me what your findings are",
        ),
        ("ugh, never push to main", "never push to main"),
        // An exasperation behind; the alternative after the comma is what to do instead
        // and stays.
        (
            "no, don't mock the database, just use the test container",
            "don't mock the database, just use the test container",
        ),
        (
            "never touch the vendored protos fffs",
            "never touch the vendored protos",
        ),
        (
            "dont add comments to every line, its noise",
            "dont add comments to every line",
        ),
    ] {
        let found = rules(text, false);
        assert_eq!(
            found
                .iter()
                .map(|r| r.sentence.as_str())
                .collect::<Vec<_>>(),
            [rule],
            "{text}"
        );
    }
    // The trigger names the act, not "use making changes".
    let session = vec![prompt(
        "s1",
        "fuck me stop making chnages without checking with me first",
    )];
    let found = corrections(&session);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .trigger
            .starts_with("when about to make chnages without checking with the user"),
        "{}",
        found[0].trigger
    );
    // Said to the agent about the user: the trigger says whom.
    let found = corrections(&[prompt(
        "s1",
        "don't give me a summary table, just list the files",
    )]);
    assert!(
        found[0]
            .trigger
            .starts_with("when about to give the user a summary table"),
        "{}",
        found[0].trigger
    );
    assert!(
        found[0].action.contains("just list the files"),
        "{}",
        found[0].action
    );
    // A bare "no" in front is a reaction to what was just done ("no dont give me any
    // plans" to a review handed over as a plan): judged wrong as a standing rule.
    assert!(
        rules(
            "no dont fkn give me any plans, just tell me the findings",
            false
        )
        .is_empty()
    );
    // A statement stays a statement, however it is said.
    assert!(rules("fuck, the build is broken again", false).is_empty());
}
