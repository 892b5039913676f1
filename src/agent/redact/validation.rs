//! What a validation error echoes back: pydantic's `input_value='…'` under the line that
//! names the field (`raygun_api_key`, `db.password`), which holds the secret the settings
//! refused.

use super::REDACTED;
use super::layout::{hidden, secret_name};

/// Lines after a field's name its error's `input_value` may stand on.
const WITHIN: usize = 2;

/// Replaces the input a validation error echoes for a field whose name is a secret's;
/// `None` when there is none.
pub fn echoed_inputs(text: &str) -> Option<String> {
    if !text.contains("input_value=") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    // The secret's name the last field line gave, and how many lines ago.
    let mut field: Option<(String, usize)> = None;
    for line in text.split_inclusive('\n') {
        if let Some((name, ago)) = &field
            && *ago < WITHIN
            && let Some((before, value, after)) = input_value(line)
            && hidden(
                name,
                value.trim_end_matches(['\r', '\n']).trim_end_matches("\\r"),
            )
        {
            out.push_str(before);
            out.push_str(REDACTED);
            out.push_str(after);
            changed = true;
            field = None;
            continue;
        }
        field = match field_name(line) {
            Some(name) => secret_name(name).map(|n| (n, 0)),
            None => field.map(|(n, ago)| (n, ago + 1)),
        };
        out.push_str(line);
    }
    changed.then_some(out)
}

/// A line that is a field's name alone, dotted or not (`settings.db.password`): its
/// last part.
fn field_name(line: &str) -> Option<&str> {
    let name = line.trim();
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'));
    plain.then(|| name.rsplit('.').next().unwrap_or(name))
}

/// The quoted value after `input_value=`: what stands before it (the opening quote
/// included), the value, and what follows (the closing quote on).
fn input_value(line: &str) -> Option<(&str, &str, &str)> {
    let at = line.find("input_value=")? + "input_value=".len();
    let quote = line[at..]
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"'))?;
    let start = at + 1;
    let len = line[start..].find(quote)?;
    Some((
        &line[..start],
        &line[start..start + len],
        &line[start + len..],
    ))
}

#[cfg(test)]
mod tests {
    use super::echoed_inputs;

    #[test]
    fn the_input_a_secret_field_refused_goes_but_not_another_fields() {
        let error = "1 validation error for Settings\nsentry_auth_token\n  String should have at least 40 characters [type=string_too_short, input_value='q7XrT2mZ9kLw4Pd8Ys1V', input_type=str]\n";
        let out = echoed_inputs(error).expect("redacted");
        assert!(!out.contains("q7XrT2mZ"), "{out}");
        assert!(
            out.contains("input_value='[REDACTED]', input_type=str]"),
            "{out}"
        );
        let port = "1 validation error for Settings\nport\n  Input should be a valid integer [type=int_parsing, input_value='80a80b80c80', input_type=str]\n";
        assert_eq!(echoed_inputs(port), None);
        let count = "token_count\n  Input should be less than 10 [type=less_than, input_value='9999999999x', input_type=str]\n";
        assert_eq!(echoed_inputs(count), None);
    }
}
