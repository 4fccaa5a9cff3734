//! The Rust forward pass against PyTorch's: the training code wrote a small network of random
//! weights and the logits it computed for some positions (`tests/fixtures/policy-net/`, format
//! in `docs/policy-net.md`); every logit must agree to 1e-4. A missing fixture fails the test:
//! without it nothing checks that the two sides read the weights the same way.

use hoshi::net::model::PolicyNet;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/policy-net")
        .join(name)
}

/// One position of `positions.txt`: its line number, board size, input bytes and logits.
struct Case {
    line: usize,
    size: usize,
    bytes: Vec<u8>,
    logits: Vec<f32>,
}

fn read_cases(text: &str) -> Vec<Case> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, words)| !words.is_empty());
    let mut cases = Vec::new();
    while let Some((line, position)) = lines.next() {
        let (size, bytes) = match position.as_slice() {
            ["position", size, hex] => (parse_size(size, line), parse_hex(hex, line)),
            _ => panic!("line {line}: expected `position N HEX`"),
        };
        let logits = match lines.next() {
            Some((_, words)) if words.first() == Some(&"logits") => words[1..]
                .iter()
                .map(|w| {
                    w.parse()
                        .unwrap_or_else(|_| panic!("line {}: logit {w:?}", line + 1))
                })
                .collect(),
            _ => panic!("line {}: expected `logits ...`", line + 1),
        };
        cases.push(Case {
            line,
            size,
            bytes,
            logits,
        });
    }
    cases
}

fn parse_size(word: &str, line: usize) -> usize {
    word.parse()
        .unwrap_or_else(|_| panic!("line {line}: size {word:?}"))
}

fn parse_hex(hex: &str, line: usize) -> Vec<u8> {
    assert!(
        hex.len().is_multiple_of(2),
        "line {line}: odd number of hex digits"
    );
    (0..hex.len() / 2)
        .map(|i| {
            let pair = hex.get(2 * i..2 * i + 2).unwrap_or("?");
            u8::from_str_radix(pair, 16).unwrap_or_else(|_| panic!("line {line}: hex {pair:?}"))
        })
        .collect()
}

fn missing(name: &str, e: &dyn std::fmt::Display) -> ! {
    panic!("fixture {name} missing or unreadable ({e}): the training code writes it (docs/policy-net.md)")
}

#[test]
fn policy_net_matches_the_training_code() {
    let net = PolicyNet::load(fixture("small.hnet")).unwrap_or_else(|e| missing("small.hnet", &e));
    let text = std::fs::read_to_string(fixture("positions.txt"))
        .unwrap_or_else(|e| missing("positions.txt", &e));
    let cases = read_cases(&text);
    for size in [9, 13, 19] {
        assert!(
            cases.iter().any(|c| c.size == size),
            "positions.txt has no {size}x{size} position"
        );
    }
    let mut ws = net.workspace(19, 1);
    for case in &cases {
        let (line, area) = (case.line, case.size * case.size);
        assert_eq!(case.bytes.len(), area, "line {line}: input bytes");
        assert_eq!(case.logits.len(), area, "line {}: logits", line + 1);
        let mut logits = vec![0.0; area];
        net.forward(case.size, &[&case.bytes], &mut ws, &mut logits);
        for (p, (&found, &expected)) in logits.iter().zip(&case.logits).enumerate() {
            let tolerance = 1e-4 * expected.abs().max(1.0);
            assert!(
                (found - expected).abs() <= tolerance,
                "position of line {line} ({}x{}), point {p}: {found:.8e}, PyTorch {expected:.8e}",
                case.size,
                case.size
            );
        }
    }
}
