//! Secrets read back from a secret store, where the field that holds one is only called
//! "value": `az keyvault secret show`'s `"value"`, the `"Value"` of `aws ssm
//! get-parameter --with-decryption`, Secrets Manager's `"SecretString"`, Doppler's
//! `"computed"`. The command (or the record's own type) says what the value is.

use std::sync::OnceLock;

use regex::Regex;

/// What marks a text as a secret store's answer: every word of one entry, lower case.
/// A Parameter Store value is a secret only when decrypted (a `SecureString` read
/// without `--with-decryption` is ciphertext, and a `String` one is configuration).
const FETCHED: &[&[&str]] = &[
    &["keyvault secret show"],
    &["keyvault secret list-versions"],
    &["ssm get-parameter", "--with-decryption"],
    &["ssm get-parameters", "--with-decryption"],
    &["secretsmanager get-secret-value"],
    &["secretsmanager batch-get-secret-value"],
    &["\"secretstring\":"],
    &["doppler secrets", "--json"],
    &["infisical secrets get"],
    &["op item get", "--reveal"],
    &["bw get item"],
    &["akeyless get-secret-value"],
    &["scw secret version access"],
    &["oci secrets secret-bundle get"],
];

/// The fields of a store's record that hold the secret itself.
const FIELDS: &str = "value|secretstring|secret_string|secretvalue|secret_value|computed";

/// Replaces the secret fields' values of a secret store's answer; `None` when none.
pub fn fetched_values(text: &str, lower: &str) -> Option<String> {
    if !FETCHED
        .iter()
        .any(|words| words.iter().all(|w| lower.contains(w)))
    {
        return None;
    }
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(&format!(
            r#"(?i)(?P<k>["']?\b(?:{FIELDS})["']?\s*[:=]\s*)(?P<v>"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"#
        ))
        .expect("a valid pattern")
    });
    let mut changed = false;
    let out = re.replace_all(text, |caps: &regex::Captures| {
        let value = &caps["v"];
        let bare = &value[1..value.len() - 1];
        if is_secret(bare) {
            changed = true;
            let quote = &value[..1];
            format!("{}{quote}{}{quote}", &caps["k"], super::REDACTED)
        } else {
            caps[0].to_string()
        }
    });
    changed.then(|| out.into_owned())
}

/// Whatever a store hands back as a secret is one, however plain (`hunter22`), unless it
/// is empty, a reference (`${VAR}`, `{{ .Values.x }}`, `op://…`) or already redacted.
fn is_secret(value: &str) -> bool {
    value.chars().count() >= 4
        && !value.contains(super::REDACTED)
        && !value.starts_with(['$', '<'])
        && !value.starts_with("{{")
        && !super::value::is_reference(value)
        && !super::value::is_placeholder(value)
}

#[cfg(test)]
mod tests {
    use super::fetched_values;

    fn run(text: &str) -> Option<String> {
        fetched_values(text, &text.to_ascii_lowercase())
    }

    #[test]
    fn a_stores_value_is_redacted_but_not_its_name_or_a_plain_parameter() {
        let vault = "$ az keyvault secret show --vault-name kv --name db-pass\n{\n  \"name\": \"db-pass\",\n  \"value\": \"hunter2hunter2\"\n}";
        let out = run(vault).expect("redacted");
        assert!(
            out.contains("\"name\": \"db-pass\"") && !out.contains("hunter2"),
            "{out}"
        );

        let plain = "$ aws ssm get-parameter --name /app/host\n{ \"Value\": \"db.internal\" }";
        assert_eq!(run(plain), None);
        let decrypted =
            "$ aws ssm get-parameter --name /app/pw --with-decryption\n{ \"Value\": \"pa55word\" }";
        assert!(!run(decrypted).expect("redacted").contains("pa55word"));
    }

    #[test]
    fn a_secret_string_with_escaped_json_goes_whole() {
        let text = r#"{"Name": "prod/db", "SecretString": "{\"username\":\"app\",\"password\":\"Zq8vT2mX9kL4\"}"}"#;
        let out = run(text).expect("redacted");
        assert_eq!(out, r#"{"Name": "prod/db", "SecretString": "[REDACTED]"}"#);
    }
}
