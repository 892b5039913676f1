//! (b) What the user told the agent: rules stated outright ("always run migrations with
//! --fake-initial", "don't use npm here, use pnpm", "named exports only, never export
//! default"), and the instruction that follows a rejected or interrupted tool call.
//!
//! A rule is a sentence in the imperative: it starts with the rule word, so "AVX512
//! won't always be available" or "we don't need to check" are no rules, and questions
//! and hedges ("does it always prompt?", "I'm not sure we should never cache") are
//! kept out. The same rule in other words is one rule: it is keyed on its polarity and
//! the things it names (avoid npm; prefer httpx), not on its wording.
//!
//! Only the user's own typed words count: what they pasted (a fenced block, a quoted or
//! indented block, log lines, a README) is set aside first (`agent::typed`), and a
//! sentence about something ("I only see js/ts stuff", "it is not installed yet") is a
//! statement, not an imperative.

use std::sync::OnceLock;

use regex::Regex;

mod words;

pub use words::salient;
use words::{
    NOT_A_THING, SUBJECTS, VAGUE, advice_clause, is_hedged, is_question, not_is_a_clause,
    sentences, strip_filler, trimmed, without_intensifiers,
};

use super::{Finding, domain_of, sid8};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::shell;

/// A rule found in what the user said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// What to prefer and what to avoid, as the user named them.
    pub prefer: Option<String>,
    pub avoid: Option<String>,
    /// The user's sentence, as the advice.
    pub sentence: String,
    /// Stated as a rule (always/never/don't/instead of), not only an instruction.
    pub explicit: bool,
}

/// How a pattern's captures make a rule.
#[derive(Clone, Copy)]
enum Shape {
    /// `a` preferred over `b`.
    PreferAvoid,
    /// `b` (or `x`) to avoid.
    Avoid,
    /// `a` (or `x`, `c`) to do.
    Prefer,
    /// `a` to do, said as an instruction: a correction only after a stopped call, and
    /// not a stated rule.
    Instruction,
}

/// The verbs a "don't / never …" rule may start with, in their plain form (their
/// gerunds are the pattern's too): the pattern and the trigger it becomes share them.
const RULE_VERBS: &[&str] = &[
    "use",
    "run",
    "call",
    "add",
    "commit",
    "push",
    "edit",
    "touch",
    "write",
    "create",
    "delete",
    "remove",
    "modify",
    "change",
    "install",
    "make",
    "put",
    "import",
    "rely",
    "assume",
    "mock",
    "skip",
    "hardcode",
    "hard-code",
    "merge",
    "deploy",
    "rename",
    "move",
    "start",
    "open",
    "print",
    "log",
    "expose",
    "disable",
    "enable",
    "bump",
    "upgrade",
    "downgrade",
    "revert",
    "give",
    "generate",
    "guess",
    "proceed",
    "hand-edit",
];

/// The patterns, most specific first; the first that matches a sentence wins.
fn patterns() -> &'static [(Regex, Shape)] {
    static P: OnceLock<Vec<(Regex, Shape)>> = OnceLock::new();
    P.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("a valid pattern");
        vec![
            // ... no X (either), use Y  → prefer Y, avoid X
            (r(r"(?i)(?:^|[,:;-]\s*)no\s+(?P<b>[\w@./+-]+)(?:\s+either)?\s*(?:[,;:-]+\s*|\s+)(?:just\s+|only\s+)?use\s+(?P<a>[^,;.]{2,60})"), Shape::PreferAvoid),
            // no X anywhere / at all / in <place>
            (r(r"(?i)^no\s+(?P<b>[^,;.]{2,60}?)\s+(?:anywhere|at all|ever|in this repo|here)\b"), Shape::Avoid),
            // don't/never use X, use Y  → prefer Y, avoid X
            (r(r"(?i)^(?:please\s+)?(?:don'?t|do not|never|stop)\s+(?:use|using|run|running|call)\s+(?P<b>[^,;:]+?)\s*(?:[,;:-]+|\s+and)\s*(?:just\s+|only\s+|always\s+)?(?:use|run|call)\s+(?P<a>[^,;:]+)"), Shape::PreferAvoid),
            // use/prefer X instead of / over / rather than / not Y
            (r(r"(?i)^(?:please\s+)?(?:(?:always|only|just)\s+)?(?:use|prefer|run|call|pick|choose|switch to|go with|stick (?:to|with))\s+(?P<a>.+?)\s*,?\s+(?:instead of|rather than|over|not)\s+(?P<b>[^,;.]+)"), Shape::PreferAvoid),
            // don't / never / avoid <verb> ...
            (
                r(&format!(
                    r"(?i)^(?:please\s+)?(?:don'?t|do not|never|avoid|stop)\s+(?P<x>(?:{}|using|running|making|changing|editing|adding|committing|pushing|creating|deleting|removing|writing|modifying|installing|touching|reverting|giving|generating|guessing|proceeding|manually)\b.{{2,120}})",
                    RULE_VERBS.join("|")
                )),
                Shape::Avoid,
            ),
            // always <...>
            (r(r"(?i)^(?:please\s+)?always\s+(?P<x>.{3,120})"), Shape::Prefer),
            // X only / only X   (named exports only; only use pnpm)
            (r(r"(?i)^(?:only\s+(?:use\s+)?(?P<a>[\w@./+-]+(?:\s+[\w@./+-]+)?)|(?P<c>[\w@./+-]+(?:\s+[\w@./+-]+)?)\s+only)\b"), Shape::Prefer),
            // an instruction: use/run/try X (counted after a rejection or interrupt)
            (r(r"(?i)^(?:please\s+)?(?:no,?\s+)?(?:(?:you\s+(?:can|could|should)|just|instead,?)\s+)?(?:use|run|try|call|switch to|set)\s+(?P<a>[^,;.]{2,80})"), Shape::Instruction),
        ]
    })
}

/// Whether a "don't" is said for the moment: it names no thing but "anything", or
/// its time is now ("yet", "for now", "this time", "until …").
fn for_the_moment(sentence: &str) -> bool {
    let words: String = sentence
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let lower = format!(" {words} ");
    let first = lower
        .split_whitespace()
        .find(|w| *w != "please")
        .unwrap_or("");
    !matches!(first, "never" | "avoid")
        && [
            " yet ",
            " now ",
            "for now",
            "this time",
            " anything ",
            "right away",
            "at the moment",
            "for the moment",
            " until ",
        ]
        .iter()
        .any(|m| lower.contains(m))
}

/// The rule one sentence states, if any.
fn rule_of(sentence: &str, redirect: bool, said_no: bool) -> Option<Rule> {
    let quoted = crate::text::one_line(sentence, 200);
    let first = sentence
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_ascii_lowercase();
    if SUBJECTS.contains(&first.as_str()) {
        return None;
    }
    for (re, shape) in patterns() {
        let Some(c) = re.captures(sentence) else {
            continue;
        };
        if matches!(shape, Shape::PreferAvoid)
            && c.name("b")
                .is_some_and(|b| NOT_A_THING.contains(&b.as_str().to_ascii_lowercase().as_str()))
        {
            continue;
        }
        if matches!(shape, Shape::PreferAvoid) && not_is_a_clause(sentence) {
            continue;
        }
        let short = sentence.split_whitespace().count() <= 8;
        let named = |names: &[&str]| names.iter().find_map(|n| trimmed(c.name(n)));
        let (prefer, avoid, explicit) = match shape {
            Shape::PreferAvoid => (named(&["a"]), named(&["b"]), true),
            // "don't X" can be an order for the moment ("dont revert anything, figure
            // out why", "don't push yet"): no rule at all.
            Shape::Avoid if for_the_moment(sentence) => continue,
            Shape::Avoid => (None, named(&["b", "x"]), true),
            // "X only" is a rule when it is all the sentence says.
            Shape::Prefer if (c.name("c").is_some() || c.name("a").is_some()) && !short => continue,
            Shape::Prefer => (named(&["x", "a", "c"]), None, true),
            Shape::Instruction if !(redirect || said_no) => continue,
            Shape::Instruction => (named(&["a"]), None, false),
        };
        if prefer.is_none() && avoid.is_none() {
            continue;
        }
        let names_something = [&prefer, &avoid].into_iter().flatten().any(|p| {
            salient(p)
                .split_whitespace()
                .any(|w| !VAGUE.contains(&w) && w.chars().any(char::is_alphabetic))
        });
        if !names_something {
            continue;
        }
        // A one-phrase rule is said by its own clause: "dont revert anything, ur still
        // stupid, figure out why" is the rule "dont revert anything".
        let sentence = match shape {
            Shape::PreferAvoid => quoted,
            _ => ["x", "b", "a", "c"]
                .iter()
                .find_map(|n| c.name(n))
                .map(|m| {
                    // The clause from the rule's start in the sentence itself: a capture
                    // may stop early (at the `.` of `group.visible`).
                    let phrase = advice_clause(&sentence[m.start()..]);
                    crate::text::one_line(&format!("{}{phrase}", &sentence[..m.start()]), 200)
                })
                .unwrap_or(quoted),
        };
        return Some(Rule {
            prefer,
            avoid,
            sentence,
            explicit,
        });
    }
    None
}

/// The rules of one message. `redirect`: it followed a rejected or interrupted call, so
/// a plain instruction ("use pnpm") is a correction too.
pub fn rules(text: &str, redirect: bool) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for raw in sentences(text) {
        let cleaned = without_intensifiers(raw);
        let (sentence, said_no) = strip_filler(&cleaned);
        if sentence.len() < 4 || is_question(sentence) || is_hedged(sentence) {
            continue;
        }
        if let Some(rule) = rule_of(sentence, redirect, said_no)
            && !out.iter().any(|o| key_of(o) == key_of(&rule))
        {
            out.push(rule);
        }
    }
    out
}

/// The rule's key: what it avoids, else what it prefers.
fn key_of(rule: &Rule) -> String {
    match (&rule.avoid, &rule.prefer) {
        (Some(avoid), _) if !salient(avoid).is_empty() => format!("-{}", salient(avoid)),
        (_, Some(prefer)) => format!("+{}", salient(prefer)),
        _ => format!("~{}", salient(&rule.sentence)),
    }
}

/// (b) The corrections and rules of one session.
pub fn corrections(session: &[Observation]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let mut after_stop = false;
    let mut rejected_tool: Option<String> = None;
    for obs in session {
        let (text, redirect) = match (obs.event, obs.outcome) {
            (Event::Prompt, _) => (obs.prompt.as_deref(), after_stop),
            (_, Some(Outcome::Rejected)) => {
                rejected_tool =
                    obs.input.command.as_deref().and_then(|c| {
                        shell::primary(&shell::parse(c)).map(|p| p.tool().to_string())
                    });
                after_stop = true;
                (obs.prompt.as_deref(), true)
            }
            // The user's own shell command says nothing of what they last said.
            (Event::Shell, _) => continue,
            (_, Some(Outcome::Blocked)) => {
                after_stop = true;
                continue;
            }
            _ => {
                after_stop = false;
                continue;
            }
        };
        if obs.event == Event::Prompt {
            after_stop = false;
        }
        let Some(text) = text else { continue };
        // What the user pasted is not what they said.
        let typed = crate::agent::typed::typed_words(text);
        for mut rule in rules(&typed, redirect) {
            // "use pnpm" as feedback on a rejected `npm install`: pnpm over npm, a rule.
            if let (true, Some(tool), Some(prefer)) = (
                rule.avoid.is_none() && redirect && obs.outcome == Some(Outcome::Rejected),
                &rejected_tool,
                rule.prefer.clone(),
            ) && !prefer.split_whitespace().any(|w| w == tool)
            {
                rule.avoid = Some(tool.clone());
                rule.explicit = true;
                rule.sentence = format!(
                    "use {prefer}, not {tool}: the user rejected `{}` and said \"{}\"",
                    crate::text::one_line(obs.input.command.as_deref().unwrap_or(tool), 60),
                    rule.sentence
                );
            }
            let key = crate::memory::pattern::rule(&obs.project, &key_of(&rule));
            if out.iter().any(|f| f.key == key) {
                continue;
            }
            out.push(finding(obs, key, &rule, &typed));
        }
    }
    out
}

fn finding(obs: &Observation, key: String, rule: &Rule, said: &str) -> Finding {
    let mut f = Finding::seen_in(obs, key, domain_of(&rule.sentence));
    f.trigger = match (&rule.avoid, &rule.prefer) {
        (Some(avoid), _) => format!("when about to {} in {}", about(avoid), obs.project),
        (None, Some(prefer)) if !rule.explicit => {
            format!("when about to {} in {}", about(prefer), obs.project)
        }
        _ => format!("when working in {}", obs.project),
    };
    let mut sentence = rule.sentence.clone();
    if let Some(first) = sentence.get(..1) {
        sentence = first.to_uppercase() + &sentence[1..];
    }
    f.action = if sentence.contains("the user rejected") {
        sentence
    } else {
        format!("{sentence} (the user's rule)")
    };
    f.title = format!(
        "User rule: {}",
        crate::text::one_line_words(&rule.sentence, 60)
    );
    f.explicit = rule.explicit;
    f.provenance = crate::memory::provenance::Provenance::User;
    f.evidence = format!(
        "the user said \"{}\" (session {})",
        crate::text::one_line(said, 160),
        sid8(&obs.session_id)
    );
    f
}

/// "use npm" → "use npm"; "commit directly to main" → "commit directly to main".
fn about(phrase: &str) -> String {
    let words: Vec<&str> = phrase.split_whitespace().take(6).collect();
    let first = words
        .first()
        .map(|w| w.to_ascii_lowercase())
        .unwrap_or_default();
    // Said to the agent, read by it: "me" is the user.
    let said = |words: &[&str]| {
        words
            .iter()
            .map(|w| match *w {
                "me" => "the user",
                "my" => "the user's",
                w => w,
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    // A rule's own verb: "give me plans" is about to give the user plans, not to "use
    // give me plans".
    if RULE_VERBS.contains(&first.as_str()) {
        return said(&words);
    }
    // "stop making changes …" is about to make changes.
    if let Some(verb) = verb_of_gerund(&first) {
        let rest = said(words.get(1..).unwrap_or_default());
        return format!("{verb} {rest}").trim_end().to_string();
    }
    format!("use {}", words.join(" "))
}

/// The verb a gerund says (`making` → `make`, `committing` → `commit`), for the verbs a
/// rule's "stop …" or "don't …" names.
fn verb_of_gerund(word: &str) -> Option<&'static str> {
    const GERUNDS: &[(&str, &str)] = &[
        ("using", "use"),
        ("running", "run"),
        ("calling", "call"),
        ("making", "make"),
        ("changing", "change"),
        ("editing", "edit"),
        ("adding", "add"),
        ("committing", "commit"),
        ("pushing", "push"),
        ("creating", "create"),
        ("deleting", "delete"),
        ("removing", "remove"),
        ("writing", "write"),
        ("modifying", "modify"),
        ("installing", "install"),
        ("touching", "touch"),
        ("reverting", "revert"),
        ("giving", "give"),
        ("generating", "generate"),
        ("guessing", "guess"),
        ("proceeding", "proceed"),
    ];
    GERUNDS.iter().find(|(g, _)| *g == word).map(|(_, v)| *v)
}
