//! The Rust forward pass against PyTorch's: the training code wrote a small network of random
//! weights and the logits it computed for some positions (`tests/fixtures/policy-net/`, a
//! version 1 file; format in `docs/policy-net.md`); every logit must agree to 1e-4. A missing
//! fixture fails the test: without it nothing checks that the two sides read the weights the
//! same way. The fixture reader serves the value head's test too (`value_net.rs`).

use hoshi::net::hnet::Model;
use std::path::{Path, PathBuf};

/// A file of `tests/fixtures/DIR/`.
pub(crate) fn fixture(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
        .join(name)
}

/// One position of `positions.txt`: its line number, board size, input bytes, logits and,
/// in a value network's fixture, its value line, and in a version 3 one its score (the
/// mover's lead) and ownership lines.
pub(crate) struct Case {
    pub line: usize,
    pub size: usize,
    pub bytes: Vec<u8>,
    pub logits: Vec<f32>,
    pub value: Option<ValueCase>,
    pub score: Option<f32>,
    pub ownership: Option<Vec<f32>>,
}

/// A `value S K P` line: the side to move is White (`w`) or Black (`b`), Black's komi, the
/// side to move's win probability.
pub(crate) struct ValueCase {
    pub white: bool,
    pub komi: f32,
    pub value: f32,
}

impl ValueCase {
    /// The komi the side to move receives.
    pub fn mover_komi(&self) -> f32 {
        if self.white {
            self.komi
        } else {
            -self.komi
        }
    }
}

type Words<'a> = (usize, Vec<&'a str>);

pub(crate) fn read_cases(text: &str) -> Vec<Case> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, words)| !words.is_empty())
        .peekable();
    let mut cases = Vec::new();
    while let Some((line, position)) = lines.next() {
        let (size, bytes) = match position.as_slice() {
            ["position", size, hex] => (parse_size(size, line), parse_hex(hex, line)),
            _ => panic!("line {line}: expected `position N HEX`"),
        };
        let logits = match lines.next() {
            Some((at, words)) if words.first() == Some(&"logits") => {
                words[1..].iter().map(|w| parse_float(w, at)).collect()
            }
            _ => panic!("line {}: expected `logits ...`", line + 1),
        };
        let value = match lines.peek() {
            Some((_, words)) if words.first() == Some(&"value") => lines.next().map(value_case),
            _ => None,
        };
        let mut numbers = |first: &str| match lines.peek() {
            Some((_, words)) if words.first() == Some(&first) => lines.next().map(|(at, w)| {
                w[1..]
                    .iter()
                    .map(|w| parse_float(w, at))
                    .collect::<Vec<_>>()
            }),
            _ => None,
        };
        let score = numbers("score").map(|s| match s.as_slice() {
            [lead] => *lead,
            _ => panic!("after line {line}: expected `score LEAD`"),
        });
        let ownership = numbers("ownership");
        cases.push(Case {
            line,
            size,
            bytes,
            logits,
            value,
            score,
            ownership,
        });
    }
    cases
}

fn value_case((line, words): Words) -> ValueCase {
    match words.as_slice() {
        ["value", side @ ("b" | "w"), komi, value] => ValueCase {
            white: *side == "w",
            komi: parse_float(komi, line),
            value: parse_float(value, line),
        },
        _ => panic!("line {line}: expected `value b|w KOMI P`"),
    }
}

fn parse_float(word: &str, line: usize) -> f32 {
    word.parse()
        .unwrap_or_else(|_| panic!("line {line}: number {word:?}"))
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

pub(crate) fn missing(name: &str, e: &dyn std::fmt::Display) -> ! {
    panic!("fixture {name} missing or unreadable ({e}): the training code writes it (docs/policy-net.md)")
}

/// The network and the positions of `tests/fixtures/DIR/`, with every board size of 9, 13
/// and 19 among them.
pub(crate) fn load_fixture(dir: &str) -> (Model, Vec<Case>) {
    let bytes = hoshi::setup::read_network_file(&fixture(dir, "small.hnet"))
        .unwrap_or_else(|e| missing("small.hnet", &e));
    let net = Model::from_bytes(&bytes).unwrap_or_else(|e| missing("small.hnet", &e));
    let text = std::fs::read_to_string(fixture(dir, "positions.txt"))
        .unwrap_or_else(|e| missing("positions.txt", &e));
    let cases = read_cases(&text);
    for size in [9, 13, 19] {
        assert!(
            cases.iter().any(|c| c.size == size),
            "{dir}/positions.txt has no {size}x{size} position"
        );
    }
    for case in &cases {
        let (line, area) = (case.line, case.size * case.size);
        assert_eq!(case.bytes.len(), area, "line {line}: input bytes");
        assert_eq!(case.logits.len(), area, "line {}: logits", line + 1);
    }
    (net, cases)
}

/// Equal to 1e-4, relative to the larger of 1 and PyTorch's value.
pub(crate) fn assert_logits(case: &Case, logits: &[f32]) {
    for (p, (&found, &expected)) in logits.iter().zip(&case.logits).enumerate() {
        let tolerance = 1e-4 * expected.abs().max(1.0);
        assert!(
            (found - expected).abs() <= tolerance,
            "position of line {} ({}x{}), point {p}: {found:.8e}, PyTorch {expected:.8e}",
            case.line,
            case.size,
            case.size
        );
    }
}

#[test]
fn policy_net_matches_the_training_code() {
    let (net, cases) = load_fixture("policy-net");
    assert!(!net.has_value(), "the version 1 fixture has no value head");
    let mut ws = net.workspace(19, 1);
    for case in &cases {
        let mut logits = vec![0.0; case.size * case.size];
        net.forward(case.size, &[&case.bytes], &mut ws, &mut logits);
        assert_logits(case, &logits);
    }
}

/// The network hoshi ships with has learned where strong players open: on an empty 19×19
/// board its best four moves are the corners' star or 3-4 points, and after Black's Q16 it
/// answers in another corner, not next to the stone. A network that learned nothing fails.
#[test]
fn the_embedded_network_opens_in_the_corners() {
    let mut engine = hoshi::engine::Engine::new(hoshi::engine::Settings::default());
    let answers = crate::common::gtp_answers(&mut engine, "hoshi-policy 4\n");
    let corner = regex::Regex::new(r"^([CDEQR](3|4|5|15|16|17)) 0\.\d{4}$").expect("regex");
    let lines: Vec<&str> = answers[0].trim_start_matches("= ").lines().collect();
    assert_eq!(lines.len(), 4, "{answers:?}");
    for line in &lines {
        assert!(
            corner.is_match(line),
            "{line} is not a corner point: {answers:?}"
        );
    }
    let total: f64 = lines
        .iter()
        .filter_map(|l| l.split(' ').nth(1)?.parse::<f64>().ok())
        .sum();
    assert!(total > 0.3, "the corners take {total} of the probability");
}

/// `--net none`: the commands that need the network say so, and the game goes on.
#[test]
fn without_a_network_hoshi_policy_fails_cleanly() {
    let mut settings = hoshi::engine::Settings::default();
    settings.player.net = hoshi::setup::NetChoice::Off;
    let mut engine = hoshi::engine::Engine::new(settings);
    let answers = crate::common::gtp_answers(
        &mut engine,
        "hoshi-policy\nhoshi-policy_gfx\nplay b d4\n1 showboard\n",
    );
    assert_eq!(answers[0], "? no network (--net none)");
    assert_eq!(answers[1], "? no network (--net none)");
    assert_eq!(answers[2], "=");
    assert!(answers[3].starts_with("=1"), "{answers:?}");
}

/// What analysis shows as a move's prior is the network's probability for it (Sabaki draws
/// it), the same number `hoshi-policy` gives.
#[test]
fn analysis_priors_are_the_networks_probabilities() {
    use hoshi::search::{Budget, Search, SearchConfig};
    let game = hoshi::game::Game::new(19, hoshi::rules::Ruleset::FRENCH, 7.5).expect("a game");
    let mut settings = hoshi::engine::Settings::default();
    settings.player.net = hoshi::setup::NetChoice::Given(hoshi::setup::embedded());
    let engine = hoshi::engine::Engine::new(settings);
    let policy = engine.policy().expect("the embedded network");
    let mut search = Search::new(SearchConfig::default(), networked(), 7);
    let mut infos = Vec::new();
    search.run_watched(
        &game,
        hoshi::coord::Color::Black,
        Budget {
            visits: Some(3000),
            time: None,
        },
        &mut |progress| {
            infos = progress.moves();
            true
        },
    );
    assert!(!infos.is_empty());
    for info in &infos {
        let expected = policy
            .iter()
            .find(|(mv, _)| *mv == info.mv)
            .map_or(0.0, |m| f64::from(m.1));
        assert!(
            (info.prior - expected).abs() < 1e-6,
            "{:?}: {} vs {expected}",
            info.mv,
            info.prior
        );
    }
}

/// The win rate a search reports is its simulations', never the network's virtual wins: on
/// an empty 19x19 board with a komi of 361.5 Black cannot win, and 100 playouts (the 19x19
/// intermediate's budget, where the network's priors weigh more than the simulations) say
/// so for every move, so that a lost game looks lost and may be resigned.
#[test]
fn reported_win_rates_leave_the_network_prior_out() {
    use hoshi::search::{Budget, Search, SearchConfig};
    let game = hoshi::game::Game::new(19, hoshi::rules::Ruleset::FRENCH, 361.5).expect("a game");
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, networked(), 7);
    let budget = Budget {
        visits: Some(100),
        time: None,
    };
    let result = search.run(
        &game,
        hoshi::coord::Color::Black,
        budget,
        &std::sync::atomic::AtomicBool::new(false),
    );
    assert_eq!((result.winrate, result.search_winrate), (0.0, 0.0));
    let simulated: Vec<_> = result.candidates.iter().filter(|c| c.visits > 0).collect();
    assert!(simulated.len() > 1, "{:?}", result.candidates);
    assert!(simulated.iter().all(|c| c.winrate == 0.0), "{simulated:?}");
}

/// The standard knowledge with the embedded network, at the default tuning, as the setup
/// makes it for a 19x19 board.
fn networked() -> std::sync::Arc<hoshi::knowledge::Standard> {
    use hoshi::setup::{embedded, Advice, NetChoice, Tuning, Workshop};
    let mut shop = Workshop::new(NetChoice::Given(embedded()), Tuning::default());
    shop.kit(19, Advice::Strongest).knowledge
}
