//! Private keys in encodings of their own: a PEM block wrapped in base64, as a CI job
//! echoes it into `base64 --decode` or a Kubernetes manifest carries it (`tls.key:
//! LS0tLS1CRUdJTi…`), whose markers are not there to find but whose first line decodes
//! to them (a certificate wrapped the same way, `ca.crt`, is public and stays); and a
//! Bitcoin key in wallet import format (`L…`, `K…`, `5…` in base58).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// "-----BEGIN" in base64, as every wrapped PEM block starts.
const WRAPPED_BEGIN: &str = "LS0tLS1CRUdJTi";

/// Replaces every base64 run that decodes to a private key's block; `None` when none.
pub fn wrapped_private_keys(text: &str) -> Option<String> {
    if !text.contains(WRAPPED_BEGIN) {
        return None;
    }
    let runs = text.match_indices(WRAPPED_BEGIN).filter_map(|(at, _)| {
        let len = text[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')))
            .unwrap_or(text.len() - at);
        let run = &text[at..at + len];
        is_private_key(run).then_some((at, run))
    });
    let mut out = String::with_capacity(text.len());
    super::push_redacted(&mut out, text, runs).then_some(out)
}

/// Whether a base64 run's first line decodes to a private key's opening marker.
fn is_private_key(run: &str) -> bool {
    // 64 characters are 48 bytes: "-----BEGIN OPENSSH PRIVATE KEY-----" is 35.
    let head = &run[..run.len().min(64) / 4 * 4];
    STANDARD.decode(head).is_ok_and(|bytes| {
        let line = String::from_utf8_lossy(&bytes);
        let line = line.lines().next().unwrap_or("");
        line.contains("PRIVATE KEY") || line.contains("OpenVPN Static key")
    })
}

/// Words a wallet's key is printed among (`bitcoin-cli dumpprivkey`, an Electrum
/// export, "WIF").
const WALLET_WORDS: &[&str] = &["privkey", "wif", "wallet", "bitcoin", "electrum"];

/// Replaces every token in wallet import format, in a text about wallets.
pub fn wallet_keys(text: &str, lower: &str) -> Option<String> {
    if !WALLET_WORDS.iter().any(|w| lower.contains(w)) {
        return None;
    }
    // A token stands alone: inside base64 (an image's, between `+` and `/`) a run of
    // base58 of the same length is chance.
    let tokens = super::pieces(text, |c| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';' | ':' | '=' | '(' | ')')
    })
    .filter(|(_, t)| is_wif(t));
    let mut out = String::with_capacity(text.len());
    super::push_redacted(&mut out, text, tokens).then_some(out)
}

/// A private key in wallet import format: 52 base58 characters after `K` or `L`
/// (compressed), or 51 after `5H`, `5J` or `5K`.
fn is_wif(token: &str) -> bool {
    let base58 = |b: u8| b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l');
    let b = token.as_bytes();
    b.iter().all(|&c| base58(c))
        && match b.len() {
            52 => matches!(b[0], b'K' | b'L'),
            51 => b[0] == b'5' && matches!(b[1], b'H' | b'J' | b'K'),
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(pem: &str) -> String {
        STANDARD.encode(pem)
    }

    #[test]
    fn a_wrapped_private_key_goes_and_a_wrapped_certificate_stays() {
        let key = wrapped(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
        );
        let text = format!("data:\n  identity: {key}\n  known_hosts: Z2l0aHViLmNvbQ==\n");
        let out = wrapped_private_keys(&text).unwrap();
        assert!(!out.contains(&key[..40]), "{out}");
        assert!(out.contains("known_hosts: Z2l0aHViLmNvbQ=="), "{out}");
        let cert = wrapped(
            "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n",
        );
        assert_eq!(wrapped_private_keys(&format!("ca.crt: {cert}")), None);
    }

    #[test]
    fn a_wallet_key_alone_goes_and_base58_inside_base64_stays() {
        let wif = "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1";
        let out = wallet_keys(
            &format!("$ bitcoin-cli dumpprivkey bc1q\n{wif}\n"),
            "bitcoin",
        )
        .unwrap();
        assert!(!out.contains(wif), "{out}");
        let image = format!("data:image/png;base64,iVBORw0+{wif}/AAAA wallet.png");
        assert_eq!(wallet_keys(&image, &image.to_ascii_lowercase()), None);
    }
}
