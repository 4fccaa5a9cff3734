//! GoGui's view of hoshi: every entry of `gogui-analyze_commands` runs without error once
//! its wildcards are filled in, and the graphics say the right things about a position
//! (ko and suicide points labelled, candidate labels on empty points, a variation that
//! alternates colors, parameters that take effect).

use hoshi::engine::{Engine, Settings};

/// Runs a GTP session in-process; returns the answers (without their empty lines).
fn session(script: &str) -> Vec<String> {
    let mut settings = Settings {
        size: 9,
        seed: 5,
        ..Settings::default()
    };
    settings.player.threads = 1;
    settings.player.time = Some(std::time::Duration::from_millis(200));
    let mut engine = Engine::new(settings);
    crate::common::gtp_answers(&mut engine, script)
}

/// A 9x9 position where Black has just retaken a ko White may not retake at once, and a
/// point (A9) where White would have no liberty.
const KO_POSITION: &str = "boardsize 9\nclear_board\n\
    play b d5\nplay w e5\nplay b c4\nplay w f4\nplay b d3\nplay w e3\nplay b e4\nplay w d4\n\
    play b b9\nplay w a7\nplay b a8\nplay w j1\nplay b e4\n";

#[test]
fn every_menu_entry_runs() {
    let menu = session("gogui-analyze_commands\n");
    let entries: Vec<&str> = menu[0].trim_start_matches("= ").lines().collect();
    assert!(entries.len() >= 10, "{entries:?}");
    let sgf = std::env::temp_dir().join("hoshi-gogui-menu.sgf");
    let mut script = String::from(KO_POSITION);
    for entry in &entries {
        let fields: Vec<&str> = entry.split('/').collect();
        assert!(fields.len() >= 3, "type/label/command: {entry}");
        let command = fields[2]
            .replace("%m", "w")
            .replace("%s", "french")
            .replace("%w", &sgf.display().to_string());
        script.push_str(&command);
        script.push('\n');
    }
    let answers = session(&script);
    let setup = KO_POSITION.lines().count();
    assert_eq!(answers.len(), setup + entries.len());
    for (entry, answer) in entries.iter().zip(&answers[setup..]) {
        assert!(answer.starts_with('='), "{entry}: {answer}");
    }
    assert!(std::fs::read_to_string(&sgf)
        .expect("Save SGF wrote the file")
        .contains("SZ[9]"));
}

#[test]
fn forbidden_points_are_labelled_with_their_reason() {
    let answers = session(&format!(
        "{KO_POSITION}hoshi-legal_moves w\nhoshi-legal_moves b\n"
    ));
    let white = &answers[answers.len() - 2];
    assert!(white.contains("LABEL"), "{white}");
    assert!(
        white.contains("D4 ko") || white.contains("D4 superko"),
        "the ko point: {white}"
    );
    assert!(white.contains("A9 suicide"), "{white}");
    let green = white
        .lines()
        .find(|l| l.starts_with("= COLOR green") || l.starts_with("COLOR green"))
        .expect("legal points in green");
    for forbidden in [" D4 ", " A9 ", " E4 ", " D5 "] {
        assert!(
            !format!("{green} ").contains(forbidden),
            "{forbidden} is not legal"
        );
    }
    let black = answers.last().expect("an answer");
    assert!(!black.contains(" ko"), "Black may fill the ko: {black}");
}

#[test]
fn best_moves_and_the_variation_name_empty_points() {
    let answers = session(&format!("{KO_POSITION}hoshi-best_moves w\nhoshi-pv w\n"));
    let gfx = &answers[answers.len() - 2];
    let labels = gfx
        .lines()
        .find_map(|l| l.strip_prefix("LABEL "))
        .expect("labels");
    let occupied = [
        "D5", "E5", "C4", "F4", "D3", "E3", "E4", "B9", "A7", "A8", "J1",
    ];
    for pair in labels.split_whitespace().collect::<Vec<_>>().chunks(2) {
        assert!(!occupied.contains(&pair[0]), "{} is occupied", pair[0]);
        let (percent, visits) = pair[1].split_once('/').expect("win rate/visits");
        let percent: i64 = percent.parse().expect("a percentage");
        assert!(!visits.is_empty());
        assert!((0..=100).contains(&percent));
    }
    let var = gfx
        .lines()
        .find_map(|l| l.strip_prefix("VAR "))
        .expect("VAR");
    let words: Vec<&str> = var.split_whitespace().collect();
    for (k, pair) in words.chunks(2).enumerate() {
        assert_eq!(pair[0], if k % 2 == 0 { "w" } else { "b" }, "{var}");
    }
    assert!(gfx.contains("TEXT White"), "{gfx}");
    let pv = answers.last().expect("pv").trim_start_matches("= ");
    assert!(!pv.is_empty());
    assert!(!occupied.contains(&pv.split_whitespace().next().unwrap_or("")));
}

#[test]
fn the_ownership_picture_shades_each_side_s_area() {
    // Black walls off the left of the board, White the right.
    let mut script = String::from("boardsize 9\nclear_board\n");
    for row in 1..=9 {
        script.push_str(&format!("play b c{row}\nplay w g{row}\n"));
    }
    script.push_str("hoshi-ownership_gfx\n");
    let answers = session(&script);
    let gfx = answers.last().expect("an answer").trim_start_matches("= ");
    let values: Vec<&str> = gfx
        .strip_prefix("INFLUENCE ")
        .expect("INFLUENCE")
        .split_whitespace()
        .collect();
    let value = |point: &str| -> f64 {
        let at = values.iter().position(|&w| w == point).expect(point);
        values[at + 1].parse().expect("a number")
    };
    assert!(value("A5") > 0.5, "{gfx}");
    assert!(value("C5") > 0.5);
    assert!(value("J5") < -0.5);
    assert!(value("G1") < -0.5);
}

#[test]
fn parameters_take_effect_and_bad_ones_change_nothing() {
    let answers = session(
        "hoshi-param playouts 300\nhoshi-param threads 2\nhoshi-param live_gfx 1\n\
         hoshi-param ponder maybe\nhoshi-param colour red\nhoshi-param time -1\nhoshi-param\n",
    );
    assert_eq!(&answers[..3], ["=", "=", "="]);
    assert_eq!(
        &answers[3..6],
        [
            "? syntax error",
            "? unknown parameter \"colour\"",
            "? syntax error"
        ]
    );
    let table = &answers[6];
    for line in [
        "[string] visits 300",
        "[string] threads 2",
        "[bool] live_gfx 1",
        "[bool] ponder 0",
        "[string] time 0.2",
    ] {
        assert!(table.contains(line), "{line} in {table}");
    }
}
