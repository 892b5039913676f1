//! The per-prompt recall gate: which prompts deserve a memory lookup. Short prompts,
//! slash commands, and conversational or creative ones do not. The frame of a prompt is
//! picked by pattern matching as in Nous: one point per matching word, two per matching
//! phrase, most points wins, ties by priority.

/// What a prompt is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    Decision,
    Debug,
    Task,
    Question,
    Creative,
    Conversation,
}

const FRAMES: &[(Frame, &[&str])] = &[
    (
        Frame::Decision,
        &[
            "should we",
            "should i",
            "which one",
            "choose",
            "compare",
            "versus",
            "vs",
            "trade-off",
            "tradeoff",
            "better to",
        ],
    ),
    (
        Frame::Debug,
        &[
            "error",
            "bug",
            "broken",
            "failing",
            "fails",
            "failed",
            "crash",
            "panic",
            "exception",
            "traceback",
            "flaky",
            "doesn't work",
            "not working",
            "regression",
            "why does",
        ],
    ),
    (
        Frame::Task,
        &[
            "do",
            "create",
            "build",
            "fix",
            "implement",
            "add",
            "write",
            "make",
            "refactor",
            "update",
            "change",
            "remove",
            "rename",
            "migrate",
            "run",
            "test",
            "deploy",
            "set up",
            "configure",
            "bump",
            "upgrade",
            "delete",
            "move",
            // The everyday verbs of software work: "ok, cut the release now" is a
            // request after an acknowledgement, not small talk.
            "cut",
            "release",
            "ship",
            "publish",
            "install",
            "merge",
            "rebase",
            "pull",
            "push",
            "revert",
            "roll back",
            "rollback",
            "regenerate",
            "generate",
            "backfill",
            "embed",
            "commit",
            "restart",
            "reset",
            "clean up",
            "lint",
            "format",
            "profile",
            "optimize",
            "bisect",
            "seed",
            "sync",
        ],
    ),
    (
        Frame::Question,
        &[
            "what",
            "why",
            "how",
            "explain",
            "where",
            "when",
            "which",
            "describe",
            "does",
            "is there",
            "can you tell",
        ],
    ),
    (
        Frame::Creative,
        &[
            "brainstorm",
            "what if",
            "imagine",
            "poem",
            "story",
            "joke",
            "invent",
            "come up with",
            "haiku",
            "song",
            "limerick",
            "sonnet",
            "lyrics",
        ],
    ),
    (
        Frame::Conversation,
        &[
            "hi",
            "hello",
            "hey",
            "thanks",
            "thank you",
            "ok",
            "okay",
            "great",
            "cool",
            "bye",
            "good morning",
            "lol",
            "nice",
            "awesome",
        ],
    ),
];

/// Forms of writing no memory of software work helps with.
const VERSE: &[&str] = &[
    "poem", "haiku", "limerick", "sonnet", "lyrics", "song", "joke",
];

/// Words that say a question is asked in general, not about this work ("explain canary
/// deploys in plain terms", "when would you reach for one over the other, in general").
const IN_GENERAL: &[&str] = &[
    "in general",
    "generally speaking",
    "in plain terms",
    "in simple terms",
    "in layman's terms",
    "eli5",
    "interview prep",
    "for an interview",
    "conceptually",
    "in theory",
];

/// ELI5 spelt out: general only where it ends the request ("… like I'm five", not "looks
/// like i'm five commits behind").
const LIKE_FIVE: &[&str] = &[
    "like i'm five",
    "like im five",
    "like i am five",
    "like i'm 5",
    "like im 5",
];

/// A short question asked in general: a longer prompt that says "in general" in passing
/// is about the work it describes.
fn asked_in_general(prompt: &str, frame: Frame) -> bool {
    let lower = prompt.to_lowercase();
    // A question mark makes a question of a prompt whose words framed it a task ("how
    // do advisory locks compare to `SELECT … FOR UPDATE`?": "do", "update").
    let asked = matches!(frame, Frame::Question | Frame::Decision)
        || frame != Frame::Debug && lower.contains('?');
    asked
        && word_count(prompt) <= 30
        && (IN_GENERAL.iter().any(|m| {
            lower
                .match_indices(m)
                .any(|(at, _)| !lower[..at].ends_with(|c: char| c.is_alphanumeric()))
        }) || LIKE_FIVE.iter().any(|m| {
            lower.match_indices(m).any(|(at, _)| {
                lower[at + m.len()..]
                    .trim_start_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
                    .is_empty()
            })
        }))
}

/// Words that ask how something works or what it means ("how does sync.Pool work",
/// "what's the difference between X and Y", "explain the lookup order"): a question
/// answered by understanding, where advice on doing the thing helps only when the
/// memory is plainly about what is asked.
const HOW_IT_WORKS: &[&str] = &[
    "how does",
    "how do they",
    "difference between",
    "explain",
    "curious",
    "under the hood",
];

/// Whether a prompt asks how something works (see [`HOW_IT_WORKS`]): put as a question
/// (a question mark, or opening with the words), and not a problem to debug; a tool's
/// `--explain`, `kubectl explain` and SQL's `EXPLAIN ANALYZE` ask nothing.
pub fn asks_how_it_works(prompt: &str) -> bool {
    let lower = prompt.to_lowercase();
    let opening = lower.trim_start();
    let found = HOW_IT_WORKS.iter().any(|m| {
        lower.match_indices(m).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + m.len()..].chars().next();
            let tool = lower[..at].ends_with("kubectl ")
                || lower[at + m.len()..].starts_with(" analyze")
                || lower[at + m.len()..].starts_with(" select");
            !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
                && !after.is_some_and(char::is_alphanumeric)
                && !tool
        })
    });
    let asked = lower.contains('?') || HOW_IT_WORKS.iter().any(|m| opening.starts_with(m));
    found && asked && frame(prompt) != Frame::Debug
}

/// The fewest words a prompt needs to be looked up: terse work ("tf lock stuck",
/// "drafts invisible" is two) is looked up, and the floor judges it; "fix it" names
/// nothing to look for.
pub const MIN_WORDS: usize = 3;
/// A prompt this long is work whatever small talk it holds ("ok the emulator talks to
/// the backend now, thanks. but on my pixel every api call still fails"): small talk
/// frames only a shorter one. Below it, words of small talk alone make a conversation
/// ("ok great, thanks a lot for that"), and a prompt with no frame word at all is a task
/// ("gw goroutine count keeps climbing", "tf lock stuck"): the floor then judges whether
/// anything in the memory is about it.
const SMALL_TALK_WORDS: usize = 8;

/// How many words a prompt has. Chinese and Japanese put no spaces between words, so a
/// run of their characters counts a word for every two ("设置页面加一个开关" is a
/// request of several words, not one word).
fn word_count(text: &str) -> usize {
    text.split_whitespace()
        .map(|w| {
            let unspaced = w
                .chars()
                .filter(|c| crate::index::words::unspaced(*c))
                .count();
            usize::from(unspaced < w.chars().count()) + unspaced.div_ceil(2)
        })
        .sum()
}

/// Picks the frame of a prompt.
pub fn frame(prompt: &str) -> Frame {
    let lower = prompt.to_lowercase();
    let cleaned: String = lower
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' || c == '-' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let length = word_count(&cleaned);
    let padded = format!(" {} ", words.join(" "));
    let mut best = (0, Frame::Conversation);
    // FRAMES is in priority order, so a later frame wins only with strictly more points.
    for (frame, patterns) in FRAMES {
        if *frame == Frame::Conversation && length >= SMALL_TALK_WORDS {
            continue;
        }
        let points: usize = patterns
            .iter()
            .map(|p| {
                if p.contains(' ') {
                    if padded.contains(&format!(" {p} ")) {
                        2
                    } else {
                        0
                    }
                } else {
                    usize::from(words.contains(p))
                }
            })
            .sum();
        if points > best.0 {
            best = (points, *frame);
        }
    }
    // "Write a haiku about …" asks for verse, whatever work its subject names.
    if words.iter().any(|w| VERSE.contains(w)) {
        return Frame::Creative;
    }
    // Pasted output ("Makefile:23: *** missing separator.  Stop.", "TypeError: …") is a
    // problem to debug, whatever else the prompt says in passing.
    if matches!(best.1, Frame::Conversation) && looks_like_output(prompt) {
        return Frame::Debug;
    }
    if best.0 == 0 && length >= MIN_WORDS {
        return Frame::Task;
    }
    best.1
}

/// A location (`file.ext:line`), a named error or exception (`TypeError`,
/// `ECONNREFUSED`, `E0502`), make's `***` or a stack frame: text a tool printed.
fn looks_like_output(prompt: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"(?m)[\w./-]+\.\w+:\d+|\b\w+(?:Error|Exception)\b|\bE[A-Z]{4,}\b|\bE\d{3,4}\b|\*\*\*|^\s*at \S+ \(|^Traceback",
        )
        .expect("a valid pattern")
    })
    .is_match(crate::text::clip_chars(prompt, 4_000))
}

/// Whether a prompt should trigger recall, and why not when it should not.
pub fn admit(prompt: &str) -> Result<Frame, &'static str> {
    let trimmed = prompt.trim();
    if trimmed.starts_with('/') || trimmed.starts_with('!') {
        return Err("command");
    }
    if word_count(trimmed) < MIN_WORDS {
        return Err("short");
    }
    match frame(trimmed) {
        Frame::Conversation => Err("conversation"),
        Frame::Creative => Err("creative"),
        f if asked_in_general(trimmed, f) => Err("general"),
        f => Ok(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames() {
        let table = [
            (
                "fix the failing parse_amount test in ledger-core",
                Frame::Task,
            ),
            (
                "the parser is broken and keeps failing with a panic",
                Frame::Debug,
            ),
            ("add a retry to the upload client please", Frame::Task),
            (
                "how does the storage layer flush its write buffer",
                Frame::Question,
            ),
            (
                "should we use nextest or cargo test for the integration suite",
                Frame::Decision,
            ),
            (
                "brainstorm names for the new billing service",
                Frame::Creative,
            ),
            ("thanks, that looks great", Frame::Conversation),
            ("write a haiku about getting paged at 3am", Frame::Creative),
            ("ok let's cut the 0.10.0 release now", Frame::Task),
            (
                "nice, that worked. now backfill the orders pipeline",
                Frame::Task,
            ),
            (
                "the parser drops the sign on negative amounts in ledger core",
                Frame::Task,
            ),
        ];
        for (prompt, want) in table {
            assert_eq!(frame(prompt), want, "{prompt}");
        }
    }

    #[test]
    fn gate() {
        assert_eq!(admit("fix it"), Err("short"));
        assert_eq!(admit("/evolve --promote now please ok"), Err("command"));
        assert_eq!(
            admit("thanks a lot, that was really great"),
            Err("conversation")
        );
        assert_eq!(
            admit("brainstorm a poem about the borrow checker"),
            Err("creative")
        );
        assert!(admit("run the integration tests for the billing api").is_ok());
        // A question asked in general, not about this work.
        for general in [
            "what is the difference between optimistic and pessimistic locking, in general?",
            "explain the difference between a mutex and a semaphore like i'm five",
            "explain how oauth refresh tokens work in simple terms",
            "how do advisory locks compare to `SELECT ... FOR UPDATE`? when would you reach \
             for one over the other, in general",
        ] {
            assert_eq!(admit(general), Err("general"), "{general}");
        }
        // A task or a long account that says so in passing is still about the work.
        for work in [
            "looks like i'm five commits behind main, how do i rebase without losing the fix?",
            "the import is fast in general but the csv path times out, fix it",
            "in general our exporter writes utf-8, but when a payee has an accent the ofx \
             file comes out garbled and the bank rejects it; what would be the cleanest way \
             to keep the encoding right for every account we export to and test it",
        ] {
            assert!(admit(work).is_ok(), "{work}");
        }
        for pasted in [
            "Makefile:23: *** missing separator.  Stop.",
            "ok so now: TypeError: Cannot read properties of undefined",
            "hm, got connect ECONNREFUSED 127.0.0.1:5432 right away",
        ] {
            assert_eq!(admit(pasted), Ok(Frame::Debug), "{pasted}");
        }
        assert_eq!(
            admit("ok great, thanks a lot for that"),
            Err("conversation")
        );
        // Terse work without a frame word, and work after a word of thanks, are looked
        // up; the floor judges them like any other.
        for work in [
            "terraform lock stuck",
            "the worker pool keeps growing overnight",
            "ok the emulator reaches the backend now, thanks. but on the phone every call still fails",
            "nice, the handler logs carry the request id now. give the pricing client the same treatment",
        ] {
            assert!(admit(work).is_ok(), "{work}");
        }
        // Chinese and Japanese have no spaces: a request of a dozen characters is a
        // request, not one word; two characters are still too short to look up.
        assert!(admit("把缓存的过期时间改成五分钟，然后重新部署到测试环境").is_ok());
        assert!(admit("設定画面にダークモードの切り替えを追加して").is_ok());
        assert_eq!(admit("好的"), Err("short"));
    }

    #[test]
    fn questions_of_how_something_works() {
        for how in [
            "how does rust_decimal store a value internally",
            "whats the actual difference between logical_date and data_interval_start?",
            "why does it pick that template? explain the lookup order a bit",
            "curious: what is the t= part of that header for",
            "Explain what the retry middleware does under the hood",
        ] {
            assert!(asks_how_it_works(how), "{how}");
        }
        for work in [
            "how do i run the migrations locally",
            "the explainer page 404s after the deploy",
            "fix the rounding difference between invoice total and lines",
            "fix the import and explain what was wrong",
            "error[E0502]: cannot borrow `x` as mutable\nFor more information about this error, try `rustc --explain E0502`.",
            "EXPLAIN ANALYZE select * from postings does a seq scan, why?",
            "add a curiously named flag --dry to the import command",
            "fix the failing export test",
        ] {
            assert!(!asks_how_it_works(work), "{work}");
        }
    }
}
