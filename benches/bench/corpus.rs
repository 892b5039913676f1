//! A deterministic corpus of memory files: every kind, realistic engineering text, the
//! folder layout of a real memory. Same seed, same bytes.

use std::fs;
use std::path::Path;

/// A small, fixed pseudo-random generator (SplitMix64): no dependency, stable output.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

use homunculus::memory::DOMAINS;
const PROJECTS: &[&str] = &[
    "ledger-svc",
    "billing-api",
    "web-dashboard",
    "infra",
    "data-pipeline",
    "mobile-app",
    "auth-gateway",
    "search-svc",
    "cli-tools",
    "ml-training",
];
const TOOLS: &[&str] = &[
    "cargo nextest run",
    "pnpm install --frozen-lockfile",
    "pytest -x -q",
    "go test ./...",
    "docker compose up -d",
    "terraform plan",
    "kubectl rollout status",
    "npm run lint",
    "cargo clippy --all-targets",
    "make migrate",
    "uv pip sync",
    "git rebase --autostash",
    "psql -f schema.sql",
    "jest --runInBand",
    "mvn -q verify",
    "just check",
];
const SITUATIONS: &[&str] = &[
    "running the test suite",
    "editing the database migrations",
    "bumping a dependency",
    "debugging a flaky integration test",
    "reviewing a pull request",
    "adding an API endpoint",
    "changing the CI workflow",
    "profiling a slow query",
    "rotating credentials",
    "writing release notes",
    "refactoring the storage layer",
    "fixing a lint failure",
    "touching the protobuf definitions",
    "upgrading the toolchain",
    "deploying to staging",
];
const ADVICE: &[&str] = &[
    "run the formatter before committing",
    "pin the version in the lockfile",
    "restart the dev server after changing env files",
    "bind the test server to port 0",
    "use the retry helper instead of sleeping",
    "regenerate the snapshots with the update flag",
    "check the feature flags before assuming a bug",
    "clear the build cache when linking fails",
    "prefer the batch API over per-item calls",
    "read the migration log before rerunning",
    "keep timeouts above the p99 of the upstream",
    "add the new file to the module list",
];
const FILES: &[&str] = &[
    "src/lib.rs",
    "src/storage/mod.rs",
    "src/api/handlers.rs",
    "tests/it.rs",
    "Cargo.toml",
    "package.json",
    "src/components/Table.tsx",
    "migrations/0042_add_index.sql",
    "pyproject.toml",
    "src/parser.rs",
    "Dockerfile",
    ".github/workflows/ci.yml",
    "internal/server/server.go",
    "docs/architecture.md",
    "src/auth/session.rs",
];
const ERRORS: &[&str] = &[
    "EADDRINUSE",
    "connection refused",
    "lockfile out of date",
    "undefined reference",
    "panicked at index out of bounds",
    "ModuleNotFoundError",
    "permission denied",
    "deadline exceeded",
    "snapshot mismatch",
    "borrow of moved value",
    "timeout after 30s",
];
const FILLER: &[&str] = &[
    "The change was small but the failure only showed under load.",
    "It took two attempts before the real cause was clear.",
    "The logs pointed at the wrong component at first.",
    "A teammate had hit the same problem last month.",
    "Nothing in the README mentioned this step.",
    "The fix held across three later sessions.",
    "CI and the laptop disagreed until the versions matched.",
];

/// How many of each kind make up `total` items.
pub fn mix(total: usize) -> [(&'static str, usize); 4] {
    let instincts = total / 10;
    let convictions = total / 50;
    let episodes = total * 28 / 100;
    let sessions = total - instincts - convictions - episodes;
    [
        ("instinct", instincts),
        ("conviction", convictions),
        ("episode", episodes),
        ("session", sessions),
    ]
}

fn date(rng: &mut Rng) -> String {
    format!("2026-{:02}-{:02}", 1 + rng.below(10), 1 + rng.below(28))
}

fn stamp(rng: &mut Rng) -> String {
    format!(
        "{}T{:02}:{:02}:00Z",
        date(rng),
        rng.below(24),
        rng.below(60)
    )
}

fn paragraph(rng: &mut Rng, sentences: usize) -> String {
    (0..sentences)
        .map(|_| rng.pick(FILLER))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a corpus of `total` items under `root` (created).
pub fn generate(root: &Path, total: usize, seed: u64) -> std::io::Result<()> {
    let mut rng = Rng::new(seed);
    for dir in homunculus::paths::LAYOUT_DIRS {
        fs::create_dir_all(root.join(dir))?;
    }
    fs::write(
        root.join("identity.json"),
        "{\"session_count\": 0, \"created\": \"2026-01-01T00:00:00Z\", \"promotion\": {\"ready\": []}}\n",
    )?;
    let [
        (_, instincts),
        (_, convictions),
        (_, episodes),
        (_, sessions),
    ] = mix(total);
    for n in 0..instincts {
        let domain = rng.pick(DOMAINS);
        let situation = rng.pick(SITUATIONS);
        let tool = rng.pick(TOOLS);
        let advice = rng.pick(ADVICE);
        let project = rng.pick(PROJECTS);
        let dir = if n % 20 == 0 { "inherited" } else { "personal" };
        let text = format!(
            "---\ntrigger: \"when {situation} in {project}\"\naction: \"{advice}; use {tool}\"\nconfidence: 0.{}\ndomain: {domain}\ncreated: {}\nlast_seen: {}\nproject: {project}\npaths: [\"{}\"]\n---\n\n# {} ({n})\n\n## Evidence\n\n- {}: `{tool}` failed with {}; {advice}\n- {}: reinforced\n",
            30 + rng.below(60),
            stamp(&mut rng),
            stamp(&mut rng),
            rng.pick(FILES),
            advice,
            date(&mut rng),
            rng.pick(ERRORS),
            date(&mut rng),
        );
        let slug = advice
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join("-");
        fs::write(
            root.join(format!("instincts/{dir}/{domain}-{slug}-{n}.md")),
            text,
        )?;
    }
    for n in 0..convictions {
        let advice = rng.pick(ADVICE);
        let text = format!(
            "---\nname: \"rule-{n}\"\naction: \"{advice}\"\ndomain: {}\npromoted_at: {}\nsource_instinct: general-rule-{n}\n---\n\n# Rule {n}\n\n{advice}\n",
            rng.pick(DOMAINS),
            stamp(&mut rng),
        );
        fs::write(root.join(format!("convictions/rule-{n}.md")), text)?;
    }
    for n in 0..episodes {
        let error = rng.pick(ERRORS);
        let tool = rng.pick(TOOLS);
        let text = format!(
            "---\ndate: {}\ntype: episode\nproject: {}\ntags: [{}, {}]\nfiles: [\"{}\"]\n---\n\n# {tool} hit {error} ({n})\n\nTried `{tool}` while {}; it failed with {error}. {} Resolved: {}.\n",
            date(&mut rng),
            rng.pick(PROJECTS),
            rng.pick(DOMAINS),
            rng.pick(DOMAINS),
            rng.pick(FILES),
            rng.pick(SITUATIONS),
            paragraph(&mut rng, 2),
            rng.pick(ADVICE),
        );
        fs::write(
            root.join(format!("episodes/{}-episode-{n}.md", date(&mut rng))),
            text,
        )?;
    }
    for n in 0..sessions {
        let project = rng.pick(PROJECTS);
        let files: Vec<String> = (0..1 + rng.below(5))
            .map(|_| format!("- {}", rng.pick(FILES)))
            .collect();
        let text = format!(
            "---\ntype: session\ndate: {}\nupdated: {}\nproject: {project}\ndirectory: /home/dev/src/{project}\nsession_id: {n:08x}-0000-4000-8000-000000000000\ntools_used: [Bash, Edit, Read]\nturns: {}\nerrors: {}\n---\n\n# Session: {project}\n\n## Files touched\n\n{}\n\n## Summary\n\n{} Mostly {}.\n",
            stamp(&mut rng),
            stamp(&mut rng),
            1 + rng.below(40),
            rng.below(4),
            files.join("\n"),
            paragraph(&mut rng, 2),
            rng.pick(SITUATIONS),
        );
        fs::write(
            root.join(format!("sessions/2026-01-01T000000Z-{n:08x}.md")),
            text,
        )?;
    }
    Ok(())
}
