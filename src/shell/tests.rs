//! Tests of `capture::shell`: wrappers, chains and the two judgements, on commands as
//! agents really write them (several from `../shared/transcripts-real/`).

use super::*;

fn shapes(line: &str) -> Vec<String> {
    parse(line).iter().map(Command::shape).collect()
}

#[test]
fn wrappers_chains_and_comments_are_looked_through() {
    assert_eq!(
        shapes("sudo -u postgres timeout 60 pg_createcluster 17 main"),
        ["pg_createcluster"]
    );
    assert_eq!(shapes("cd test && uv run pytest -x"), ["cd", "uv run"]);
    assert_eq!(shapes("# run the suite\nnpm install"), ["npm install"]);
    assert_eq!(
        shapes("(source .venv/bin/activate && pytest -q)"),
        ["source", "pytest"]
    );
    assert_eq!(shapes("env CGO_ENABLED=1 go test -race ./..."), ["go test"]);
    assert_eq!(
        shapes("nice -n 5 cargo build 2>&1 | tail -20"),
        ["cargo build", "tail"]
    );
    let c = &parse("DATABASE_URL=sqlite::memory: cargo test -p store")[0];
    assert_eq!(c.env, ["DATABASE_URL=sqlite::memory:"]);
    assert_eq!(c.shape(), "cargo test");
    assert_eq!(c.env_names().collect::<Vec<_>>(), ["DATABASE_URL"]);
    let v = &parse("TOKEN=$(op read 'op://x/y' | tr -d '\\n') ./deploy.sh")[0];
    assert_eq!(v.program, "./deploy.sh");
    assert_eq!(shapes("echo 'a && b; c'"), ["echo"]);
    let cmds = parse("(source .venv/bin/activate && pytest)");
    assert_eq!(primary(&cmds).map(Command::tool), Some("pytest"));
    assert_eq!(parse(".venv/bin/pytest tests")[0].tool(), "pytest");
}

#[test]
fn diagnostics_only_look() {
    for line in [
        "ls -la",
        "which pnpm",
        "git status",
        "git log --oneline -5",
        "systemctl status postgresql",
        "journalctl -u postgresql --no-pager | tail -50",
        "docker info",
        "kubectl get pods -n web",
        "cat package.json",
        "node --version",
        "git config --get user.email",
        "git config user.email",
    ] {
        assert!(line_is_diagnostic(line), "{line}");
    }
    for line in [
        "pnpm install",
        "git config user.email a@b.c",
        "cargo test",
        "terraform init",
        "git commit -m x",
    ] {
        assert!(!line_is_diagnostic(line), "{line}");
    }
}

#[test]
fn destructive_commands_are_recognised_through_wrappers() {
    for line in [
        "sudo rm -rf /var/lib/postgresql/17/main",
        "rm -r build",
        "docker volume rm app_pgdata",
        "docker system prune -af",
        "docker compose down -v",
        "git push --force origin main",
        "git push -f",
        "git push origin +main",
        "git reset --hard HEAD~3",
        "git clean -fdx",
        "git checkout -- .",
        "op item delete 'Prod DB'",
        "kubectl delete namespace staging",
        "psql -c 'DROP DATABASE clinic'",
        "dropdb clinic",
        "timeout 30 terraform destroy -auto-approve",
        "mkfs.ext4 /dev/sdb1",
        "dd if=/dev/zero of=/dev/sda",
        "truncate -s 0 app.log",
        "find . -name '*.pyc' -delete",
        "uv cache clean",
        "git submodule deinit -f public/tokenizer",
    ] {
        assert!(line_is_destructive(line), "{line}");
    }
    for line in [
        "rm notes.txt",
        "git push origin feature",
        "git reset HEAD file.rs",
        "docker compose up -d",
        "kubectl apply --server-side -f crd.yaml",
        "op read op://vault/item/field",
        "psql -c 'select 1'",
        "pnpm install",
        "git checkout -b fix",
    ] {
        assert!(!line_is_destructive(line), "{line}");
    }
}
