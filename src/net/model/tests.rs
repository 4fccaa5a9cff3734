//! The forward pass against a naive convolution written straight from `docs/policy-net.md`,
//! the two kernel copies against each other, batches against single positions, and the
//! weights file's errors.

use super::*;

/// The doc's formulas, one multiply at a time, in f64: planes `x[plane][row * n + col]`, and
/// `w[o][i][ky][kx]` multiplies `x[i][row + ky - 1][col + kx - 1]`, zero off the board.
fn reference(weights: &Weights, size: usize, bytes: &[u8]) -> Vec<f32> {
    let planes: Vec<Vec<f64>> = (0..PLANES)
        .map(|i| {
            let plane = |&code: &u8| f64::from(input_planes(code)[i]);
            bytes.iter().map(plane).collect()
        })
        .collect();
    let mut x = conv_relu(&weights.stem, &planes, size, None);
    for block in &weights.blocks {
        let middle = conv_relu(&block.conv1, &x, size, None);
        x = conv_relu(&block.conv2, &middle, size, Some(&x));
    }
    (0..size * size)
        .map(|p| {
            let dot: f64 = x
                .iter()
                .zip(&weights.head.weights)
                .map(|(plane, &w)| plane[p] * f64::from(w))
                .sum();
            (f64::from(weights.head.bias[0]) + dot) as f32
        })
        .collect()
}

fn conv_relu(layer: &Layer, x: &[Vec<f64>], n: usize, skip: Option<&[Vec<f64>]>) -> Vec<Vec<f64>> {
    let c_in = x.len();
    let at = |plane: &[f64], row: usize, col: usize, ky: usize, kx: usize| {
        let (r, c) = ((row + ky).checked_sub(1), (col + kx).checked_sub(1));
        match (r, c) {
            (Some(r), Some(c)) if r < n && c < n => plane[r * n + c],
            _ => 0.0,
        }
    };
    (0..layer.bias.len())
        .map(|o| {
            (0..n * n)
                .map(|p| {
                    let (row, col) = (p / n, p % n);
                    let mut sum = f64::from(layer.bias[o]);
                    for (i, plane) in x.iter().enumerate() {
                        for ky in 0..3 {
                            for kx in 0..3 {
                                let w = layer.weights[((o * c_in + i) * 3 + ky) * 3 + kx];
                                sum += f64::from(w) * at(plane, row, col, ky, kx);
                            }
                        }
                    }
                    let residual = skip.map_or(0.0, |s| s[o][p]);
                    (sum + residual).max(0.0)
                })
                .collect()
        })
        .collect()
}

fn random_bytes(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..size * size).map(|_| rng.gen()).collect()
}

/// Equal to 1e-4, relative to the larger of 1 and the expected value.
fn assert_close(found: &[f32], expected: &[f32], what: &str) {
    assert_eq!(found.len(), expected.len(), "{what}: lengths");
    for (p, (&f, &e)) in found.iter().zip(expected).enumerate() {
        let tolerance = 1e-4 * e.abs().max(1.0);
        assert!(
            (f - e).abs() <= tolerance,
            "{what}: point {p}: {f} against {e}"
        );
    }
}

fn evaluate(net: &PolicyNet, ws: &mut Workspace, size: usize, bytes: &[u8]) -> Vec<f32> {
    let mut logits = vec![0.0; size * size];
    net.forward(size, &[bytes], ws, &mut logits);
    logits
}

#[test]
fn planes_of_some_bytes() {
    let set = |code: u8| -> Vec<usize> {
        let planes = input_planes(code);
        (0..PLANES).filter(|&i| planes[i] == 1.0).collect()
    };
    assert_eq!(set(0), [2, 18], "empty");
    assert_eq!(
        set(0x04 | 0x08 | 0x80),
        [2, 11, 12, 13, 18],
        "illegal, ladder"
    );
    assert_eq!(set(1 | 0x10), [0, 3, 14, 18], "own, 1 liberty, last move");
    assert_eq!(
        set(2 | 0x0c | 0x40),
        [1, 10, 17, 18],
        "opponent, 4+ liberties, 4 ago"
    );
    assert_eq!(
        set(2 | 0x04 | 0x50),
        [1, 8, 18],
        "opponent, 2 liberties, 5 ago"
    );
    assert_eq!(set(3), [18], "no such point");
    for code in 0..=255u8 {
        assert_eq!(INPUT_PLANES[usize::from(code)], input_planes(code));
        let planes = input_planes(code);
        assert!(planes.iter().all(|&v| v == 0.0 || v == 1.0));
    }
}

#[test]
fn forward_matches_the_reference() {
    // Channel counts off and on whole vectors, tiles of 1 to 4 vectors, with and without
    // blocks, on the smallest and largest boards and the usual ones.
    let cases = [
        (12, 2, vec![9, 13, 19]),
        (32, 1, vec![9, 19]),
        (40, 1, vec![7]),
        (3, 0, vec![2, 25]),
        (8, 3, vec![5]),
    ];
    for (case, (channels, blocks, sizes)) in cases.into_iter().enumerate() {
        let weights = Weights::random(channels, blocks, case as u64);
        let net = PolicyNet::from_bytes(&weights.to_bytes()).expect("a valid network");
        assert_eq!((net.channels(), net.blocks()), (channels, blocks));
        let mut ws = net.workspace(19, 1);
        for size in sizes {
            let bytes = random_bytes(size, (case * 100 + size) as u64);
            let expected = reference(&weights, size, &bytes);
            let what = format!("{channels} channels, {blocks} blocks, {size}x{size}");
            let spread = expected
                .iter()
                .fold(0.0f32, |m, &l| m.max((l - expected[0]).abs()));
            assert!(
                spread > 1e-3,
                "{what}: the logits do not depend on the input"
            );
            assert_close(&evaluate(&net, &mut ws, size, &bytes), &expected, &what);
            let mut portable = net.workspace(size, 1).portable();
            let found = evaluate(&net, &mut portable, size, &bytes);
            assert_close(&found, &expected, &format!("{what}, portable kernel"));
        }
    }
}

#[test]
fn kernel_copies_agree() {
    let net = PolicyNet::from_weights(&Weights::random(32, 6, 7)).expect("valid");
    let mut fast = net.workspace(19, 1);
    let mut portable = net.workspace(19, 1).portable();
    for size in [9, 13, 19] {
        let bytes = random_bytes(size, size as u64);
        let expected = evaluate(&net, &mut portable, size, &bytes);
        let what = format!("{} against portable, {size}x{size}", fast.kernel());
        assert_close(&evaluate(&net, &mut fast, size, &bytes), &expected, &what);
    }
}

#[test]
fn a_batch_equals_its_positions_one_by_one() {
    let net = PolicyNet::from_weights(&Weights::random(16, 2, 3)).expect("valid");
    let mut ws = net.workspace(9, 2);
    for size in [13, 9, 19] {
        let positions: Vec<Vec<u8>> = (0..5).map(|s| random_bytes(size, s)).collect();
        let inputs: Vec<&[u8]> = positions.iter().map(Vec::as_slice).collect();
        let mut batch = vec![0.0; 5 * size * size];
        net.forward(size, &inputs, &mut ws, &mut batch);
        for (bytes, logits) in inputs.iter().zip(batch.chunks_exact(size * size)) {
            let mut alone = net.workspace(size, 1);
            assert_eq!(
                evaluate(&net, &mut alone, size, bytes),
                logits,
                "{size}x{size}"
            );
        }
    }
}

#[test]
fn weights_survive_the_file_format() {
    let weights = Weights::random(5, 2, 11);
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), HEADER_BYTES + 4 * floats(5, 2));
    assert_eq!(Weights::parse(&bytes).expect("parses"), weights);
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = Weights::random(2, 1, 1).to_bytes();
    for len in 0..bytes.len() {
        match PolicyNet::from_bytes(&bytes[..len]) {
            Err(NetError::Truncated { found, .. }) => assert_eq!(found, len),
            other => panic!("{len} bytes: {other:?}"),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        PolicyNet::from_bytes(&longer),
        Err(NetError::TrailingBytes { .. })
    ));
}

/// The bytes of a small network with header field `field` (0 version, 1 planes, 2 channels,
/// 3 blocks) set to `value`.
fn with_header_field(field: usize, value: u32) -> Vec<u8> {
    let mut bytes = Weights::random(2, 1, 1).to_bytes();
    let at = 8 + 4 * field;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn bad_headers_are_errors() {
    let mut bytes = Weights::random(2, 1, 1).to_bytes();
    bytes[0] = b'h';
    assert!(matches!(
        PolicyNet::from_bytes(&bytes),
        Err(NetError::BadMagic)
    ));
    assert!(matches!(
        PolicyNet::from_bytes(b"GIF89a"),
        Err(NetError::BadMagic)
    ));
    let cases = [
        (0, 2, "version"),
        (1, 18, "planes"),
        (2, 0, "channels"),
        (2, 257, "channels"),
        (3, 41, "blocks"),
    ];
    for (field, value, what) in cases {
        let error = PolicyNet::from_bytes(&with_header_field(field, value));
        let expected = match error {
            Err(NetError::Version(2)) => "version",
            Err(NetError::Planes(18)) => "planes",
            Err(NetError::Channels(0 | 257)) => "channels",
            Err(NetError::Blocks(41)) => "blocks",
            ref other => panic!("{what} {value}: {other:?}"),
        };
        assert_eq!(expected, what);
        assert!(!error
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
            .is_empty());
    }
    // The largest network allowed, declared by a header with nothing after it: refused for
    // its length, before anything is allocated for it.
    let header: Vec<u8> = MAGIC
        .iter()
        .copied()
        .chain([1, 19, 256, 40].iter().flat_map(|v: &u32| v.to_le_bytes()))
        .collect();
    assert!(matches!(
        PolicyNet::from_bytes(&header),
        Err(NetError::Truncated { .. })
    ));
}

#[test]
fn bad_values_are_errors() {
    let mut weights = Weights::random(3, 2, 5);
    weights.blocks[1].conv2.bias[2] = f32::NAN;
    match PolicyNet::from_bytes(&weights.to_bytes()) {
        Err(NetError::NonFinite { tensor }) => assert_eq!(tensor, "block 1 conv2 bias"),
        other => panic!("{other:?}"),
    }
    let mut weights = Weights::random(3, 2, 5);
    weights.head.weights.push(1.0);
    assert!(matches!(
        PolicyNet::from_weights(&weights),
        Err(NetError::Shape { .. })
    ));
    let missing = PolicyNet::load("/nonexistent/net.hnet");
    assert!(matches!(missing, Err(NetError::Io { .. })));
}

#[test]
fn softmax_over_allowed_points() {
    let logits = [1.0, 2.0, 3.0, 1000.0];
    let mut out = [9.0; 4];
    assert!(softmax_over(&logits, |p| p < 3, &mut out));
    let e = [(-2.0f32).exp(), (-1.0f32).exp(), 1.0];
    let sum: f32 = e.iter().sum();
    assert_close(&out, &[e[0] / sum, e[1] / sum, e[2] / sum, 0.0], "softmax");
    assert!(!softmax_over(&logits, |_| false, &mut out));
    assert_eq!(out, [0.0; 4]);
}
