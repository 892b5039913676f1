//! The use detector: whether a tool call acted on an injected memory (read the item's
//! file, ran a command its advice names, touched a file it names or a folder it covers).
//! The counts it feeds are `memory::usage`; what a session watches, `memory::memo`.
//!
//! Only positive acts are seen: "never run X" is used when X is *not* run, which no
//! single tool call shows, so such spans are not cues at all.

use globset::Glob;

use crate::memory::memo::{Cue, Watch};

/// What an injected item looks like to the use detector: its file and its advice.
/// Its `paths` globs are not looked at: they say where the advice applies, and a
/// file edited there is no sign that it was followed.
pub struct Injected<'a> {
    pub id: &'a str,
    pub action: &'a str,
}

/// Whether any of `cues` is more than the item's own file: something its advice names.
pub fn observable(cues: &[Cue]) -> bool {
    // `cues` puts the item's own file first.
    cues.len() > 1
}

/// The cues that would show an item was used (the item's own file first).
pub fn cues(item: &Injected) -> Vec<Cue> {
    let mut out = vec![Cue::File(item.id.to_string())];
    let mut add = |cue: Cue| {
        if !out.contains(&cue) {
            out.push(cue);
        }
    };
    for span in advised_spans(item.action) {
        if let Some(cue) = path_cue(&span) {
            add(cue);
            continue;
        }
        // `pnpm tsc --noEmit && pnpm lint` is two commands, each run on its own.
        for part in span.split(['&', '|', ';']) {
            if let Some(command) = command_core(part) {
                add(Cue::Command(command));
            }
        }
    }
    for command in plain_commands(item.action) {
        if let Some(command) = command_core(&command) {
            add(Cue::Command(command));
        }
    }
    // Paths in the prose: "also update migrations/", "see docs/adr/NNNN-<title>.md";
    // not the ones it warns against or names as its condition ("when editing x").
    let mut at = 0;
    for word in item.action.split_inclusive(char::is_whitespace) {
        let before = &item.action[..at];
        at += word.len();
        let word = word
            .trim()
            .trim_matches(|c: char| ",;:()\"'`".contains(c))
            .trim_end_matches('.');
        if !word.contains('/') || clause_warns(before) || clause_is_condition(before) {
            continue;
        }
        if let Some(cue) = path_cue(word) {
            add(cue);
        }
    }
    // A bare program ("use uv") says less than the advice's own commands for it
    // (`uv add`, `uv sync --frozen`): `uv pip install` is not following it.
    let commands: Vec<String> = out
        .iter()
        .filter_map(|c| match c {
            Cue::Command(cmd) => Some(cmd.clone()),
            _ => None,
        })
        .collect();
    out.retain(|c| match c {
        Cue::Command(cmd) if !cmd.contains(' ') => !commands
            .iter()
            .any(|other| other.starts_with(&format!("{cmd} "))),
        _ => true,
    });
    out
}

/// A path the advice names, as a cue: a file by its name, a folder (or a file name
/// with placeholders, `docs/adr/NNNN-<title>.md`) by what lies under it.
fn path_cue(text: &str) -> Option<Cue> {
    if text.contains(char::is_whitespace) || text.contains("://") {
        return None;
    }
    let placeholder = text.contains(['<', '{', '*']) || text.contains("NNNN");
    if !placeholder && looks_like_path(text) {
        return Some(Cue::File(text.to_string()));
    }
    if !text.contains('/') {
        return None;
    }
    let folder = match text.rfind('/') {
        Some(end) if placeholder => &text[..=end],
        _ if text.ends_with('/') => text,
        _ => return None,
    };
    let folder = folder.trim_start_matches("./");
    let sane = folder.len() > 1
        && folder.chars().any(char::is_alphabetic)
        && !folder.contains(['<', '{', '*', '$']);
    sane.then(|| Cue::Glob(format!("{folder}**")))
}

/// The part of an advised command that a run of it shows: its leading words up to the
/// first placeholder, path or file argument, and every option it gives (`kubectl logs
/// <pod> --previous` → `kubectl logs --previous`; `pnpm add <pkg>` → `pnpm add`).
fn command_core(span: &str) -> Option<String> {
    let mut kept = Vec::new();
    let mut in_head = true;
    for token in span.split_whitespace() {
        if token.starts_with('-') && token.len() > 1 {
            if !token.contains(['<', '{', '$']) {
                kept.push(token);
            }
            continue;
        }
        let argument = token.contains(['<', '[', '{', '/', '$', '*', '='])
            || token.starts_with('.')
            || looks_like_path(token);
        if argument {
            in_head = false;
        } else if in_head {
            kept.push(token);
        }
    }
    let first = kept.first()?;
    first
        .starts_with(|c: char| c.is_ascii_alphanumeric())
        .then(|| kept.join(" "))
}

/// The clause a span or word sits in, as written before it: from the last sentence
/// or clause break.
fn clause(before: &str) -> String {
    let start = before
        .rfind(['.', ';', ':', '!', '?', ',', '(', ')', '\n'])
        .map_or(0, |i| i + 1);
    format!(" {} ", before[start..].to_lowercase())
}

/// Whether the clause so far warns against what follows ("never hand-edit files in").
fn clause_warns(before: &str) -> bool {
    let clause = clause(before);
    [
        " never ",
        " don't ",
        " do not ",
        " not ",
        " avoid ",
        " no ",
        " without ",
    ]
    .iter()
    .any(|w| clause.contains(w))
}

/// Whether the clause so far is the advice's condition ("when editing"), not its
/// action.
fn clause_is_condition(before: &str) -> bool {
    let clause = clause(before);
    [" when ", " whenever ", " if ", " after "]
        .iter()
        .any(|w| clause.contains(w))
}

/// The `code spans` of an action that it advises, not those it warns against
/// ("use `pnpm`, not `npm`" advises `pnpm` only; "never a bare `terraform apply`").
fn advised_spans(action: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = action;
    let mut before_len = 0;
    while let Some(open) = rest.find('`') {
        let Some(close) = rest[open + 1..].find('`') else {
            break;
        };
        let span = rest[open + 1..open + 1 + close].trim();
        let before = action[..before_len + open].to_lowercase();
        let trimmed = before.trim_end_matches(['(', ' ', ',']);
        // A negation anywhere in the clause warns (`clause_warns`); these words warn
        // only right before the span ("instead of `npm`", "a plain `cargo test`").
        let warned = ["instead of", "rejected", "over", "plain", "bare", "old"]
            .iter()
            .any(|w| {
                trimmed.ends_with(w)
                    && !trimmed[..trimmed.len() - w.len()].ends_with(|c: char| c.is_alphanumeric())
            })
            || clause_warns(&before);
        if !warned && span.chars().count() >= 2 && span.len() <= 200 {
            out.push(span.to_string());
        }
        let consumed = open + 1 + close + 1;
        before_len += consumed;
        rest = &rest[consumed..];
    }
    out
}

/// Commands an action names without code spans: "use cargo nextest run; …" names
/// `cargo nextest run`, "run git pull --rebase first" names `git pull --rebase`. A clause
/// that starts with an advising verb is read up to where the advice turns to prose; a
/// phrase that is not a command ("use early returns") costs nothing, as no shell command
/// contains it.
fn plain_commands(action: &str) -> Vec<String> {
    const VERBS: [&str; 4] = ["use ", "run ", "prefer ", "try "];
    const PROSE: [&str; 10] = [
        " instead", " not ", " before", " after", " when", " first", " rather", " so ", " because",
        " to ",
    ];
    let mut out = Vec::new();
    for clause in action
        .split(['\n', ';', ',', '(', ')'])
        .flat_map(|c| c.split(": "))
    {
        let clause = without_filler(clause.trim().trim_end_matches('.'));
        let lower = clause.to_lowercase();
        let Some(verb) = VERBS.iter().find(|v| lower.starts_with(*v)) else {
            continue;
        };
        let mut rest = &clause[verb.len()..];
        let rest_lower = rest.to_lowercase();
        if let Some(cut) = PROSE.iter().filter_map(|p| rest_lower.find(p)).min() {
            rest = &rest[..cut];
        }
        let words: Vec<&str> = rest.split_whitespace().take(4).collect();
        let shell_like = words.iter().all(|w| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:@+".contains(c))
        });
        let starts_like_a_program = words
            .first()
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
        if shell_like && starts_like_a_program && !out.contains(&words.join(" ")) {
            out.push(words.join(" "));
        }
    }
    out
}

/// A rule as people type it, without the words before its verb: "always run …",
/// "please use …", "make sure to run …", "we use …".
fn without_filler(clause: &str) -> &str {
    const FILLER: [&str; 10] = [
        "always ",
        "please ",
        "just ",
        "make sure to ",
        "make sure you ",
        "remember to ",
        "be sure to ",
        "you should ",
        "you must ",
        "we ",
    ];
    let mut rest = clause;
    while let Some(f) = FILLER.iter().find(|f| {
        rest.get(..f.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(f))
    }) {
        rest = rest[f.len()..].trim_start();
    }
    rest
}

/// `src/schema.rs`, `Cargo.toml`, `.env.example`: one token, a dot in its last part.
fn looks_like_path(text: &str) -> bool {
    if text.contains(char::is_whitespace) {
        return false;
    }
    let last = text.rsplit('/').next().unwrap_or(text);
    last.contains('.') && last.chars().any(char::is_alphabetic) && !last.ends_with('.')
}

/// What a tool call touched.
#[derive(Debug, Default)]
pub struct Touch<'a> {
    /// The file as given (absolute) and relative to the project.
    pub file: Option<&'a str>,
    pub relative: Option<&'a str>,
    pub command: Option<&'a str>,
}

fn seen_in(cue: &Cue, touch: &Touch) -> bool {
    match cue {
        Cue::File(suffix) => {
            let file_hit = [touch.file, touch.relative]
                .into_iter()
                .flatten()
                .any(|f| f == suffix || f.ends_with(&format!("/{suffix}")));
            file_hit || touch.command.is_some_and(|c| contains_word(c, suffix))
        }
        Cue::Command(cmd) => touch.command.is_some_and(|line| runs(line, cmd)),
        Cue::Glob(glob) => Glob::new(glob).map(|g| g.compile_matcher()).is_ok_and(|m| {
            [touch.file, touch.relative]
                .into_iter()
                .flatten()
                .any(|f| m.is_match(f))
        }),
    }
}

/// Whether a command line runs `cmd`: one of its simple commands (wrappers, `cd` and
/// assignments aside) holds it. A command that only prints, searches or shows text
/// (`echo "run pnpm lint"`, `grep -r "cargo test"`) runs nothing it names.
fn runs(line: &str, cmd: &str) -> bool {
    const TEXT_ONLY: &[&str] = &[
        "echo", "printf", "grep", "rg", "egrep", "ag", "ack", "cat", "less", "head", "tail", "sed",
        "awk", "man",
    ];
    crate::shell::parse(crate::text::clip_chars(line, 10_000))
        .iter()
        .filter(|c| !TEXT_ONLY.contains(&c.tool()))
        .any(|c| {
            // The advised words in order, its options anywhere after them.
            let (options, words): (Vec<&str>, Vec<&str>) =
                cmd.split_whitespace().partition(|t| t.starts_with('-'));
            let text = std::iter::once(c.program.as_str())
                .chain(c.words())
                .collect::<Vec<_>>()
                .join(" ");
            contains_word(&text, &words.join(" "))
                && options.iter().all(|o| {
                    c.args
                        .iter()
                        .any(|a| a == o || a.starts_with(&format!("{o}=")))
                })
        })
}

/// Whether `needle` occurs in `haystack` with no word character glued to either end
/// (`npm` is not in `pnpm install`), whitespace runs counting as one space.
fn contains_word(haystack: &str, needle: &str) -> bool {
    let hay = squeeze(crate::text::clip_chars(haystack, 10_000));
    let needle = squeeze(needle);
    if needle.is_empty() {
        return false;
    }
    let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let mut from = 0;
    while let Some(at) = hay[from..].find(&needle) {
        let start = from + at;
        let end = start + needle.len();
        if !glued(hay[..start].chars().next_back()) && !glued(hay[end..].chars().next()) {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The watched items this tool call used; they are taken out of `watching`.
pub fn take_used(watching: &mut Vec<Watch>, touch: &Touch) -> Vec<String> {
    let mut used = Vec::new();
    watching.retain(|w| {
        let hit = w.cues.iter().any(|c| seen_in(c, touch));
        if hit {
            used.push(w.id.clone());
        }
        !hit
    });
    used
}

#[cfg(test)]
mod tests;
