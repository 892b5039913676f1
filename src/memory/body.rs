//! The structure of a markdown body (title, sections) as pulldown-cmark sees it, and
//! the one body edit the program makes: appending a bullet to a section.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

use super::frontmatter::Document;

#[derive(Debug)]
struct Heading {
    level: HeadingLevel,
    text: String,
    range: Range<usize>,
}

fn headings(body: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut current: Option<Heading> = None;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some(Heading {
                    level,
                    text: String::new(),
                    range,
                });
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// The text of the first level-1 heading.
pub fn title(body: &str) -> Option<String> {
    headings(body)
        .into_iter()
        .find(|h| h.level == HeadingLevel::H1)
        .map(|h| h.text.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// The byte range of the content under the heading named `name` (case-insensitive), up
/// to the next heading of the same or a higher level.
pub fn section(body: &str, name: &str) -> Option<Range<usize>> {
    let all = headings(body);
    let at = all
        .iter()
        .position(|h| h.text.trim().eq_ignore_ascii_case(name))?;
    let start = line_end(body, all[at].range.end);
    let end = all[at + 1..]
        .iter()
        .find(|h| h.level <= all[at].level)
        .map_or(body.len(), |h| h.range.start);
    Some(start..end.max(start))
}

fn line_end(text: &str, from: usize) -> usize {
    if from > 0 && text.as_bytes().get(from - 1) == Some(&b'\n') {
        return from;
    }
    text[from..].find('\n').map_or(text.len(), |i| from + i + 1)
}

/// Appends `- bullet` at the end of the section `heading` (level 2), creating the
/// section at the end of the body when it is missing. Nothing else in the body moves.
pub fn append_bullet(doc: &mut Document, heading: &str, bullet: &str) {
    let nl = doc.newline();
    let body = doc.body().to_string();
    match section(&body, heading) {
        Some(range) => {
            let content = &body[range.clone()];
            let kept = content.trim_end().len();
            let at = range.start + kept;
            let (prefix, ends_list) = if kept == 0 {
                (nl.to_string(), false)
            } else {
                let last_line = content[..kept].rsplit('\n').next().unwrap_or("");
                (
                    nl.to_string(),
                    last_line.trim_start().starts_with(['-', '*']),
                )
            };
            let gap = if ends_list || kept == 0 { "" } else { nl };
            let text = if kept == 0 {
                format!("{prefix}- {bullet}{nl}")
            } else {
                format!("{prefix}{gap}- {bullet}")
            };
            doc.splice_body(at..at, &text);
        }
        None => {
            let sep = if body.is_empty() || body.ends_with('\n') {
                ""
            } else {
                nl
            };
            let text = format!("{sep}{nl}## {heading}{nl}{nl}- {bullet}{nl}");
            doc.splice_body(body.len()..body.len(), &text);
        }
    }
}

/// Replaces the content under heading `name` with `content` (which should end with a
/// newline), or appends the section at the end of the body when it is missing.
pub fn replace_section(doc: &mut Document, name: &str, content: &str) {
    let nl = doc.newline();
    let body = doc.body().to_string();
    match section(&body, name) {
        Some(range) => {
            // Keep the blank line that separates this section from the next heading.
            let trailing = if range.end < body.len() { nl } else { "" };
            let text = format!("{nl}{content}{trailing}");
            doc.splice_body(range, &text);
        }
        None => {
            let sep = if body.is_empty() || body.ends_with('\n') {
                ""
            } else {
                nl
            };
            let text = format!("{sep}{nl}## {name}{nl}{nl}{content}");
            doc.splice_body(body.len()..body.len(), &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(body: &str) -> Document {
        Document::parse(format!("---\na: 1\n---\n{body}")).unwrap()
    }

    #[test]
    fn title_is_first_h1() {
        assert_eq!(
            title("\n## x\n# Use `nextest`\n# Other\n").as_deref(),
            Some("Use nextest")
        );
        assert_eq!(title("no heading"), None);
    }

    #[test]
    fn bullet_appends_after_last_bullet_of_section() {
        let mut d = doc("\n# T\n\n## Evidence\n\n- one\n- two\n\n## Notes\n\nkeep\n");
        append_bullet(&mut d, "Evidence", "three");
        assert_eq!(
            d.body(),
            "\n# T\n\n## Evidence\n\n- one\n- two\n- three\n\n## Notes\n\nkeep\n"
        );
    }

    #[test]
    fn bullet_at_end_of_file_without_newline() {
        let mut d = doc("# T\n\n## Evidence\n\n- one");
        append_bullet(&mut d, "Evidence", "two");
        assert_eq!(d.body(), "# T\n\n## Evidence\n\n- one\n- two");
    }

    #[test]
    fn empty_section_gets_a_bullet() {
        let mut d = doc("# T\n\n## Evidence\n");
        append_bullet(&mut d, "evidence", "one");
        assert_eq!(d.body(), "# T\n\n## Evidence\n\n- one\n");
    }

    #[test]
    fn missing_section_is_created_at_end() {
        let mut d = doc("# T\n\nSome prose.\n");
        append_bullet(&mut d, "Evidence", "one");
        assert_eq!(d.body(), "# T\n\nSome prose.\n\n## Evidence\n\n- one\n");
    }

    #[test]
    fn section_replaced_in_place() {
        let mut d = doc("# S\n\n## Files touched\n\n- a.rs\n\n## Summary\n\nkeep\n");
        replace_section(&mut d, "Files touched", "- a.rs\n- b.rs\n");
        assert_eq!(
            d.body(),
            "# S\n\n## Files touched\n\n- a.rs\n- b.rs\n\n## Summary\n\nkeep\n"
        );
        replace_section(&mut d, "Summary", "new\n");
        assert_eq!(
            d.body(),
            "# S\n\n## Files touched\n\n- a.rs\n- b.rs\n\n## Summary\n\nnew\n"
        );
        let mut e = doc("# S\n");
        replace_section(&mut e, "Files touched", "- x\n");
        assert_eq!(e.body(), "# S\n\n## Files touched\n\n- x\n");
    }

    #[test]
    fn heading_inside_code_block_is_not_a_section() {
        let mut d = doc("# T\n\n```\n## Evidence\n```\n");
        append_bullet(&mut d, "Evidence", "one");
        assert!(
            d.body()
                .ends_with("```\n## Evidence\n```\n\n## Evidence\n\n- one\n")
        );
    }
}
