//! What every request must show before it is served: the Host header of this server
//! (no DNS rebinding) and the random token printed with the URL. State changes come
//! only by POST, and carry the token too.

use std::fmt::Write;
use std::io::Read;

/// A random token: 128 bits from the system's generator, as hex.
pub fn token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    }))
}

/// Compares in time independent of where the first difference is.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Who may ask: this server's own host names, and the token.
#[derive(Debug, Clone)]
pub struct Guard {
    pub token: String,
    pub port: u16,
}

impl Guard {
    /// Whether `host` (the Host header) names this server on the loopback address.
    pub fn host_ok(&self, host: Option<&str>) -> bool {
        let port = self.port;
        host.is_some_and(|h| h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"))
    }

    /// Whether the query string carries the token (`t=...`).
    pub fn token_ok(&self, query: Option<&str>) -> bool {
        query
            .unwrap_or("")
            .split('&')
            .filter_map(|pair| pair.strip_prefix("t="))
            .any(|t| same(t, &self.token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_host_and_this_token() {
        let g = Guard {
            token: token().unwrap(),
            port: 4321,
        };
        assert_eq!(g.token.len(), 32);
        assert!(g.host_ok(Some("127.0.0.1:4321")) && g.host_ok(Some("localhost:4321")));
        for bad in [
            None,
            Some("evil.example:4321"),
            Some("127.0.0.1:80"),
            Some("127.0.0.1"),
        ] {
            assert!(!g.host_ok(bad), "{bad:?}");
        }
        assert!(g.token_ok(Some(&format!("q=x&t={}", g.token))));
        assert!(!g.token_ok(Some("t=0000")) && !g.token_ok(None));
        assert_ne!(token().unwrap(), g.token);
    }
}
