//! Tests of `observer::apply`.

use super::*;

#[test]
fn titles() {
    assert_eq!(
        title_of("run `cargo nextest run` instead; x"),
        "Run cargo nextest run instead"
    );
}
