//! Cookies saved as records, whose value field is only called "value": a Playwright
//! `storageState`, a HAR, fastlane's `FASTLANE_SESSION` (YAML of `HTTP::Cookie`), and a
//! Netscape `cookies.txt` (its seventh column). A session cookie is a login.

use std::sync::OnceLock;

use regex::Regex;

/// The shortest value taken for a session (`1`, `true`, `dark` are preferences).
const MIN_VALUE: usize = 12;

/// How far before a value its record's `name` may stand.
const NAME_REACH: usize = 300;

/// Replaces the values of saved cookies; `None` when none.
pub fn saved_cookies(text: &str, lower: &str) -> Option<String> {
    let records = lower.contains("cookie") && lower.contains("domain");
    let netscape = text.contains("TRUE\t") || text.contains("FALSE\t");
    if !records && !netscape {
        return None;
    }
    let mut out = std::borrow::Cow::Borrowed(text);
    let mut changed = false;
    if records {
        static VALUE: OnceLock<Regex> = OnceLock::new();
        let value = VALUE.get_or_init(|| {
            Regex::new(
                r#"(?P<k>["']?\bvalue["']?\s*[:=]\s*)(?P<v>"(?:[^"\\\n]|\\.)*"|[^\s"',\\}]+)"#,
            )
            .expect("a valid pattern")
        });
        let containers = Containers::of(&text.to_ascii_lowercase());
        let replaced = value.replace_all(text, |caps: &regex::Captures| {
            let v = caps["v"].trim_matches('"');
            let at = caps.get(0).map_or(0, |m| m.start());
            let before = &text[floor(text, at.saturating_sub(NAME_REACH))..at];
            if is_session(v) && containers.cookies_before(at) && !names_analytics(before) {
                changed = true;
                let quoted = caps["v"].starts_with('"');
                let q = if quoted { "\"" } else { "" };
                format!("{}{q}{}{q}", &caps["k"], super::REDACTED)
            } else {
                caps[0].to_string()
            }
        });
        if changed {
            out = std::borrow::Cow::Owned(replaced.into_owned());
        }
    }
    if !netscape {
        return changed.then(|| out.into_owned());
    }
    // Netscape's cookies.txt: domain, flag, path, secure, expiry, name, value.
    let mut rebuilt = String::with_capacity(out.len());
    for line in out.split_inclusive('\n') {
        let fields: Vec<&str> = line.trim_end_matches(['\n', '\r']).split('\t').collect();
        let netscape = fields.len() == 7
            && matches!(fields[1], "TRUE" | "FALSE")
            && fields[4].chars().all(|c| c.is_ascii_digit())
            && is_session(fields[6])
            && !super::value::is_placeholder(fields[6])
            && !super::value::is_analytics_name(fields[5]);
        if netscape {
            let at = line.rfind(fields[6]).unwrap_or(line.len());
            rebuilt.push_str(&line[..at]);
            rebuilt.push_str(super::REDACTED);
            rebuilt.push_str(&line[at + fields[6].len()..]);
            changed = true;
        } else {
            rebuilt.push_str(line);
        }
    }
    changed.then_some(rebuilt)
}

/// Where a text opens cookies' containers and others (a HAR's headers, query strings):
/// a value stands among cookies when the last container opened before it is a cookies'
/// one (a `set-cookie` header's name is no container). Found once per text, by where
/// each container's word ends.
struct Containers(Vec<(usize, bool)>);

impl Containers {
    fn of(lower: &str) -> Self {
        let cookies = ["cookies\"", "cookies:", "http::cookie", "cookie file"];
        let others = ["header", "querystring", "\"params\"", "postdata"];
        let mut marks: Vec<(usize, bool)> = cookies
            .iter()
            .map(|w| (w, true))
            .chain(others.iter().map(|w| (w, false)))
            .flat_map(|(w, cookie)| {
                lower
                    .match_indices(w)
                    .map(move |(at, _)| (at + w.len(), cookie))
            })
            .collect();
        marks.sort_unstable();
        Self(marks)
    }

    fn cookies_before(&self, at: usize) -> bool {
        let opened = self.0.partition_point(|(end, _)| *end <= at);
        opened > 0 && self.0[opened - 1].1
    }
}

/// A value long enough and random enough to be a session, not a preference.
fn is_session(value: &str) -> bool {
    value.len() >= MIN_VALUE
        && !value.contains(super::REDACTED)
        && !value.contains(' ')
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether the last cookie name before a value is an analytics tool's.
fn names_analytics(before: &str) -> bool {
    static NAME: OnceLock<Regex> = OnceLock::new();
    let name = NAME.get_or_init(|| {
        Regex::new(r#"["']?\bname["']?\s*[:=]\s*["']?([A-Za-z0-9_.-]+)"#).expect("a valid pattern")
    });
    name.captures_iter(before)
        .last()
        .is_some_and(|c| super::value::is_analytics_name(&c[1]))
}

/// The nearest char boundary at or after `at`.
fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::saved_cookies;

    fn run(text: &str) -> Option<String> {
        saved_cookies(text, &text.to_lowercase())
    }

    #[test]
    fn a_saved_sessions_value_goes_but_not_an_analytics_id_or_a_preference() {
        let state = r#"{"cookies": [{"name": "grafana_session", "value": "9f2c4e1a7b3d5f60a8c2e4b6d8f0a1c3", "domain": "grafana.acme.io"}, {"name": "_ga", "value": "GA1.1.1577162405.1764150000", "domain": ".acme.io"}, {"name": "theme", "value": "dark", "domain": "acme.io"}]}"#;
        let out = run(state).expect("redacted");
        assert!(!out.contains("9f2c4e1a"), "{out}");
        assert!(
            out.contains("GA1.1.1577162405") && out.contains("\"dark\""),
            "{out}"
        );

        let yaml = "- !ruby/object:HTTP::Cookie\\n  name: myacinfo\\n  value: DAWTKNV3bd8bab2177127f29044d38856905\\n  domain: apple.com";
        assert!(!run(yaml).expect("redacted").contains("DAWTKNV3"));

        let jar = "# Netscape HTTP Cookie File\n.acme.io\tTRUE\t/\tTRUE\t1795000000\tsessionid\tq7W2e9R4t1Y8u3I6o5P0\n";
        assert!(!run(jar).expect("redacted").contains("q7W2e9R4"));
    }
}
