//! The access token a server listening beyond 127.0.0.1 demands: 32 bytes
//! from the operating system's generator, in hex, compared in constant time
//! so that response times say nothing about how much of a guess was right.

use rand::RngCore;

/// A fresh random token: 64 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `given` equals `expected`, taking the same time wherever they
/// differ (the length is not secret: every token has 64 digits).
pub fn token_matches(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The value of `key` in a query string, if present.
pub fn query_value<'a>(query: Option<&'a str>, key: &str) -> Option<&'a str> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_hex() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_exact_token_matches() {
        let t = new_token();
        assert!(token_matches(&t, &t));
        assert!(!token_matches(&t, &t[..63]));
        assert!(!token_matches(&t, ""));
        let mut wrong = t.clone().into_bytes();
        wrong[63] = if wrong[63] == b'0' { b'1' } else { b'0' };
        assert!(!token_matches(&t, std::str::from_utf8(&wrong).unwrap()));
    }

    #[test]
    fn the_token_is_found_in_the_query() {
        assert_eq!(query_value(Some("a=1&token=xy"), "token"), Some("xy"));
        assert_eq!(query_value(Some("tokens=xy"), "token"), None);
        assert_eq!(query_value(None, "token"), None);
    }
}
