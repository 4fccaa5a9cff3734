//! The forward pass against a naive convolution written straight from `docs/policy-net.md`
//! (the value head's pooling too), the two kernel copies against each other, batches against
//! single positions, the weights file's errors, and the interface's contract
//! (`crate::net::contract`) on the shipped networks and random ones with every head.

use super::format::{Shape, HEADER_BYTES, HEADER_V2_BYTES, HEADER_V3_BYTES, MAGIC};
use super::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The doc's formulas, one multiply at a time, in f64: planes `x[plane][row * n + col]`, and
/// `w[o][i][ky][kx]` multiplies `x[i][row + ky - 1][col + kx - 1]`, zero off the board.
fn reference(weights: &Weights, size: usize, bytes: &[u8]) -> Vec<f32> {
    let x = reference_trunk(weights, size, bytes);
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

/// The trunk's output, `x[channel][point]`.
fn reference_trunk(weights: &Weights, size: usize, bytes: &[u8]) -> Vec<Vec<f64>> {
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
    x
}

/// The value from the doc's formulas: v = ReLU(conv1x1 + bias), pooled as mean, mean times
/// (N - 14) / 10, max and komi / 15, then ReLU(W1 pooled + b1), W2 h + b2, sigmoid.
fn reference_value(weights: &Weights, size: usize, bytes: &[u8], mover_komi: f64) -> f32 {
    let head = weights.value.as_ref().expect("a value head");
    let x = reference_trunk(weights, size, bytes);
    let (v, _) = head.sizes();
    let c = weights.channels;
    let area = (size * size) as f64;
    let mut pooled = vec![0.0; 3 * v + 1];
    for j in 0..v {
        let at = |p: usize| {
            let dot: f64 = (0..c)
                .map(|i| f64::from(head.conv.weights[j * c + i]) * x[i][p])
                .sum();
            (f64::from(head.conv.bias[j]) + dot).max(0.0)
        };
        let values: Vec<f64> = (0..size * size).map(at).collect();
        let mean = values.iter().sum::<f64>() / area;
        pooled[j] = mean;
        pooled[v + j] = mean * (size as f64 - 14.0) / 10.0;
        pooled[2 * v + j] = values.iter().fold(0.0, |m: f64, &a| m.max(a));
    }
    pooled[3 * v] = mover_komi / 15.0;
    let dense = |layer: &Layer, input: &[f64], relu: bool| -> Vec<f64> {
        layer
            .bias
            .iter()
            .enumerate()
            .map(|(o, &b)| {
                let row = &layer.weights[o * input.len()..(o + 1) * input.len()];
                let sum = f64::from(b)
                    + row
                        .iter()
                        .zip(input)
                        .map(|(&w, a)| f64::from(w) * a)
                        .sum::<f64>();
                if relu {
                    sum.max(0.0)
                } else {
                    sum
                }
            })
            .collect()
    };
    let hidden = dense(&head.fc1, &pooled, true);
    let logit = dense(&head.fc2, &hidden, false)[0];
    (1.0 / (1.0 + (-logit).exp())) as f32
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

fn evaluate(net: &Model, ws: &mut Workspace, size: usize, bytes: &[u8]) -> Vec<f32> {
    let mut logits = vec![0.0; size * size];
    net.forward(size, &[bytes], ws, &mut logits);
    logits
}

/// The logits and the value of one position, from [`Model::forward_value`].
fn evaluate_value(
    net: &Model,
    ws: &mut Workspace,
    size: usize,
    bytes: &[u8],
    mover_komi: f32,
) -> (Vec<f32>, f32) {
    let mut logits = vec![0.0; size * size];
    let mut value = [0.0];
    net.forward_value(size, &[bytes], &[mover_komi], ws, &mut logits, &mut value);
    (logits, value[0])
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
        let net = Model::from_bytes(&weights.to_bytes()).expect("a valid network");
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
            for kernel in Workspace::kernels() {
                let mut copy = net.workspace(size, 1).with_kernel(kernel).expect("listed");
                let found = evaluate(&net, &mut copy, size, &bytes);
                assert_close(&found, &expected, &format!("{what}, {kernel} kernel"));
            }
        }
    }
}

#[test]
fn kernel_copies_agree() {
    let net = Model::from_weights(&Weights::random(32, 6, 7)).expect("valid");
    let kernels = Workspace::kernels();
    assert_eq!(kernels.last(), Some(&"portable"), "{kernels:?}");
    assert_eq!(
        net.workspace(19, 1).kernel(),
        kernels[0],
        "the fastest by default"
    );
    let mut portable = net
        .workspace(19, 1)
        .with_kernel("portable")
        .expect("everywhere");
    assert!(net.workspace(19, 1).with_kernel("sse9").is_none());
    for kernel in &kernels {
        let mut fast = net.workspace(19, 1).with_kernel(kernel).expect("listed");
        for size in [9, 13, 19] {
            let bytes = random_bytes(size, size as u64);
            let expected = evaluate(&net, &mut portable, size, &bytes);
            let what = format!("{kernel} against portable, {size}x{size}");
            assert_close(&evaluate(&net, &mut fast, size, &bytes), &expected, &what);
        }
    }
}

#[test]
fn a_batch_equals_its_positions_one_by_one() {
    let net = Model::from_weights(&Weights::random(16, 2, 3)).expect("valid");
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

/// `weights` written and read back: the file is `shape`'s length and parses to the same
/// weights; every shorter prefix is `Truncated` at its own length and a longer file has
/// `TrailingBytes`, so no cut or padded file loads. Returns the bytes.
fn survives_the_file_format(weights: &Weights, shape: Shape) -> Vec<u8> {
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), shape.file_bytes());
    assert_eq!(&Weights::parse(&bytes).expect("parses"), weights);
    for len in 0..bytes.len() {
        match Model::from_bytes(&bytes[..len]) {
            Err(NetError::Truncated { found, .. }) => assert_eq!(found, len),
            other => panic!("{len} bytes: {other:?}"),
        }
    }
    for extra in [1, 4] {
        let mut longer = bytes.clone();
        longer.resize(bytes.len() + extra, 0);
        assert!(matches!(
            Model::from_bytes(&longer),
            Err(NetError::TrailingBytes { .. })
        ));
    }
    bytes
}

#[test]
fn weights_survive_the_file_format() {
    let weights = Weights::random(5, 2, 11);
    let shape = Shape {
        channels: 5,
        blocks: 2,
        pooled: 0,
        value: None,
        score: false,
        ownership: false,
        header_bytes: HEADER_BYTES,
    };
    survives_the_file_format(&weights, shape);
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
    assert!(matches!(Model::from_bytes(&bytes), Err(NetError::BadMagic)));
    assert!(matches!(
        Model::from_bytes(b"GIF89a"),
        Err(NetError::BadMagic)
    ));
    let cases = [
        (0, 4, "version"),
        (1, 18, "planes"),
        (2, 0, "channels"),
        (2, 257, "channels"),
        (3, 41, "blocks"),
    ];
    for (field, value, what) in cases {
        let error = Model::from_bytes(&with_header_field(field, value));
        let expected = match error {
            Err(NetError::Version(4)) => "version",
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
        Model::from_bytes(&header),
        Err(NetError::Truncated { .. })
    ));
}

#[test]
fn bad_values_are_errors() {
    let mut weights = Weights::random(3, 2, 5);
    weights.blocks[1].conv2.bias[2] = f32::NAN;
    match Model::from_bytes(&weights.to_bytes()) {
        Err(NetError::NonFinite { tensor }) => assert_eq!(tensor, "block 1 conv2 bias"),
        other => panic!("{other:?}"),
    }
    let mut weights = Weights::random(3, 2, 5);
    weights.head.weights.push(1.0);
    assert!(matches!(
        Model::from_weights(&weights),
        Err(NetError::Shape { .. })
    ));
}

#[test]
fn the_value_head_matches_the_reference() {
    // Value channels on and off whole vectors, the pooling's size term below, at and above 14.
    let cases = [(12, 2, 5, 7), (32, 1, 32, 64), (8, 0, 1, 1)];
    for (case, (channels, blocks, v, h)) in cases.into_iter().enumerate() {
        let weights = Weights::random_with_value(channels, blocks, v, h, 40 + case as u64);
        let net = Model::from_bytes(&weights.to_bytes()).expect("a valid network");
        assert_eq!(net.value_sizes(), Some((v, h)));
        let mut ws = net.workspace(19, 1);
        let mut values = Vec::new();
        for (size, komi) in [(9, 7.5), (14, -7.5), (19, 0.0), (2, 15.0), (25, -0.5)] {
            let bytes = random_bytes(size, (case * 100 + size) as u64);
            let what = format!("{channels}x{blocks}, value {v}x{h}, {size}x{size}, komi {komi}");
            let (logits, value) = evaluate_value(&net, &mut ws, size, &bytes, komi);
            let expected = reference_value(&weights, size, &bytes, f64::from(komi));
            assert!(
                (value - expected).abs() <= 1e-5,
                "{what}: {value} against {expected}"
            );
            assert_eq!(logits, evaluate(&net, &mut ws, size, &bytes), "{what}");
            for kernel in Workspace::kernels() {
                let mut copy = net.workspace(size, 1).with_kernel(kernel).expect("listed");
                let (_, found) = evaluate_value(&net, &mut copy, size, &bytes, komi);
                assert!((found - expected).abs() <= 1e-5, "{what}, {kernel} kernel");
            }
            values.push(value);
        }
        // Random weights still give values that depend on the position.
        let spread = values
            .iter()
            .fold(0.0f32, |m, &x| m.max((x - values[0]).abs()));
        assert!(spread > 1e-4, "case {case}: values {values:?}");
    }
}

#[test]
fn the_komi_reaches_the_value() {
    let net = Model::from_weights(&Weights::random_with_value(8, 1, 8, 16, 9)).expect("valid");
    let mut ws = net.workspace(9, 1);
    let bytes = random_bytes(9, 1);
    let values: Vec<f32> = [-7.5, 0.0, 7.5]
        .iter()
        .map(|&k| evaluate_value(&net, &mut ws, 9, &bytes, k).1)
        .collect();
    assert!(
        values[0] != values[1] && values[1] != values[2],
        "{values:?}"
    );
}

#[test]
fn a_batch_of_values_equals_its_positions_one_by_one() {
    let net = Model::from_weights(&Weights::random_with_value(16, 2, 8, 8, 3)).expect("valid");
    // A workspace of a network without a value head grows its scratch once.
    let mut ws = Model::from_weights(&Weights::random(16, 2, 3))
        .expect("valid")
        .workspace(9, 1);
    let size = 13;
    let positions: Vec<Vec<u8>> = (0..4).map(|s| random_bytes(size, s)).collect();
    let inputs: Vec<&[u8]> = positions.iter().map(Vec::as_slice).collect();
    let komi = [7.5, -7.5, 6.5, -6.5];
    let mut logits = vec![0.0; 4 * size * size];
    let mut values = [0.0; 4];
    net.forward_value(size, &inputs, &komi, &mut ws, &mut logits, &mut values);
    for (i, bytes) in inputs.iter().enumerate() {
        let mut alone = net.workspace(size, 1);
        let (l, v) = evaluate_value(&net, &mut alone, size, bytes, komi[i]);
        assert_eq!(v, values[i], "position {i}");
        assert_eq!(l, logits[i * size * size..(i + 1) * size * size]);
    }
}

#[test]
fn a_value_head_leaves_the_policy_as_it_was() {
    let with = Weights::random_with_value(8, 2, 4, 4, 21);
    let without = Weights {
        value: None,
        ..with.clone()
    };
    let (v2, v1) = (with.to_bytes(), without.to_bytes());
    assert_eq!(v2[..12], [&MAGIC[..], &2u32.to_le_bytes()].concat());
    assert_eq!(
        v2[HEADER_V2_BYTES..HEADER_V2_BYTES + v1.len() - HEADER_BYTES],
        v1[HEADER_BYTES..]
    );
    let (a, b) = (
        Model::from_bytes(&v2).expect("v2"),
        Model::from_bytes(&v1).expect("v1"),
    );
    assert!(a.has_value() && !b.has_value());
    let bytes = random_bytes(19, 5);
    let (mut wa, mut wb) = (a.workspace(19, 1), b.workspace(19, 1));
    assert_eq!(
        evaluate(&a, &mut wa, 19, &bytes),
        evaluate(&b, &mut wb, 19, &bytes)
    );
}

#[test]
fn version_2_survives_the_file_format() {
    let weights = Weights::random_with_value(5, 2, 3, 4, 12);
    let shape = Shape {
        channels: 5,
        blocks: 2,
        pooled: 0,
        value: Some((3, 4)),
        score: false,
        ownership: false,
        header_bytes: HEADER_V2_BYTES,
    };
    survives_the_file_format(&weights, shape);
}

/// The bytes of a small version 2 network with its heads flags, value channels and value
/// hidden set to `fields`.
fn with_v2_fields(fields: [u32; 3]) -> Vec<u8> {
    let mut bytes = Weights::random_with_value(2, 1, 2, 3, 1).to_bytes();
    for (i, field) in fields.iter().enumerate() {
        let at = HEADER_BYTES + 4 * i;
        bytes[at..at + 4].copy_from_slice(&field.to_le_bytes());
    }
    bytes
}

#[test]
fn bad_version_2_headers_are_errors() {
    assert!(Model::from_bytes(&with_v2_fields([1, 2, 3])).is_ok());
    for flags in [2, 3, 0x8000_0000] {
        match Model::from_bytes(&with_v2_fields([flags, 2, 3])) {
            Err(e @ NetError::Heads(f)) => {
                assert_eq!(f, flags);
                assert!(e.to_string().contains("bit 0"), "{e}");
            }
            other => panic!("flags {flags}: {other:?}"),
        }
    }
    let sizes = [
        [1, 0, 3],
        [1, 2, 0],
        [1, 257, 3],
        [1, 2, 1025],
        [0, 2, 3],
        [0, 0, 1],
    ];
    for fields in sizes {
        match Model::from_bytes(&with_v2_fields(fields)) {
            Err(e @ NetError::ValueSize { .. }) => assert!(!e.to_string().is_empty()),
            other => panic!("{fields:?}: {other:?}"),
        }
    }
    // No value head, declared so: a version 2 file of the policy alone.
    let weights = Weights::random(2, 1, 1);
    let mut bytes = weights.to_bytes();
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    let tail = bytes.split_off(HEADER_BYTES);
    bytes.extend([0u8; 12]);
    bytes.extend(tail);
    let net = Model::from_bytes(&bytes).expect("a policy-only version 2 file");
    assert!(!net.has_value());
    // The largest value head allowed on a header with nothing after it: refused for its
    // length before anything is allocated.
    let header = &with_v2_fields([1, 256, 1024])[..HEADER_V2_BYTES];
    assert!(matches!(
        Model::from_bytes(header),
        Err(NetError::Truncated { .. })
    ));
}

#[test]
fn bad_value_weights_are_errors() {
    let mut weights = Weights::random_with_value(3, 1, 2, 3, 5);
    if let Some(value) = weights.value.as_mut() {
        value.fc1.weights[4] = f32::INFINITY;
    }
    match Model::from_bytes(&weights.to_bytes()) {
        Err(NetError::NonFinite { tensor }) => assert_eq!(tensor, "value fc1 weights"),
        other => panic!("{other:?}"),
    }
    let mut weights = Weights::random_with_value(3, 1, 2, 3, 5);
    if let Some(value) = weights.value.as_mut() {
        value.fc2.bias.push(0.0);
    }
    assert!(matches!(
        Model::from_weights(&weights),
        Err(NetError::Shape { .. })
    ));
}

#[test]
fn version_3_survives_the_file_format() {
    let weights = Weights::random_value_network(5, 3, 0b101, 3, 4, 13);
    assert_eq!(weights.version(), 3);
    let shape = Shape {
        channels: 5,
        blocks: 3,
        pooled: 0b101,
        value: Some((3, 4)),
        score: true,
        ownership: true,
        header_bytes: HEADER_V3_BYTES,
    };
    let bytes = survives_the_file_format(&weights, shape);
    let model = Model::from_bytes(&bytes).expect("reads");
    assert!(model.has_score() && model.has_ownership());
    assert_eq!(model.pooled_blocks(), 2);
}

/// A version 3 header with the heads flags and the pooled blocks' mask set.
fn with_v3_fields(flags: u32, mask: u64) -> Vec<u8> {
    let mut bytes = Weights::random_value_network(2, 2, 0b10, 2, 3, 1).to_bytes();
    let mut set = |at: usize, value: u32| bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    set(24, flags);
    set(36, mask as u32);
    set(40, (mask >> 32) as u32);
    bytes
}

#[test]
fn bad_version_3_headers_are_errors() {
    assert!(Model::from_bytes(&with_v3_fields(7, 0b10)).is_ok());
    for flags in [8, 2, 4, 6] {
        assert!(
            matches!(Model::from_bytes(&with_v3_fields(flags, 0b10)), Err(NetError::Heads(f)) if f == flags),
            "flags {flags}"
        );
    }
    for mask in [0b100, 1 << 40] {
        assert!(
            matches!(
                Model::from_bytes(&with_v3_fields(7, mask)),
                Err(NetError::PooledBlocks { blocks: 2, .. })
            ),
            "mask {mask:#x}"
        );
    }
    // Another mask of as many pooled blocks reads (the same length), another count does not.
    assert!(Model::from_bytes(&with_v3_fields(7, 0b01)).is_ok());
    assert!(matches!(
        Model::from_bytes(&with_v3_fields(7, 0b11)),
        Err(NetError::Truncated { .. })
    ));
    // Version 2 knows only the value head's bit.
    let mut v2 = with_v2_fields([1, 2, 3]);
    v2[24..28].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(Model::from_bytes(&v2), Err(NetError::Heads(3))));
}

/// Pooling all but nothing: a pooled block whose weights are zero computes what the block
/// without them does, and the value head's outputs keep their meaning with the score and
/// ownership beside them.
#[test]
fn zero_pooling_leaves_the_block_as_it_was() {
    let pooled = Weights::random_value_network(6, 2, 0b11, 4, 5, 3);
    let mut zeroed = pooled.clone();
    for block in &mut zeroed.blocks {
        if let Some(pool) = &mut block.pool {
            pool.weights.fill(0.0);
        }
    }
    let mut plain = zeroed.clone();
    for block in &mut plain.blocks {
        block.pool = None;
    }
    let bytes = random_bytes(9, 5);
    let (a, b, c) = (
        Model::from_weights(&zeroed).expect("valid"),
        Model::from_weights(&plain).expect("valid"),
        Model::from_weights(&pooled).expect("valid"),
    );
    let run = |net: &Model| {
        let mut ws = net.workspace(9, 1);
        let logits = evaluate(net, &mut ws, 9, &bytes);
        let mut own = vec![0.0; 81];
        let j = net.evaluate_value(9, &mut ws, 7.5, Some(&mut own));
        (logits, j, own)
    };
    let (la, ja, oa) = run(&a);
    let (lb, jb, ob) = run(&b);
    let (lc, _, _) = run(&c);
    assert_eq!(la, lb);
    assert_eq!(ja, jb);
    assert_eq!(oa, ob);
    assert_ne!(la, lc, "pooling weights change the logits");
    assert!(oa.iter().all(|o| (-1.0..=1.0).contains(o)));
    assert!(ja.score_lead.is_some());
}

/// What the `.hnet` format itself computes for `position` by `komi`, without the evaluator:
/// the features, the batch forward pass with the value (`Model::forward_value`), the value
/// head again for the score and the ownership, the softmax over the playable points.
fn own_forward_pass(
    model: &Model,
    position: &crate::game::Position<'_>,
    komi: f64,
) -> crate::net::Output {
    use crate::net::kernels::linalg::softmax_over;
    let size = position.board.size();
    let area = size * size;
    let moves: Vec<_> = position.recent.iter().map(|p| p.mv).collect();
    let mut input = vec![0; area];
    features::encode(position.board, position.to_move, &moves, &mut input);
    let mut ws = model.workspace(size, 1);
    let mut logits = vec![0.0; area];
    let mover_komi = super::evaluator::mover_komi(position.to_move, komi);
    let mut value = [0.0];
    let judged = model.has_value().then(|| {
        let inputs = [input.as_slice()];
        model.forward_value(
            size,
            &inputs,
            &[mover_komi],
            &mut ws,
            &mut logits,
            &mut value,
        );
        let mut ownership = model.has_ownership().then(|| vec![0.0; area]);
        let head = model.evaluate_value(size, &mut ws, mover_komi, ownership.as_deref_mut());
        (head, ownership)
    });
    if judged.is_none() {
        model.forward(size, &[&input], &mut ws, &mut logits);
    }
    let mut policy = vec![0.0; area];
    softmax_over(&logits, |i| features::is_playable(input[i]), &mut policy);
    let (head, ownership) = judged.map_or((None, None), |(h, o)| (Some(h), o));
    crate::net::Output {
        policy,
        pass: None,
        value: head.map(|_| value[0]),
        score_lead: head.and_then(|h| h.score_lead),
        ownership,
        ..Default::default()
    }
}

/// The shipped networks and random ones of every version and head keep the interface's
/// contract.
#[test]
fn every_hnet_network_keeps_the_interface_contract() {
    let random = [
        Weights::random(8, 2, 11),
        Weights::random_with_value(8, 2, 4, 8, 12),
        Weights::random_value_network(8, 3, 0b10, 4, 8, 13),
    ];
    let nets = [
        embedded(),
        embedded_value_network(9).expect("a 9x9 value network"),
    ]
    .into_iter()
    .chain(
        random
            .iter()
            .map(|w| Model::from_weights(w).expect("valid weights")),
    );
    for model in nets {
        let model: &'static Model = Box::leak(Box::new(model));
        let own =
            |position: &crate::game::Position<'_>, komi| own_forward_pass(model, position, komi);
        crate::net::contract::keeps_the_contract(crate::net::SharedNet::new(model.clone()), &own);
    }
}
