//! KataGo model files written, for the tests: the inverse of [`super::model`]'s reader, in
//! the format KataGo's `python/export_model_pytorch.py` writes (lightvector/KataGo, MIT
//! licence, copyright David J. Wu): a token a line, floats in binary `@BIN@` blocks. A batch
//! norm is written as the scale and bias it was merged into (mean 0, variance 1 less an
//! epsilon of 1e-20, so that both read back exactly), the values the reader drops as the
//! exporter writes them (the TD score multiplier 20, the trunk's channel counts).
//!
//! [`random`] makes small models of random weights, of every version and block kind, which
//! [`write`] turns into files that hoshi and KataGo both read.

use super::model::{
    Activation, Attention, Block, Conv, Dense, FeedForward, MatMul, Model, NormAct, PassHead,
    RmsNorm, Rope, Tip, TransformerNorm,
};
use std::fmt::Display;

/// The model file of `model`, unpacked (KataGo reads it named `.bin`).
pub fn write(model: &Model) -> Vec<u8> {
    let mut w = Writer {
        bytes: Vec::new(),
        version: model.version,
    };
    w.model(model);
    w.bytes
}

/// The file as it is written: tokens a line, blocks of floats.
struct Writer {
    bytes: Vec<u8>,
    version: u32,
}

impl Writer {
    fn line(&mut self, token: impl Display) {
        self.bytes.extend(format!("{token}\n").bytes());
    }

    fn floats(&mut self, values: &[f32]) {
        self.bytes.extend(b"@BIN@");
        for v in values {
            self.bytes.extend(v.to_le_bytes());
        }
        self.bytes.push(b'\n');
    }

    fn model(&mut self, m: &Model) {
        self.line(&m.name);
        self.line(m.version);
        self.line(22);
        self.line(19);
        if m.version >= 13 {
            let p = &m.post;
            self.line(20.0);
            for v in [
                p.score_mean,
                p.score_stdev,
                p.lead,
                p.variance_time,
                p.shortterm_value_error,
                p.shortterm_score_error,
            ] {
                self.line(v);
            }
        }
        if m.version >= 15 {
            self.line(u8::from(m.trunk.metadata.is_some()));
            self.line(u8::from(m.pass_alive_under_suicide_rules));
            for _ in 0..6 {
                self.line(0);
            }
        }
        self.trunk(m);
        self.policy(m);
        self.value(m);
    }

    fn trunk(&mut self, m: &Model) {
        let t = &m.trunk;
        self.line("trunk");
        self.line(t.blocks.len());
        self.line(t.channels);
        // The mid, regular, dilated and pooled channel counts: KataGo wants them positive
        // and uses none of them.
        for _ in 0..4 {
            self.line(t.channels);
        }
        if self.version >= 15 {
            self.line(u8::from(matches!(t.tip, Tip::Rms(..))));
            for _ in 0..5 {
                self.line(0);
            }
        }
        self.conv(&t.initial);
        self.matmul(&t.global);
        if let Some(e) = &t.metadata {
            self.line("model.sgf_metadata_encoder");
            self.line(e.first.mul.c_in);
            self.dense(&e.first, true);
            self.dense(&e.second, true);
            self.matmul(&e.last);
        }
        for block in &t.blocks {
            self.block(block);
        }
        match &t.tip {
            Tip::Batch(norm) => self.norm_act(norm),
            Tip::Rms(norm, activation) => {
                self.rms_norm(norm);
                self.activation(&format!("{}.act", norm.name), *activation);
            }
        }
    }

    fn block(&mut self, block: &Block) {
        match block {
            Block::Residual(b) => {
                self.line("ordinary_block");
                self.line(&b.name);
                self.norm_act(&b.pre);
                self.conv(&b.first);
                self.norm_act(&b.mid);
                self.conv(&b.last);
            }
            Block::GlobalPooling(b) => {
                self.line("gpool_block");
                self.line(&b.name);
                self.norm_act(&b.pre);
                self.conv(&b.regular);
                self.conv(&b.pooled);
                self.norm_act(&b.pooled_norm);
                self.matmul(&b.to_bias);
                self.norm_act(&b.mid);
                self.conv(&b.last);
            }
            Block::Bottleneck(b) => {
                self.line("nested_bottleneck_block");
                self.line(&b.name);
                self.line(b.blocks.len());
                self.norm_act(&b.pre);
                self.conv(&b.inward);
                for inner in &b.blocks {
                    self.block(inner);
                }
                self.norm_act(&b.post);
                self.conv(&b.outward);
            }
            Block::Attention(b) => self.attention(b),
            Block::FeedForward(b) => self.feed_forward(b),
        }
    }

    fn attention(&mut self, b: &Attention) {
        self.line("transformer_attention_block");
        self.line(&b.name);
        for n in [b.heads, b.kv_heads, b.q_dim, b.v_dim] {
            self.line(n);
        }
        self.line(u8::from(!matches!(b.rope, Rope::None)));
        self.line(u8::from(matches!(b.rope, Rope::Learnt(_))));
        self.transformer_norm(&b.norm);
        for mul in [&b.q, &b.k, &b.v, &b.out] {
            self.matmul(mul);
        }
        match &b.rope {
            Rope::None => {}
            Rope::Theta(theta) => {
                self.line(format!("{}.rope_theta", b.name));
                self.line(theta);
            }
            Rope::Learnt(frequencies) => {
                self.line(format!("{}.rope_freqs", b.name));
                self.line(b.kv_heads);
                self.line(b.q_dim / 2);
                self.line(2);
                self.floats(frequencies);
            }
        }
    }

    fn feed_forward(&mut self, b: &FeedForward) {
        self.line("transformer_ffn_block");
        self.line(&b.name);
        self.line(b.up.c_in);
        self.line(b.up.c_out);
        self.line(u8::from(b.gate.is_some()));
        self.transformer_norm(&b.norm);
        self.matmul(&b.up);
        if let Some(gate) = &b.gate {
            self.matmul(gate);
        }
        self.matmul(&b.down);
    }

    fn policy(&mut self, m: &Model) {
        let p = &m.policy;
        self.line("model.policy_head");
        if self.version >= 17 {
            self.line(p.channels);
            for _ in 0..3 {
                self.line(0);
            }
        }
        self.conv(&p.p1);
        self.conv(&p.g1);
        self.norm_act(&p.g1_norm);
        self.matmul(&p.to_bias);
        self.norm_act(&p.p1_norm);
        self.conv(&p.p2);
        match &p.pass {
            PassHead::Linear(mul) => self.matmul(mul),
            PassHead::Layered { hidden, out } => {
                self.dense(hidden, true);
                self.matmul(out);
            }
        }
    }

    fn value(&mut self, m: &Model) {
        let v = &m.value;
        self.line("model.value_head");
        if self.version >= 17 {
            for _ in 0..3 {
                self.line(0);
            }
        }
        self.conv(&v.v1);
        self.norm_act(&v.v1_norm);
        self.dense(&v.v2, true);
        self.dense(&v.v3, false);
        self.dense(&v.scores, false);
        self.conv(&v.ownership);
    }

    fn conv(&mut self, c: &Conv) {
        self.line(&c.name);
        for n in [c.ky, c.kx, c.c_in, c.c_out, 1, 1] {
            self.line(n);
        }
        // Held `[out][in][y][x]`, written y, x, in, out.
        let mut file = Vec::with_capacity(c.weights.len());
        for y in 0..c.ky {
            for x in 0..c.kx {
                for i in 0..c.c_in {
                    for o in 0..c.c_out {
                        file.push(c.weights[((o * c.c_in + i) * c.ky + y) * c.kx + x]);
                    }
                }
            }
        }
        self.floats(&file);
    }

    /// A batch norm whose mean is 0 and variance 1, so that its scale and bias are the
    /// merged ones, and its activation.
    fn norm_act(&mut self, n: &NormAct) {
        let epsilon = 1e-20f32;
        let channels = n.scale.len();
        self.line(&n.name);
        self.line(channels);
        self.line(epsilon);
        self.line(1);
        self.line(1);
        self.floats(&vec![0.0; channels]);
        self.floats(&vec![1.0 - epsilon; channels]);
        self.floats(&n.scale);
        self.floats(&n.bias);
        self.activation(&format!("{}.act", n.name), n.activation);
    }

    fn activation(&mut self, name: &str, activation: Activation) {
        self.line(name);
        if self.version >= 11 {
            self.line(match activation {
                Activation::Identity => "ACTIVATION_IDENTITY",
                Activation::Relu => "ACTIVATION_RELU",
                Activation::Mish => "ACTIVATION_MISH",
                Activation::Silu => "ACTIVATION_SILU",
            });
        } else {
            assert_eq!(activation, Activation::Relu, "{name}: only ReLU before v11");
        }
    }

    fn matmul(&mut self, m: &MatMul) {
        self.line(&m.name);
        self.line(m.c_in);
        self.line(m.c_out);
        self.floats(&m.weights);
    }

    /// A product, its bias and (`activated`) its activation.
    fn dense(&mut self, d: &Dense, activated: bool) {
        self.matmul(&d.mul);
        self.line(format!("{}.bias", d.mul.name));
        self.line(d.bias.len());
        self.floats(&d.bias);
        if activated {
            self.activation(&format!("{}.act", d.mul.name), d.activation);
        }
    }

    fn rms_norm(&mut self, n: &RmsNorm) {
        self.line(&n.name);
        self.line(n.gamma.len());
        self.line(n.epsilon);
        self.line(u8::from(n.spatial));
        self.line(0);
        self.floats(&n.gamma);
        self.floats(&n.beta);
    }

    fn transformer_norm(&mut self, n: &TransformerNorm) {
        self.line(&n.name);
        self.line(n.weight.len());
        self.line(n.epsilon);
        self.floats(&n.weight);
    }
}

/// Models of random weights, described by a [`Spec`].
pub mod random {
    use super::super::model::{
        Activation, Attention, Block, Bottleneck, Conv, Dense, FeedForward, GlobalPooling, MatMul,
        MetadataEncoder, Model, NormAct, PassHead, PolicyHead, PostProcess, Residual, RmsNorm,
        Rope, Tip, TransformerNorm, Trunk, ValueHead, METADATA_INPUTS,
    };
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The shape of a random model.
    #[derive(Clone, Debug)]
    pub struct Spec {
        pub version: u32,
        pub channels: usize,
        pub blocks: Vec<BlockSpec>,
        /// The activation of every activation layer (ReLU before v11, as the file says).
        pub activation: Activation,
        /// An RMS-normed tip (v15+), spatial or a point at a time; a batch norm otherwise.
        pub rms_tip: Option<bool>,
        /// A metadata encoder (v15+).
        pub metadata: bool,
        /// Policy channels, for v17 (2 or 4); the version says otherwise.
        pub policy_channels: usize,
        pub suicide_pass_alive: bool,
    }

    /// A block of a random model's trunk.
    #[derive(Clone, Debug)]
    pub enum BlockSpec {
        Residual,
        GlobalPooling,
        /// A bottleneck to half the channels, around its blocks.
        Bottleneck(Vec<BlockSpec>),
        Attention {
            heads: usize,
            kv_heads: usize,
            q_dim: usize,
            v_dim: usize,
            rope: RopeSpec,
        },
        FeedForward {
            hidden: usize,
            gated: bool,
        },
    }

    #[derive(Clone, Copy, Debug)]
    pub enum RopeSpec {
        None,
        Theta(f32),
        Learnt,
    }

    impl Spec {
        /// A model of `version` with a few ordinary and pooled blocks.
        pub fn plain(version: u32) -> Spec {
            Spec {
                version,
                channels: 16,
                blocks: vec![
                    BlockSpec::Residual,
                    BlockSpec::GlobalPooling,
                    BlockSpec::Residual,
                ],
                activation: if version >= 11 {
                    Activation::Mish
                } else {
                    Activation::Relu
                },
                rms_tip: None,
                metadata: false,
                policy_channels: match version {
                    17 => 2,
                    16 => 4,
                    12..=15 => 2,
                    _ => 1,
                },
                suicide_pass_alive: false,
            }
        }
    }

    /// Random weights by `seed`, each layer's scaled by its fan-in.
    struct Maker {
        rng: SmallRng,
        activation: Activation,
    }

    impl Maker {
        fn uniform(&mut self, n: usize, spread: f32) -> Vec<f32> {
            (0..n)
                .map(|_| self.rng.gen_range(-spread..=spread))
                .collect()
        }

        fn around(&mut self, n: usize, centre: f32, spread: f32) -> Vec<f32> {
            (0..n)
                .map(|_| centre + self.rng.gen_range(-spread..=spread))
                .collect()
        }

        fn conv(&mut self, name: &str, k: usize, c_in: usize, c_out: usize) -> Conv {
            let spread = (3.0 / (k * k * c_in) as f32).sqrt();
            Conv {
                name: name.into(),
                ky: k,
                kx: k,
                c_in,
                c_out,
                weights: self.uniform(k * k * c_in * c_out, spread),
            }
        }

        fn mul(&mut self, name: &str, c_in: usize, c_out: usize) -> MatMul {
            let spread = (3.0 / c_in as f32).sqrt();
            MatMul {
                name: name.into(),
                c_in,
                c_out,
                weights: self.uniform(c_in * c_out, spread),
            }
        }

        fn dense(&mut self, name: &str, c_in: usize, c_out: usize, activated: bool) -> Dense {
            Dense {
                mul: self.mul(name, c_in, c_out),
                bias: self.uniform(c_out, 0.2),
                activation: if activated {
                    self.activation
                } else {
                    Activation::Identity
                },
            }
        }

        fn norm(&mut self, name: &str, channels: usize) -> NormAct {
            NormAct {
                name: name.into(),
                scale: self.around(channels, 1.0, 0.5),
                bias: self.uniform(channels, 0.2),
                activation: self.activation,
            }
        }

        fn transformer_norm(&mut self, name: &str, channels: usize) -> TransformerNorm {
            TransformerNorm {
                name: name.into(),
                epsilon: 1e-6,
                weight: self.around(channels, 1.0, 0.3),
            }
        }

        fn block(&mut self, name: &str, spec: &BlockSpec, c: usize) -> Block {
            let n = |part: &str| format!("{name}.{part}");
            match spec {
                BlockSpec::Residual => Block::Residual(Residual {
                    name: name.into(),
                    pre: self.norm(&n("normactconv1.norm"), c),
                    first: self.conv(&n("normactconv1.conv"), 3, c, c),
                    mid: self.norm(&n("normactconv2.norm"), c),
                    last: self.conv(&n("normactconv2.conv"), 3, c, c),
                }),
                BlockSpec::GlobalPooling => {
                    let (regular, pooled) = (c - c / 4, c / 4);
                    Block::GlobalPooling(GlobalPooling {
                        name: name.into(),
                        pre: self.norm(&n("normactconv1.norm"), c),
                        regular: self.conv(&n("normactconv1.convpool.conv1r"), 3, c, regular),
                        pooled: self.conv(&n("normactconv1.convpool.conv1g"), 3, c, pooled),
                        pooled_norm: self.norm(&n("normactconv1.convpool.normg"), pooled),
                        to_bias: self.mul(
                            &n("normactconv1.convpool.linear_g"),
                            3 * pooled,
                            regular,
                        ),
                        mid: self.norm(&n("normactconv2.norm"), regular),
                        last: self.conv(&n("normactconv2.conv"), 3, regular, c),
                    })
                }
                BlockSpec::Bottleneck(inner) => {
                    let half = c / 2;
                    Block::Bottleneck(Bottleneck {
                        name: name.into(),
                        pre: self.norm(&n("normactconvp.norm"), c),
                        inward: self.conv(&n("normactconvp.conv"), 1, c, half),
                        blocks: (inner.iter().enumerate())
                            .map(|(i, b)| self.block(&n(&format!("blockstack.{i}")), b, half))
                            .collect(),
                        post: self.norm(&n("normactconvq.norm"), half),
                        outward: self.conv(&n("normactconvq.conv"), 1, half, c),
                    })
                }
                &BlockSpec::Attention {
                    heads,
                    kv_heads,
                    q_dim,
                    v_dim,
                    rope,
                } => Block::Attention(Attention {
                    name: name.into(),
                    heads,
                    kv_heads,
                    q_dim,
                    v_dim,
                    norm: self.transformer_norm(&n("norm1"), c),
                    q: self.mul(&n("q_proj"), c, heads * q_dim),
                    k: self.mul(&n("k_proj"), c, kv_heads * q_dim),
                    v: self.mul(&n("v_proj"), c, kv_heads * v_dim),
                    out: self.mul(&n("out_proj"), heads * v_dim, c),
                    rope: match rope {
                        RopeSpec::None => Rope::None,
                        RopeSpec::Theta(theta) => Rope::Theta(theta),
                        RopeSpec::Learnt => Rope::Learnt(self.uniform(kv_heads * q_dim, 1.0)),
                    },
                }),
                &BlockSpec::FeedForward { hidden, gated } => Block::FeedForward(FeedForward {
                    name: name.into(),
                    norm: self.transformer_norm(&n("norm"), c),
                    up: self.mul(&n("ffn_linear1"), c, hidden),
                    gate: gated.then(|| self.mul(&n("ffn_linear_gate"), c, hidden)),
                    down: self.mul(&n("ffn_linear2"), hidden, c),
                }),
            }
        }
    }

    /// A model of `spec`'s shape, its weights random by `seed`.
    pub fn model(spec: &Spec, seed: u64) -> Model {
        let mut m = Maker {
            rng: SmallRng::seed_from_u64(seed),
            activation: spec.activation,
        };
        let c = spec.channels;
        let (p1, g1, v1, v2) = (c / 2, c / 4, c / 4, c);
        let version = spec.version;
        let initial = m.conv("model.conv_spatial", 5, 22, c);
        let global = m.mul("model.linear_global", 19, c);
        let metadata = spec.metadata.then(|| MetadataEncoder {
            first: m.dense("model.sgf_metadata_encoder.mul1", METADATA_INPUTS, c, true),
            second: m.dense("model.sgf_metadata_encoder.mul2", c, c, true),
            last: m.mul("model.sgf_metadata_encoder.mul3", c, c),
        });
        let blocks = (spec.blocks.iter().enumerate())
            .map(|(i, b)| m.block(&format!("model.blocks.{i}"), b, c))
            .collect();
        let tip = match spec.rms_tip {
            None => Tip::Batch(m.norm("model.norm_trunkfinal", c)),
            Some(spatial) => Tip::Rms(
                RmsNorm {
                    name: "model.norm_trunkfinal".into(),
                    epsilon: 1e-6,
                    spatial,
                    gamma: m.around(c, 1.0, 0.3),
                    beta: m.uniform(c, 0.2),
                },
                spec.activation,
            ),
        };
        let pc = spec.policy_channels;
        let policy = PolicyHead {
            channels: pc,
            p1: m.conv("model.policy_head.conv1p", 1, c, p1),
            g1: m.conv("model.policy_head.conv1g", 1, c, g1),
            g1_norm: m.norm("model.policy_head.biasg", g1),
            to_bias: m.mul("model.policy_head.linear_g", 3 * g1, p1),
            p1_norm: m.norm("model.policy_head.bias2", p1),
            p2: m.conv("model.policy_head.conv2p", 1, p1, pc),
            pass: match version {
                15.. => PassHead::Layered {
                    hidden: m.dense("model.policy_head.linear_pass", 3 * g1, p1, true),
                    out: m.mul("model.policy_head.linear_pass2", p1, pc),
                },
                _ => PassHead::Linear(m.mul("model.policy_head.linear_pass", 3 * g1, pc)),
            },
        };
        let value = ValueHead {
            v1: m.conv("model.value_head.conv1", 1, c, v1),
            v1_norm: m.norm("model.value_head.bias1", v1),
            v2: m.dense("model.value_head.linear2", 3 * v1, v2, true),
            v3: m.dense("model.value_head.linear_valuehead", v2, 3, false),
            scores: m.dense(
                "model.value_head.linear_miscvaluehead",
                v2,
                if version >= 9 { 6 } else { 4 },
                false,
            ),
            ownership: m.conv("model.value_head.conv_ownership", 1, v1, 1),
        };
        let post = match version {
            13.. => PostProcess {
                score_mean: 20.0,
                score_stdev: 20.0,
                lead: 20.0,
                variance_time: 40.0,
                shortterm_value_error: 0.25,
                shortterm_score_error: 150.0,
            },
            _ => PostProcess::default(),
        };
        Model {
            name: format!("random-v{version}"),
            version,
            post,
            pass_alive_under_suicide_rules: spec.suicide_pass_alive,
            trunk: Trunk {
                channels: c,
                initial,
                global,
                metadata,
                blocks,
                tip,
            },
            policy,
            value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::random::{self, BlockSpec, RopeSpec, Spec};
    use super::*;
    use crate::net::contract;
    use crate::net::katago::KataNetwork;
    use crate::net::SharedNet;

    fn attention(heads: usize, kv_heads: usize, rope: RopeSpec) -> BlockSpec {
        BlockSpec::Attention {
            heads,
            kv_heads,
            q_dim: 8,
            v_dim: 4,
            rope,
        }
    }

    fn swiglu() -> BlockSpec {
        BlockSpec::FeedForward {
            hidden: 24,
            gated: true,
        }
    }

    /// A v17 model with every kind of block, an RMS-normed tip (`spatial` or not), the
    /// metadata encoder (`metadata`) and four policy channels.
    fn every_kind(spatial: bool, metadata: bool) -> Spec {
        Spec {
            blocks: vec![
                BlockSpec::Residual,
                attention(2, 2, RopeSpec::Theta(100.0)),
                swiglu(),
                BlockSpec::GlobalPooling,
                attention(4, 2, RopeSpec::Learnt),
                swiglu(),
                attention(2, 1, RopeSpec::None),
                BlockSpec::Bottleneck(vec![BlockSpec::Residual, BlockSpec::GlobalPooling]),
                BlockSpec::Bottleneck(vec![attention(2, 1, RopeSpec::Theta(10.0)), swiglu()]),
            ],
            activation: Activation::Silu,
            rms_tip: Some(spatial),
            metadata,
            policy_channels: 4,
            suicide_pass_alive: true,
            ..Spec::plain(17)
        }
    }

    /// The random models of the tests: every version's plain model, then models with every
    /// kind of block, with and without the metadata encoder.
    fn specs() -> Vec<Spec> {
        let mut specs: Vec<Spec> = (8..=17).map(Spec::plain).collect();
        specs.push(every_kind(true, false));
        specs.push(every_kind(false, true));
        specs.push(Spec {
            policy_channels: 2,
            ..every_kind(false, false)
        });
        specs.push(Spec {
            blocks: vec![BlockSpec::Residual, attention(2, 2, RopeSpec::Theta(100.0))],
            metadata: true,
            ..Spec::plain(15)
        });
        specs.push(Spec {
            blocks: vec![attention(2, 1, RopeSpec::Learnt), swiglu()],
            rms_tip: Some(true),
            ..Spec::plain(16)
        });
        specs
    }

    #[test]
    fn written_models_read_back_to_the_same_values() {
        for (seed, spec) in specs().iter().enumerate() {
            let model = random::model(spec, seed as u64);
            let bytes = write(&model);
            let read =
                Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("v{}: {e}", spec.version));
            // Written again, the model read is the same file: every value came back.
            assert!(write(&read) == bytes, "v{} differs", spec.version);
            assert_eq!(read.version, spec.version);
            assert_eq!(read.trunk.initial.weights, model.trunk.initial.weights);
            for (a, b) in read.trunk.blocks.iter().zip(&model.trunk.blocks) {
                match (a, b) {
                    (Block::Residual(a), Block::Residual(b)) => {
                        assert_eq!((&a.pre.scale, &a.pre.bias), (&b.pre.scale, &b.pre.bias));
                    }
                    (Block::Attention(a), Block::Attention(b)) => {
                        assert_eq!(a.q.weights, b.q.weights);
                        assert_eq!(a.norm.weight, b.norm.weight);
                    }
                    _ => {}
                }
            }
            assert_eq!(read.has_transformer(), model.has_transformer());
            // Gzipped, as KataGo publishes them, the same.
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &bytes).unwrap();
            let unpacked = Model::from_bytes(&gz.finish().unwrap()).unwrap();
            assert!(write(&unpacked) == bytes);
        }
    }

    fn network(spec: &Spec, seed: u64) -> KataNetwork {
        let bytes = write(&random::model(spec, seed));
        let profile = spec.metadata.then_some("rank_5k");
        KataNetwork::from_bytes_with_profile(&bytes, profile)
            .unwrap_or_else(|e| panic!("v{}: {e}", spec.version))
    }

    #[test]
    fn written_models_run_on_every_board() {
        for (seed, spec) in specs().iter().enumerate() {
            let net = SharedNet::new(network(spec, seed as u64));
            for (n, case) in contract::cases().iter().enumerate() {
                let mut evaluator = net.evaluator(case.board.size());
                let output = evaluator.evaluate_one(&case.position(), 7.5);
                let what = format!("v{} model {seed}, case {n}", spec.version);
                let total: f32 = output.policy.iter().sum::<f32>() + output.pass.unwrap();
                assert!((total - 1.0).abs() < 1e-4, "{what}: policy sums to {total}");
                let d = output.details.unwrap();
                let values = [
                    output.value.unwrap(),
                    output.score_lead.unwrap(),
                    output.score_stdev.unwrap(),
                    d.score_mean,
                    d.var_time_left,
                    d.shortterm_winloss_error,
                    d.shortterm_score_error,
                ];
                let ownership = output.ownership.as_ref().unwrap();
                assert!(
                    values.iter().chain(ownership).all(|v| v.is_finite()),
                    "{what}: {values:?}"
                );
                assert!((d.win + d.loss + d.no_result - 1.0).abs() < 1e-5, "{what}");
            }
        }
    }

    /// Writes the random models of [`specs`] (and one with a plain feed-forward block) into
    /// the folder `HOSHI_KATAGO_RANDOM_MODELS` names, `random-N-vV.bin`, for KataGo to read:
    /// `HOSHI_KATAGO_RANDOM_MODELS=/tmp/models cargo test --lib write_random_models -- --ignored`.
    #[test]
    #[ignore = "writes files for KataGo; run by hand"]
    fn write_random_models() {
        let folder = std::env::var("HOSHI_KATAGO_RANDOM_MODELS").expect("a folder");
        std::fs::create_dir_all(&folder).unwrap();
        let mut specs = specs();
        specs.push(Spec {
            blocks: vec![BlockSpec::FeedForward {
                hidden: 24,
                gated: false,
            }],
            ..Spec::plain(17)
        });
        for (seed, spec) in specs.iter().enumerate() {
            let path = format!("{folder}/random-{seed}-v{}.bin", spec.version);
            std::fs::write(&path, write(&random::model(spec, seed as u64))).unwrap();
        }
    }

    /// KataGo's answers to `kata-raw-nn 0..7` with the random models `random-N-vV` of
    /// [`specs`] (seed N), in the positions of `tests/fixtures/katago/random/positions.txt`
    /// (`random/random-N-vV.rawnn` there, made by `make_fixtures.py` from the files
    /// [`write_random_models`] writes: see the folder's README.md). Changing [`specs`] or the
    /// random weights means making them again.
    const KATAGO_ANSWERS: [(usize, Option<&str>); 4] = [
        (10, None),
        (11, Some("rank_5k")),
        (13, Some("rank_5k")),
        (14, None),
    ];

    /// One of KataGo's answers: each field's numbers (NaN where a move is illegal).
    fn parse_answer(lines: &[&str]) -> std::collections::HashMap<String, Vec<f32>> {
        let mut fields = std::collections::HashMap::new();
        let mut current = String::new();
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            let number = |w: &str| w.parse::<f32>().unwrap_or(f32::NAN);
            match words[..] {
                [field] => current = field.to_string(),
                [field, value] if field.starts_with(|c: char| c.is_alphabetic()) => {
                    fields.insert(field.to_string(), vec![number(value)]);
                }
                _ => fields
                    .entry(current.clone())
                    .or_insert_with(Vec::new)
                    .extend(words.iter().map(|w| number(w))),
            }
        }
        fields
    }

    /// hoshi's answer as KataGo's `kata-raw-nn` writes it (White's view, rows from the top),
    /// in the same fields.
    fn our_answer(
        output: &crate::net::Output,
        size: usize,
        to_move: crate::coord::Color,
    ) -> std::collections::HashMap<String, Vec<f32>> {
        let white = to_move == crate::coord::Color::White;
        let sign = if white { 1.0 } else { -1.0 };
        let d = output.details.unwrap();
        let (win, loss) = if white {
            (d.win, d.loss)
        } else {
            (d.loss, d.win)
        };
        let rows = |map: &[f32], sign: f32| -> Vec<f32> {
            (0..size)
                .rev()
                .flat_map(|row| (0..size).map(move |col| row * size + col))
                .map(|v| sign * map[v])
                .collect()
        };
        [
            ("whiteWin", vec![win]),
            ("whiteLoss", vec![loss]),
            ("noResult", vec![d.no_result]),
            ("whiteLead", vec![sign * output.score_lead.unwrap()]),
            ("whiteScoreSelfplay", vec![sign * d.score_mean]),
            ("whiteScoreSelfplaySq", vec![d.score_mean_square]),
            ("varTimeLeft", vec![d.var_time_left]),
            ("shorttermWinlossError", vec![d.shortterm_winloss_error]),
            ("shorttermScoreError", vec![d.shortterm_score_error]),
            ("policy", rows(&output.policy, 1.0)),
            ("policyPass", vec![output.pass.unwrap()]),
            (
                "whiteOwnership",
                rows(output.ownership.as_ref().unwrap(), sign),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// A position of `random/positions.txt`: name, size, rules, komi, moves (colour, vertex).
    type Setup = (String, usize, String, f64, Vec<(String, String)>);

    /// The positions of `random/positions.txt`.
    fn random_positions() -> Vec<Setup> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/katago/random/positions.txt"
        );
        let mut positions: Vec<Setup> = Vec::new();
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"position") => positions.push((
                    words[1].to_string(),
                    words[2].parse().unwrap(),
                    words[3].to_string(),
                    words[4].parse().unwrap(),
                    Vec::new(),
                )),
                Some(&"moves") => positions.last_mut().unwrap().4.extend(
                    words[1..]
                        .chunks(2)
                        .map(|m| (m[0].to_string(), m[1].to_string())),
                ),
                _ => {}
            }
        }
        positions
    }

    #[test]
    fn random_models_give_katagos_answers() {
        use crate::coord::{Color, Move};
        use crate::game::{Game, PositionFacts};
        use crate::net::Symmetry;
        let specs = specs();
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/katago/random");
        for (seed, profile) in KATAGO_ANSWERS {
            let spec = &specs[seed];
            let stem = format!("random-{seed}-v{}", spec.version);
            let bytes = write(&random::model(spec, seed as u64));
            let net = KataNetwork::from_bytes_with_profile(&bytes, profile).unwrap();
            let net = SharedNet::new(net);
            let text = std::fs::read_to_string(format!("{folder}/{stem}.rawnn")).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
            let mut answers = std::collections::HashMap::new();
            for block in lines.split(|l| l.is_empty()).filter(|b| !b.is_empty()) {
                answers.insert(block[0].to_string(), parse_answer(&block[1..]));
            }
            let mut compared = 0;
            for (name, size, rules, komi, moves) in random_positions() {
                let rules = crate::rules::Ruleset::from_name(&rules).unwrap();
                let mut game = Game::new(size, rules, komi).unwrap();
                for (colour, vertex) in &moves {
                    let color = if colour == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let p = game.board().geometry().parse_point(vertex).unwrap();
                    game.play(color, Move::Play(p)).unwrap();
                }
                let to_move = game.to_move();
                let network = net.network();
                let facts =
                    PositionFacts::of(&game, to_move, network.history(), network.earlier_boards());
                let position = facts.position(game.board(), to_move);
                for symmetry in Symmetry::all() {
                    let mut evaluator = net.evaluator(size);
                    evaluator.read_in(symmetry);
                    evaluator.set_policy_optimism(0.2);
                    let output = evaluator.evaluate_one(&position, game.area_komi());
                    let ours = our_answer(&output, size, to_move);
                    let key = format!("rawnn {name} {}", symmetry.number());
                    let theirs = answers.get(&key).unwrap_or_else(|| panic!("{stem}: {key}"));
                    for (field, expected) in theirs {
                        if field == "symmetry" {
                            continue;
                        }
                        let got = &ours[field];
                        assert_eq!(got.len(), expected.len(), "{stem} {key} {field}");
                        for (i, (&g, &e)) in got.iter().zip(expected).enumerate() {
                            // KataGo prints probabilities to 6 places, scores to 3.
                            let tolerance = match field.as_str() {
                                "whiteScoreSelfplaySq" => 1e-3 + 3e-3 * e.abs().sqrt(),
                                "whiteLead" | "whiteScoreSelfplay" | "varTimeLeft" => 1.1e-3,
                                f if f.starts_with("shortterm") => 1.1e-3,
                                _ => 1e-4,
                            };
                            assert!(
                                e.is_nan() || (g - e).abs() <= tolerance,
                                "{stem} {key} {field}[{i}]: hoshi {g}, KataGo {e}"
                            );
                        }
                        compared += 1;
                    }
                }
            }
            assert_eq!(compared, 3 * 8 * 12, "{stem}: every answer compared");
        }
    }

    #[test]
    fn human_networks_play_as_a_profile() {
        let spec = Spec {
            blocks: vec![BlockSpec::Residual, attention(2, 2, RopeSpec::Theta(100.0))],
            metadata: true,
            ..Spec::plain(15)
        };
        let bytes = write(&random::model(&spec, 9));
        let refused = KataNetwork::from_bytes(&bytes).err().unwrap().to_string();
        assert!(refused.contains("humanSLProfile"), "{refused}");
        let unknown = KataNetwork::from_bytes_with_profile(&bytes, Some("rank_30k"));
        assert!(unknown.err().unwrap().to_string().contains("rank_30k"));
        let case = &contract::cases()[2];
        let policy = |profile: &str| {
            let net = KataNetwork::from_bytes_with_profile(&bytes, Some(profile)).unwrap();
            assert_eq!(net.profile().unwrap().name(), profile);
            let net = SharedNet::new(net);
            let output = net.evaluator(9).evaluate_one(&case.position(), 7.5);
            output.policy.clone()
        };
        assert_eq!(policy("rank_5k"), policy("rank_5k"));
        assert_ne!(policy("rank_5k"), policy("rank_3d"));
        assert_ne!(policy("preaz_5k"), policy("rank_5k"));
        assert_ne!(policy("proyear_1990"), policy("proyear_2021"));
        // A network without an encoder takes a profile and ignores it, as KataGo does.
        let plain = write(&random::model(&Spec::plain(15), 9));
        let net = KataNetwork::from_bytes_with_profile(&plain, Some("rank_5k")).unwrap();
        assert!(!net.needs_profile());
        assert!(KataNetwork::from_bytes_with_profile(&plain, Some("rank_x")).is_err());
    }

    #[test]
    fn plain_feed_forward_blocks_are_read_but_not_run() {
        let spec = Spec {
            blocks: vec![BlockSpec::Bottleneck(vec![BlockSpec::FeedForward {
                hidden: 24,
                gated: false,
            }])],
            ..Spec::plain(17)
        };
        let bytes = write(&random::model(&spec, 1));
        let model = Model::from_bytes(&bytes).unwrap();
        assert!(write(&model) == bytes);
        let refused = KataNetwork::from_bytes(&bytes).err().unwrap().to_string();
        assert!(refused.contains("without SwiGLU"), "{refused}");
    }
}
