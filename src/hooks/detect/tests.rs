//! Use detection over real-shaped actions and tool calls, and the rank weight.

use super::*;

fn injected(action: &str) -> Injected<'_> {
    Injected {
        id: "instincts/personal/x.md",
        action,
    }
}

fn used(action: &str, touch: Touch) -> bool {
    let mut w = vec![Watch {
        id: "x".into(),
        cues: cues(&injected(action)),
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
    assert!(used(action, shell("pnpm install --frozen-lockfile")));
    assert!(!used(action, shell("npm install")));
    // The rule the observer writes from a rejection names the rejected command too.
    let action = "Use pnpm, not npm: the user rejected `npm install` and said \"use pnpm\"";
    assert!(!used(action, shell("npm install")));
    assert!(used(action, shell("pnpm install")));
    // `npm` inside `pnpm` is not a use of npm, nor of anything else.
    assert!(!used("never `npm` here", shell("pnpm i")));
    assert!(used(
        "run `cargo fmt --all` before committing",
        shell("cargo  fmt --all && git commit -m x")
    ));
    assert!(!used(
        "run `cargo fmt --all` before committing",
        shell("cargo fmt")
    ));
}

#[test]
fn commands_named_in_prose_count() {
    let action = "use cargo nextest run; cargo test misses the integration harness";
    assert!(used(action, shell("cargo nextest run -p core")));
    assert!(!used(action, shell("cargo test")));
    let action = "run git pull --rebase first, then push";
    assert!(used(action, shell("git pull --rebase origin main")));
    assert_eq!(
        plain_commands("use early returns instead of nesting"),
        ["early returns"]
    );
    assert!(plain_commands("prefer Result over panics").is_empty());
    // A rule as typed, with no code spans: its verb comes after a word or two.
    let rule = "Always run cargo clippy before committing";
    assert!(used(rule, shell("cargo clippy --all-targets")));
    assert!(!used(rule, shell("cargo build")));
    assert_eq!(
        plain_commands("please make sure to use pnpm, not npm"),
        ["pnpm"]
    );
}

#[test]
fn reading_the_item_or_a_file_it_names_counts() {
    let action = "also update src/schema.rs and `migrations/001.sql`.";
    assert!(used(action, file("/home/u/p/src/schema.rs")));
    assert!(used(action, file("/home/u/p/migrations/001.sql")));
    assert!(used(action, shell("cat src/schema.rs")));
    assert!(!used(action, file("/home/u/p/src/schema.rsx")));
    assert!(used(
        "anything",
        file("/home/u/.claude/homunculus/instincts/personal/x.md")
    ));
    assert!(!used("see https://example.com/a.html", file("/a.html")));
}

#[test]
fn a_folder_or_a_file_name_with_placeholders_counts_what_lies_under_it() {
    let touch = |relative| Touch {
        file: None,
        relative: Some(relative),
        command: None,
    };
    let adr = "write a short ADR in docs/adr/NNNN-<title>.md and link it from the PR";
    assert!(used(adr, touch("docs/adr/0007-server-actions.md")));
    assert!(!used(adr, touch("docs/guide.md")));
    // The advice's condition is not its action.
    let schema = "when editing src/schema.rs, also update migrations/ with a new pair";
    assert!(used(schema, touch("migrations/2026_add/up.sql")));
    assert!(!used(schema, touch("src/schema.rs")));
}

#[test]
fn placeholders_cut_options_stay_and_printing_a_command_is_not_running_it() {
    let logs = "`kubectl logs <pod> --previous -c <container>` shows why it died";
    assert!(used(logs, shell("kubectl logs api-7d9 --previous -c api")));
    assert!(!used(logs, shell("kubectl logs api-7d9")));
    assert!(used("`pnpm add <pkg>`; never npm", shell("pnpm add zod")));
    assert!(!used(
        "run `pnpm tsc --noEmit && pnpm lint` first",
        shell("echo 'remember: pnpm lint'")
    ));
    assert!(used(
        "run `pnpm tsc --noEmit && pnpm lint` first",
        shell("pnpm lint --fix")
    ));
    assert!(!used(
        "`terraform plan -out=tfplan`, then apply it; never a bare `terraform apply`",
        shell("terraform apply -auto-approve")
    ));
    assert!(!used(
        "use uv: `uv add <pkg>`, `uv sync --frozen`; never `pip install`",
        shell("uv pip install pandera")
    ));
}

#[test]
fn a_rule_against_something_is_not_observable() {
    let rule = Injected {
        id: "convictions/no-force-push.md",
        action: "never force-push to main",
    };
    assert!(!observable(&cues(&rule)));
}
