//! Tests of the recovery miner: the forms of a fix, and what is never one.

use super::*;

#[test]
fn recovery_forms() {
    // Variation: an environment variable (sqlx needs DATABASE_URL at compile time).
    let env = fixes(&[
        failed(
            "s1",
            "cargo test -p store",
            "Exit code 101\nerror: set `DATABASE_URL` to use query macros online",
        ),
        ok("s1", "DATABASE_URL=sqlite::memory: cargo test -p store"),
    ]);
    assert_eq!(env.len(), 1, "{env:?}");
    assert!(env[0].0.ends_with("=>env:DATABASE_URL"), "{env:?}");
    assert!(
        env[0].1.contains("DATABASE_URL=sqlite::memory: cargo test"),
        "{env:?}"
    );

    // Variation: a flag (kubectl apply of a large CRD).
    let flag = fixes(&[
        failed(
            "s1",
            "kubectl apply -f crds.yaml",
            "The CustomResourceDefinition \"x\" is invalid: metadata.annotations: Too long",
        ),
        ok("s1", "kubectl apply --server-side -f crds.yaml"),
    ]);
    assert!(flag[0].0.ends_with("=>flag:--server-side"), "{flag:?}");

    // Variation: the module changed (`python3 -m unittest` after `-m pytest`).
    let module = fixes(&[
        failed(
            "s1",
            "python3 -m pytest tests/",
            "/usr/bin/python3: No module named pytest",
        ),
        ok("s1", "python3 -m unittest discover tests"),
    ]);
    assert!(module[0].0.ends_with("=>use:unittest"), "{module:?}");

    // Variation: a sibling tool behind a pnpm-only guard, named by the error.
    let sibling = fixes(&[
        failed(
            "s1",
            "npm install",
            "Exit code 1\nnpm ERR! Use \"pnpm install\" for installation in this project.",
        ),
        ok("s1", "ls node_modules"),
        ok("s1", "pnpm install"),
    ]);
    assert!(sibling[0].0.ends_with("=>use:pnpm"), "{sibling:?}");
    assert!(
        sibling[0].1.starts_with("use pnpm instead of npm"),
        "{sibling:?}"
    );

    // Real: src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl:47-52, bare
    // `pytest` not found, then the same run inside the project's virtualenv.
    let venv = fixes(&[
        failed(
            "s1",
            "pytest tests/ -q",
            "Exit code 127\n(eval):1: command not found: pytest",
        ),
        ok("s1", "(source .venv/bin/activate && pytest tests/ -q)"),
    ]);
    assert!(
        venv[0].0.ends_with("=>prefix:source .venv/bin/activate"),
        "{venv:?}"
    );
    assert!(venv[0].1.contains("source .venv/bin/activate"), "{venv:?}");

    // Variation: a runner (`uv run pytest`).
    let runner = fixes(&[
        failed("s1", "pytest -x", "zsh: command not found: pytest"),
        ok("s1", "uv run pytest -x"),
    ]);
    assert!(runner[0].0.ends_with("=>use:uv run"), "{runner:?}");

    // Variation: a setup step the error asks for, then the same command again.
    let setup = fixes(&[
        failed(
            "s1",
            "git commit -m 'fix'",
            "Author identity unknown\n*** Please tell me who you are.\nRun\n  git config --global user.email \"you@example.com\"",
        ),
        ok("s1", "git config user.email dev@example.com"),
        ok("s1", "git config user.name Dev"),
        ok("s1", "git commit -m 'fix'"),
    ]);
    assert!(setup[0].0.ends_with("=>first:git config"), "{setup:?}");

    // Variation: `docker compose` → `docker-compose` where the plugin is missing.
    let compose = fixes(&[
        failed(
            "s1",
            "docker compose up -d",
            "docker: 'compose' is not a docker command.",
        ),
        ok("s1", "docker-compose up -d"),
    ]);
    assert!(
        compose[0].0.ends_with("=>use:docker-compose"),
        "{compose:?}"
    );

    // Real: Users-dain-workspace-claude-code-log-sample/37f83ec9-…jsonl:150/185, the
    // shell stayed in test/ after `cd test`: the relative path failed, the absolute
    // one worked.
    let absolute = fixes(&[
        failed(
            "s1",
            "cd test && uv run pytest test_a.py",
            "(eval):cd:1: no such file or directory: test",
        ),
        ok(
            "s1",
            "cd /Users/dain/workspace/claude-code-log/test && uv run pytest test_a.py",
        ),
    ]);
    assert!(
        absolute.is_empty() || absolute[0].0.contains("absolute"),
        "{absolute:?}"
    );

    // The relative `cd` failed, and the retry went to the absolute folder and named
    // its target from there: the same lesson, though the command's words changed.
    let renamed = fixes(&[
        failed(
            "s1",
            "cd services/api && go build ./... 2>&1",
            "Exit code 1\n(eval):cd:1: no such file or directory: services/api",
        ),
        ok("s1", "cd /home/u/repo && go build ./services/api/... 2>&1"),
    ]);
    assert_eq!(renamed.len(), 1, "{renamed:?}");
    assert!(renamed[0].0.contains("absolute"), "{renamed:?}");
    // Another folder named from the same place is another story.
    let other = fixes(&[
        failed(
            "s1",
            "cd services/api && go build ./... 2>&1",
            "Exit code 1\ngo: cannot find main module",
        ),
        ok("s1", "cd /home/u/repo && go build ./services/api/... 2>&1"),
    ]);
    assert!(other.iter().all(|f| !f.0.contains("absolute")), "{other:?}");
}

#[test]
fn never_a_fix() {
    // Variation of the pg_createcluster case the issue quotes: the destructive step
    // makes the whole recovery worthless.
    assert!(
        fixes(&[
            failed(
                "s1",
                "sudo pg_createcluster 17 main",
                "Error: cluster configuration already exists"
            ),
            ok("s1", "sudo rm -rf /var/lib/postgresql/17/main"),
            ok("s1", "sudo pg_createcluster 17 main"),
        ])
        .is_empty()
    );
    // A volume removal after a failed compose.
    assert!(
        fixes(&[
            failed(
                "s1",
                "docker compose up -d",
                "Error response from daemon: driver failed programming external connectivity"
            ),
            ok("s1", "docker volume rm app_pgdata"),
            ok("s1", "docker compose up -d"),
        ])
        .is_empty()
    );
    // Diagnostics only, then a flaky retry: no lesson.
    assert!(
        fixes(&[
            failed(
                "s1",
                "cargo test",
                "test net::timeout ... FAILED\nerror: test failed"
            ),
            ok("s1", "git status"),
            ok("s1", "cargo test"),
        ])
        .is_empty()
    );
    // An edit in between: the code was fixed, not the command.
    assert!(
        fixes(&[
            failed(
                "s1",
                "cargo test",
                "error[E0502]: cannot borrow `x` as mutable"
            ),
            edit("s1", "src/lib.rs"),
            ok("s1", "cargo test --all"),
        ])
        .is_empty()
    );
    // Another file is another run, not a fix.
    assert!(
        fixes(&[
            failed(
                "s1",
                "pytest tests/test_a.py",
                "FAILED tests/test_a.py::test_x - AssertionError"
            ),
            ok("s1", "pytest tests/test_b.py"),
        ])
        .is_empty()
    );
}

#[test]
fn the_same_lesson_through_other_commands_is_one_pattern() {
    let guard = "Exit code 1\nUse \"pnpm install\" for installation in this project.";
    let a = recoveries(&[failed("s1", "npm install", guard), ok("s1", "pnpm install")]);
    let b = recoveries(&[
        failed("s2", "npm ci", guard),
        ok("s2", "pnpm install --frozen-lockfile"),
    ]);
    assert_eq!(a[0].key, b[0].key);
}

#[test]
fn a_fix_is_confirmed_by_its_outcome_not_by_coming_next() {
    // Variation: a DNS outage; a service restart the error never asked for, then the
    // same push works. The outage ended; nothing was learned.
    assert!(
        fixes(&[
            failed(
                "s1",
                "git push origin main",
                "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com"
            ),
            ok("s1", "ssh router 'service dnsmasq restart'"),
            ok("s1", "git push origin main"),
        ])
        .is_empty()
    );
    // Variation: the "fix" says it did nothing.
    let mut already = ok("s1", "pip3 install requests");
    already.noop = true;
    assert!(
        fixes(&[
            failed("s1", "pip install requests", "zsh: command not found: pip"),
            already,
        ])
        .is_empty()
    );
    // Variation: the retry came long after: another story.
    assert!(
        fixes(&[
            failed(
                "s1",
                "cargo test",
                "error: set `DATABASE_URL` to use query macros"
            ),
            at_minute(ok("s1", "DATABASE_URL=sqlite::memory: cargo test"), 40),
        ])
        .is_empty()
    );
    // Variation: another folder is another project's command.
    let mut elsewhere = ok("s1", "npm test");
    elsewhere.cwd = "/src/other".into();
    assert!(
        fixes(&[
            failed("s1", "npm test", "npm ERR! Missing script: \"test\""),
            elsewhere,
        ])
        .is_empty()
    );
    // Variation: a user message in between, and a fix the error never asked for.
    assert!(
        fixes(&[
            failed("s1", "pytest -x", "zsh: command not found: pytest"),
            prompt("s1", "the venv is in .venv, it works on my machine"),
            ok("s1", "uv run pytest -x"),
        ])
        .is_empty()
    );
}

#[test]
fn another_tool_that_did_the_same_job_is_the_fix() {
    // Real shape: awesumsawz 0ad3f467:9-15, `sips` cannot write webp, `magick` can.
    let webp = fixes(&[
        failed(
            "s1",
            "sips -z 572 943 \"$f\" --setProperty format webp --out \"${base}.webp\"",
            "Exit code 13\nError: Can't write format: org.webmproject.webp\nError 13: an unknown error occurred",
        ),
        ok("s1", "which magick cwebp"),
        ok(
            "s1",
            "magick \"$f\" -resize 943x572! -quality 80 \"${base}.webp\"",
        ),
    ]);
    assert_eq!(webp.len(), 1, "{webp:?}");
    assert!(webp[0].0.ends_with("=>use:magick"), "{webp:?}");
    // One address in common is no job in common: another host may simply answer.
    let fetch = fixes(&[
        failed(
            "s1",
            "curl -fsSL https://example.com/a.tar.gz",
            "curl: (6) Could not resolve host: example.com",
        ),
        ok("s1", "wget https://example.com/a.tar.gz"),
    ]);
    assert!(fetch.is_empty(), "{fetch:?}");
    // A file that was missing is no reason to change tools.
    let missing = fixes(&[
        failed(
            "s1",
            "cp build/app.js dist/app.js",
            "cp: build/app.js: No such file or directory",
        ),
        ok("s1", "rsync build/app.js dist/app.js"),
    ]);
    assert!(missing.is_empty(), "{missing:?}");
}
