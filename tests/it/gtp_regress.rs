//! Runs every GTP regression file in `gtp-tests/` against the built engine, the way GoGui's
//! `gogui-regress` does, and fails on any unexpected result.
//!
//! The format is gogui-regress's:
//! * a command line, with a number (`10 play b D4`) when it is a test;
//! * `#? [regex]` after a numbered command: the answer (the text after `=10 `, trimmed) must
//!   match the whole regex (Java flavour, `.` matching line breaks, `^`/`$` at lines);
//!   `[!regex]` must not match; a `*` after `]` marks a known failure. A numbered command
//!   without `#?` only has to succeed.
//! * `#` lines are comments, empty lines are skipped.
//!
//! One extension, which gogui-regress skips as a comment: `#! [regex]` after an
//! *unnumbered* command says the command must fail with an error message matching the regex
//! (gogui-regress counts any failing test as FAIL, and an unnumbered failing command only as
//! an "Error" in its summary). Here every other unnumbered command must succeed.
//!
//! Besides the answers, every answer's framing is checked: `=`/`?`, the id echoed, one empty
//! line at the end and none inside. The engine runs in `gtp-tests/`, so files there are
//! named by relative paths, as gogui-regress does too.

use crate::common;

use regex::{Regex, RegexBuilder};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout};

#[test]
fn every_regression_file_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gtp-tests/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tst"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .tst files in {}", dir.display());
    let mut failures = Vec::new();
    let mut tests = 0;
    for file in &files {
        let (count, mut failed) = run_file(&dir, file);
        tests += count;
        failures.append(&mut failed);
    }
    println!("{} files, {tests} checks", files.len());
    assert!(
        failures.is_empty(),
        "{} unexpected results:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The engine process, spoken to one command at a time.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(dir: &Path) -> Engine {
        // A small fixed budget: the files test the protocol and the rules, not the strength,
        // and must not depend on the machine's speed.
        let mut child =
            common::spawn_hoshi(&["--playouts", "300", "--threads", "1", "--seed", "1"], dir);
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line and reads the answer up to its empty line (without it).
    fn ask(&mut self, line: &str) -> Result<String, String> {
        writeln!(self.stdin, "{line}").map_err(|e| format!("cannot send: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("cannot send: {e}"))?;
        let mut lines = Vec::new();
        loop {
            let mut text = String::new();
            match self.stdout.read_line(&mut text) {
                Ok(0) => return Err(format!("engine gone; read so far: {lines:?}")),
                Ok(_) if text == "\n" => return Ok(lines.join("\n")),
                Ok(_) => lines.push(text.trim_end_matches('\n').to_string()),
                Err(e) => return Err(format!("cannot read: {e}")),
            }
        }
    }
}

/// A command of the file and what the engine answered.
struct Asked {
    line_number: usize,
    command: String,
    id: Option<String>,
    /// The answer split into success and text (after the `=id` / `?id` and the space).
    success: bool,
    text: String,
    /// Whether an expectation line followed.
    checked: bool,
}

/// Runs one file; returns the number of checks and the failures.
fn run_file(dir: &Path, file: &Path) -> (usize, Vec<String>) {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let text = std::fs::read_to_string(file).expect("readable test file");
    let mut engine = Engine::start(dir);
    let mut failures = Vec::new();
    let mut checks = 0;
    let mut last: Option<Asked> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let place = format!("{name}:{}", i + 1);
        if let Some(rest) = line.strip_prefix("#?") {
            checks += 1;
            if let Err(why) = check_answer(last.as_mut(), rest.trim()) {
                failures.push(format!("{place}: {why}"));
            }
        } else if let Some(rest) = line.strip_prefix("#!") {
            checks += 1;
            if let Err(why) = check_error(last.as_mut(), rest.trim()) {
                failures.push(format!("{place}: {why}"));
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            if let Some(done) = last.take() {
                failures.extend(unchecked_failure(&name, &done));
            }
            match send(&mut engine, line, i + 1) {
                Ok(asked) => last = Some(asked),
                Err(why) => {
                    failures.push(format!("{place}: `{line}`: {why}"));
                    return (checks, failures);
                }
            }
        }
    }
    if let Some(done) = last.take() {
        failures.extend(unchecked_failure(&name, &done));
    }
    failures.extend(
        quit(&mut engine)
            .err()
            .map(|why| format!("{name}: at quit: {why}")),
    );
    (checks, failures)
}

/// Sends a command line and checks the framing of its answer.
fn send(engine: &mut Engine, line: &str, line_number: usize) -> Result<Asked, String> {
    let id = line
        .split_whitespace()
        .next()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
        .map(String::from);
    let answer = engine.ask(line)?;
    let (success, text) = split_answer(&answer, id.as_deref())?;
    Ok(Asked {
        line_number,
        command: line.to_string(),
        id,
        success,
        text,
        checked: false,
    })
}

/// `=id text` or `?id text` into success and text; any framing fault is an error.
fn split_answer(answer: &str, id: Option<&str>) -> Result<(bool, String), String> {
    let success = match answer.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(format!("answer does not start with = or ?: {answer:?}")),
    };
    let rest = &answer[1..];
    let rest = rest
        .strip_prefix(id.unwrap_or(""))
        .ok_or_else(|| format!("id {id:?} not echoed: {answer:?}"))?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\n')) {
        return Err(format!("no space after the id: {answer:?}"));
    }
    if rest.split('\n').skip(1).any(|l| l.trim().is_empty()) {
        return Err(format!("blank line inside the answer: {answer:?}"));
    }
    Ok((success, rest.trim().to_string()))
}

/// A command no expectation followed: it must have succeeded.
fn unchecked_failure(file: &str, asked: &Asked) -> Option<String> {
    (!asked.checked && !asked.success).then(|| {
        format!(
            "{file}:{}: `{}`: unexpected failure `? {}`",
            asked.line_number, asked.command, asked.text
        )
    })
}

/// `#? [regex]` (optionally `[!regex]`, optionally followed by `*`).
fn check_answer(last: Option<&mut Asked>, spec: &str) -> Result<(), String> {
    let asked = last.ok_or("#? without a command before it")?;
    if asked.id.is_none() {
        return Err(format!("`{}`: #? needs a numbered command", asked.command));
    }
    asked.checked = true;
    let (known_failure, spec) = match spec.strip_suffix('*') {
        Some(s) => (true, s.trim_end()),
        None => (false, spec),
    };
    let pattern = bracketed(spec)?;
    let (negated, pattern) = match pattern.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, pattern),
    };
    let passed = asked.success && expectation(pattern)?.is_match(&asked.text) != negated;
    let got = if asked.success { "=" } else { "?" };
    match (passed, known_failure) {
        (true, false) | (false, true) => Ok(()),
        (false, false) => Err(format!(
            "`{}`: expected {spec}, got `{got} {}`",
            asked.command, asked.text
        )),
        (true, true) => Err(format!(
            "`{}`: marked as a known failure but passed, got `{got} {}`",
            asked.command, asked.text
        )),
    }
}

/// `#! [regex]`: the unnumbered command before must have failed with a matching message.
fn check_error(last: Option<&mut Asked>, spec: &str) -> Result<(), String> {
    let asked = last.ok_or("#! without a command before it")?;
    if asked.id.is_some() {
        return Err(format!(
            "`{}`: #! needs an unnumbered command (gogui-regress would count it as FAIL)",
            asked.command
        ));
    }
    asked.checked = true;
    let pattern = bracketed(spec)?;
    if !asked.success && expectation(pattern)?.is_match(&asked.text) {
        Ok(())
    } else {
        let got = if asked.success { "=" } else { "?" };
        Err(format!(
            "`{}`: expected error [{pattern}], got `{got} {}`",
            asked.command, asked.text
        ))
    }
}

fn bracketed(spec: &str) -> Result<&str, String> {
    spec.strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .map(str::trim)
        .ok_or_else(|| format!("expectation not in brackets: {spec}"))
}

/// Ends the session: `quit` must answer and the process must exit with 0.
fn quit(engine: &mut Engine) -> Result<(), String> {
    let answer = engine.ask("quit")?;
    if answer != "=" {
        return Err(format!("quit answered {answer:?}"));
    }
    let status = engine.child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("exit status {status}"))
    }
}

/// An expectation's regex, read the way gogui-regress (Java) reads it: the whole answer
/// must match (`Matcher.matches`), `.` matches line breaks (`DOTALL`) and `^`/`$` match at
/// every line (`MULTILINE`).
fn expectation(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(&format!(r"\A(?:{pattern})\z"))
        .dot_matches_new_line(true)
        .multi_line(true)
        .build()
        .map_err(|e| format!("bad regex {pattern:?}: {e}"))
}

#[test]
fn expectations_match_the_whole_answer_like_java() {
    let cases = [
        ("W\\+4\\.5", "W+4.5", true),
        ("W+4.5", "W+4.5", false),
        ("[A-HJ-T]1?[0-9]", "Q16", true),
        ("[A-HJ-T]1?[0-9]", "I5", false),
        ("pass|[A-J][1-9]", "pass", true),
        ("pass|[A-J][1-9]", "passC3", false),
        ("(?:B|W)\\+\\d+(\\.5)?", "B+12.5", true),
        ("a{2,3}", "aaaa", false),
        ("a{2,}", "aaaa", true),
        ("^x$\n^y$", "x\ny", true),
        ("x$", "x\ny", false),
        (".*dead.*", "one\ndead\nthree", true),
        ("[^ ]+ [^ ]+", "C3 G7", true),
        ("\\w+", "two words", false),
        ("", "", true),
        ("", "x", false),
        ("(a|ab)(c|bcd)(d*)", "abcd", true),
    ];
    for (pattern, text, expected) in cases {
        let regex = expectation(pattern).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(regex.is_match(text), expected, "{pattern:?} on {text:?}");
    }
    assert!(expectation("(a").is_err());
    assert!(expectation("a)").is_err());
}
