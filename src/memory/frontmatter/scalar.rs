//! The values the program writes into frontmatter, and how each is spelled: following
//! the quoting style of the value it replaces, or in a new file text quoted and words
//! plain, always so that it reads back as the same value.

/// A value the program writes into a frontmatter key.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// Text; written plain when safe and the old value was plain, else quoted. In a new
    /// file, always quoted.
    Text(String),
    /// A word (a domain, a date, an enum value): written plain whenever that reads back
    /// as the same string.
    Plain(String),
    /// A confidence and the like: always two decimals.
    Number(f64),
    /// A count.
    Int(i64),
    Bool(bool),
    /// A list of strings, written inline as `["a", "b"]`.
    List(Vec<String>),
}

/// Renders a value, following the quoting style of the value it replaces.
pub(super) fn render(value: &Scalar, old: &str) -> String {
    match value {
        Scalar::Number(n) => format!("{n:.2}"),
        Scalar::Int(i) => i.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::List(items) => {
            let quoted: Vec<String> = items.iter().map(|s| quote_double(s)).collect();
            format!("[{}]", quoted.join(", "))
        }
        Scalar::Plain(text) if is_plain_safe(text) && !old.starts_with(['"', '\'']) => text.clone(),
        Scalar::Text(text) | Scalar::Plain(text) => {
            if old.starts_with('\'') {
                format!("'{}'", text.replace('\'', "''"))
            } else if old.starts_with('"') || !is_plain_safe(text) {
                quote_double(text)
            } else {
                text.clone()
            }
        }
    }
}

/// The frontmatter of a new file: `fields` in order, text quoted, words plain.
pub fn render_new(fields: &[(&str, Scalar)]) -> String {
    let mut out = String::from("---\n");
    for (key, value) in fields {
        let fresh = match value {
            Scalar::Text(_) => render(value, "\""),
            _ => render(value, ""),
        };
        out.push_str(&format!("{key}: {fresh}\n"));
    }
    out.push_str("---\n");
    out
}

/// A YAML double-quoted string (JSON escaping is valid YAML).
pub fn quote_double(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

/// Whether `text` reads back as the same string when written without quotes.
fn is_plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let lowered = text.to_ascii_lowercase();
    let special_word = matches!(
        lowered.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
    );
    (first.is_ascii_alphanumeric() || first == '/' || first == '.')
        && !special_word
        && text.parse::<f64>().is_err()
        && !text.ends_with([':', ' '])
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.contains(['\n', '\r', '\t', '"', '\'', '{', '}', '[', ']', ',', '`'])
}
