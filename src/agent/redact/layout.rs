//! Secrets found by where they sit rather than by their shape: the column of a table
//! whose header names a secret (`id,tenant,api_key,api_secret` in a CSV export), a
//! literal on the line after the name it is assigned to (Dart's and Kotlin's formatters
//! break `muxTokenSecret =` from its value), and the attributes Terraform's state marks
//! sensitive (`"sensitive_attributes"`, which hold a `random_password`'s `result`).

use std::sync::OnceLock;

use regex::Regex;

use super::REDACTED;
use super::near::spoken;
use super::value::{is_placeholder, is_secret_value};

/// Words that make a name a secret's.
const SECRET_NAMES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "api key",
    "apikey",
    "private key",
    "access key",
    "credential",
];

/// A value of a secret's length and no meaning, to ask whether a name takes secrets
/// (`token_count` takes a count, `api_secret` a secret).
const SAMPLE: &str = "Zq8vT2mX9kL4";

/// `name` in snake case (`tokenCount` as `token_Count`, so that what a name is about
/// reads as `ABOUT` words are matched), if it is the name of a secret: it says so, its
/// last word is the secret's (`password_changed_at` holds a date), and it is not about
/// one (`token_count`).
pub(super) fn secret_name(name: &str) -> Option<String> {
    let split = crate::text::split_camel(name);
    let said = spoken(&split);
    let snake = split.replace(' ', "_");
    // `pass` and `pwd` only as a word of their own (`RCLONE_CONFIG_PASS`, not `bypass`).
    let last_word = said.split_whitespace().next_back().unwrap_or("");
    let says = SECRET_NAMES.iter().any(|w| said.trim_end().ends_with(w))
        || matches!(last_word, "pass" | "pwd");
    (says && is_secret_value(&snake, SAMPLE)).then_some(snake)
}

/// The name a column headed `Key` alone is read under.
const BARE_KEY: &str = "key";

/// Whether `value` is to be hidden under the secret's name `snake` (as `secret_name`
/// gives it).
pub(super) fn hidden(snake: &str, value: &str) -> bool {
    (snake != BARE_KEY || super::near::looks_secret(value))
        && value.len() >= MIN_VALUE
        && value.chars().any(char::is_alphanumeric)
        && !is_placeholder(value)
        && is_secret_value(snake, value)
}

/// The shortest value taken from a drawn table (a design token's `Display/D5` is none).
const MIN_DRAWN: usize = 16;

/// The shortest value taken for a secret here (a table's `---` rule, `n/a`, `true`).
const MIN_VALUE: usize = 8;

/// A row's fields split at `delimiter`, a quoted field (`"Acme, Inc"`) whole.
fn fields(row: &str, delimiter: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in row.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == delimiter && !quoted {
            out.push(&row[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&row[start..]);
    out
}

/// The values of a table's columns whose header names a secret, each data row until the
/// table ends (a row with another number of fields).
pub fn secret_columns(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if !SECRET_NAMES
        .iter()
        .any(|w| lower.contains(&w.replace(' ', "_")) || lower.contains(w))
        && !lower.contains("| key ")
    {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    // The table read now.
    let mut table: Option<Table> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some(Table {
            delimiter,
            drawn,
            width,
            columns,
        }) = &table
        {
            // A drawn table's rule (`+------+----+`, `|---|---|`) goes on with it.
            if is_rule(body) {
                out.push_str(line);
                continue;
            }
            let (left, inner, right) = borders(body, *delimiter);
            let fields = fields(inner, *delimiter);
            if fields.len() == *width {
                let mut row: Vec<String> = fields.iter().map(|f| (*f).to_string()).collect();
                for (at, name) in columns {
                    let value = fields[*at].trim().trim_matches(['"', '`']);
                    let drawn_secret = value.len() >= MIN_DRAWN && super::near::looks_secret(value);
                    if hidden(name, value) && (!drawn || drawn_secret) {
                        row[*at] = fields[*at].replace(value, REDACTED);
                        changed = true;
                    }
                }
                out.push_str(left);
                out.push_str(&row.join(&delimiter.to_string()));
                out.push_str(right);
                out.push_str(&line[body.len()..]);
                continue;
            }
        }
        table = header(body);
        out.push_str(line);
    }
    changed.then_some(out)
}

/// A table as its header says: how its fields are split, how many there are, and the
/// positions and names (as `secret_name` gives them) of those that name a secret.
struct Table {
    delimiter: char,
    /// Drawn with outer bars (`| a | b |`): a document's table as often as a tool's,
    /// so only what looks like a secret is taken from it.
    drawn: bool,
    width: usize,
    columns: Vec<(usize, String)>,
}

/// A drawn table's rule line: dashes or equals signs, with `+`, `|`, `:` and spaces.
fn is_rule(line: &str) -> bool {
    let line = line.trim();
    line.contains(['-', '=', '─'])
        && line
            .chars()
            .all(|c| matches!(c, '-' | '=' | '+' | '|' | ':' | ' ' | '─' | '┼' | '│'))
}

/// A drawn table's row without its outer bars (`| a | b |`): what stands left of the
/// fields, the fields, what stands right of them.
fn borders(row: &str, delimiter: char) -> (&str, &str, &str) {
    let trimmed = row.trim();
    if delimiter != '|' || trimmed.len() < 2 || !trimmed.starts_with('|') || !trimmed.ends_with('|')
    {
        return ("", row, "");
    }
    let start = row.find('|').map_or(0, |i| i + 1);
    let end = row.rfind('|').unwrap_or(row.len());
    (&row[..start], &row[start..end], &row[end..])
}

/// A table's header: three fields or more (two in a drawn table), each a name, some
/// naming a secret.
fn header(line: &str) -> Option<Table> {
    let delimiter = [',', '\t', ';', '|']
        .into_iter()
        .max_by_key(|d| line.matches(*d).count())?;
    let (_, inner, _) = borders(line, delimiter);
    let drawn = inner.len() < line.len();
    let fields: Vec<&str> = fields(inner, delimiter)
        .into_iter()
        .map(str::trim)
        .collect();
    let named = fields.iter().all(|f| {
        let f = f.trim_matches('"');
        !f.is_empty()
            && f.len() <= 40
            && f.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
    });
    if fields.len() < if drawn { 2 } else { 3 } || !named {
        return None;
    }
    // A column headed `Key` alone holds keys in a CLI's table (`civo apikey show`) and
    // names in a settings table; only what looks like a secret is taken from it.
    let columns: Vec<(usize, String)> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let f = f.trim_matches('"');
            let bare_key = f.eq_ignore_ascii_case("key");
            bare_key
                .then(|| BARE_KEY.to_string())
                .or_else(|| secret_name(f))
                .map(|name| (i, name))
        })
        .collect();
    (!columns.is_empty()).then_some(Table {
        delimiter,
        drawn,
        width: fields.len(),
        columns,
    })
}

/// A quoted literal alone on the line after `name =` or `name:` that names a secret.
pub fn value_on_next_line(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut name: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(key) = name.take()
            && let Some((quote, literal)) = lone_literal(trimmed)
            && hidden(&key, literal)
        {
            let (open, close) = if trimmed.starts_with("<string>") {
                (">".to_string(), "<".to_string())
            } else {
                (quote.to_string(), quote.to_string())
            };
            let quoted = format!("{open}{literal}{close}");
            out.push_str(&line.replacen(&quoted, &format!("{open}{REDACTED}{close}"), 1));
            changed = true;
            continue;
        }
        name = assigned_name(trimmed)
            .or_else(|| echoed_name(trimmed))
            .or_else(|| plist_key(trimmed))
            .and_then(|n| secret_name(&n));
        out.push_str(line);
    }
    changed.then_some(out)
}

/// The name a line ends assigning to (`static const String muxTokenSecret =`).
fn assigned_name(line: &str) -> Option<String> {
    let rest = line
        .strip_suffix('=')
        .or_else(|| line.strip_suffix(':'))?
        .trim_end();
    let name: String = rest
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | '\''))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let name = name.trim_matches(['"', '\'']).to_string();
    (!name.is_empty()).then_some(name)
}

/// The name a REPL line asks to see (`>>> auth_client.refresh_token`, `irb> cfg.api_key`):
/// the interpreter prints its value on the next line.
fn echoed_name(line: &str) -> Option<String> {
    let expr = [">>> ", "irb> ", "> ", "In ["]
        .iter()
        .find_map(|p| line.strip_prefix(p))?;
    // IPython's `In [3]: x.token`.
    let expr = expr.split_once("]: ").map_or(expr, |(_, rest)| rest).trim();
    let path = !expr.is_empty()
        && expr
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.'));
    path.then(|| expr.rsplit('.').next().unwrap_or(expr).to_string())
}

/// The name of a property list's key (`<key>RCLONE_CONFIG_PASS</key>`), whose value is
/// the next line's `<string>`.
fn plist_key(line: &str) -> Option<String> {
    let name = line.strip_prefix("<key>")?.strip_suffix("</key>")?;
    (!name.is_empty() && !name.contains('<')).then(|| name.to_string())
}

/// The quote and content of a line that is one quoted literal (`'…';`, `"…",`), or a
/// property list's `<string>…</string>` (returned with `"` for its quote).
fn lone_literal(line: &str) -> Option<(char, &str)> {
    if let Some(inner) = line
        .strip_prefix("<string>")
        .and_then(|l| l.strip_suffix("</string>"))
    {
        return (!inner.contains('<')).then_some(('"', inner));
    }
    let line = line.trim_end_matches([';', ',']).trim_end();
    let quote = line.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = line.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(quote)).then_some((quote, inner))
}

/// The most attribute names of Terraform's state looked up (a state has a handful).
const MAX_SENSITIVE_NAMES: usize = 32;

/// The values of the attributes Terraform's state lists as sensitive.
pub fn terraform_sensitive(text: &str) -> Option<String> {
    if !text.contains("\"sensitive_attributes\"") {
        return None;
    }
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let named = NAMED.get_or_init(|| {
        Regex::new(r#""get_attr",\s*"value":\s*"([A-Za-z0-9_]+)""#).expect("a valid pattern")
    });
    let mut out = text.to_string();
    let mut changed = false;
    let mut names: Vec<&str> = named
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    // A pattern is built per name: a hostile state with thousands must not stall a hook.
    for name in names.into_iter().take(MAX_SENSITIVE_NAMES) {
        let pair = Regex::new(&format!(
            r#"(?P<k>"{}":\s*")(?:[^"\\]|\\.)+""#,
            regex::escape(name)
        ))
        .expect("an escaped name is a valid pattern");
        let replaced = pair.replace_all(&out, format!("${{k}}{REDACTED}\"").as_str());
        if let std::borrow::Cow::Owned(replaced) = replaced {
            out = replaced;
            changed = true;
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_named_for_a_secret() {
        let csv = "id,tenant,api_key,token_count\n1,acme,Zx81kQpL02mNvB7w,12\n\nok,done\n";
        let out = secret_columns(csv).unwrap();
        assert!(!out.contains("Zx81kQpL02mNvB7w"), "{out}");
        assert!(out.contains(",12\n"), "{out}");
        assert!(out.ends_with("\nok,done\n"), "{out}");
        // A table that names no secret, and a secret column left empty.
        assert_eq!(secret_columns("id,name,email\n1,a,b\n"), None);
        assert_eq!(secret_columns("id,tenant,api_key\n1,acme,\n"), None);
        // A quoted comma does not end the table; a date under a name about a secret
        // and a markdown rule are no secrets.
        let quoted =
            "id,company,api_key\n1,\"Acme, Inc\",Zx81kQpL02mNvB7w\n2,Beta,Qw93LmZp81xTbR4v\n";
        let out = secret_columns(quoted).unwrap();
        assert!(
            !out.contains("Zx81kQpL02mNvB7w") && !out.contains("Qw93LmZp81xTbR4v"),
            "{out}"
        );
        assert!(out.contains("\"Acme, Inc\""), "{out}");
        assert_eq!(
            secret_columns("id,email,password_changed_at\n1,a@b.c,2024-05-01T10:00:00Z\n"),
            None
        );
        assert_eq!(
            secret_columns("Name | Token | Notes\n--- | --- | ---\n"),
            None
        );
    }

    #[test]
    fn a_literal_on_the_line_after_its_name() {
        let dart = "  static const String muxTokenSecret =\n      'rMjOd4VYVwY0uzSoFJFZd844bnW';\n";
        let out = value_on_next_line(dart).unwrap();
        assert!(!out.contains("rMjOd4VYVwY0uzSoFJFZd844bnW"), "{out}");
        for kept in [
            "password:\n  from_secret: registry_password\n",
            "static const String apiBaseUrl =\n    'https://api.acme.io/v2';\n",
            "val tokenCount =\n    \"twelve thousand\"\n",
        ] {
            assert_eq!(value_on_next_line(kept), None, "{kept}");
        }
    }

    #[test]
    fn what_terraform_marks_sensitive() {
        let state = r#""result": "P-:*A2hRv?hsMx#MH>p+<YYb",
        "special": true
      },
      "sensitive_attributes": [[{ "type": "get_attr", "value": "result" }]]"#;
        let out = terraform_sensitive(state).unwrap();
        assert!(!out.contains("A2hRv"), "{out}");
        assert!(out.contains("\"special\": true"), "{out}");
        // An escaped quote is inside the value, not its end.
        let escaped = r#""result": "ab\"cdEF12gh9", "sensitive_attributes": [[{ "type": "get_attr", "value": "result" }]]"#;
        let out = terraform_sensitive(escaped).unwrap();
        assert!(!out.contains("cdEF12gh9"), "{out}");
    }
}
