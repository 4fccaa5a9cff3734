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

mod common;

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
    let passed = asked.success && Regex::new(pattern)?.full_match(&asked.text) != negated;
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
    if !asked.success && Regex::new(pattern)?.full_match(&asked.text) {
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

// ---------------------------------------------------------------------------------------
// A small backtracking regex engine for the expectations: literals, `.`, classes `[a-z]`
// `[^...]`, `\d \s \w` (and capitals), escapes, groups `(...)` `(?:...)`, `|`, `* + ?
// {n} {n,} {n,m}` (lazy and possessive marks accepted, matched greedily: only whether the
// whole answer matches counts), `^` and `$` at line boundaries.

#[derive(Debug, Clone)]
enum Node {
    Char(char),
    Any,
    Class {
        items: Vec<(char, char)>,
        negated: bool,
    },
    LineStart,
    LineEnd,
    Alternatives(Vec<Vec<Node>>),
    Repeat {
        node: Box<Node>,
        min: usize,
        max: Option<usize>,
    },
}

struct Regex {
    alternatives: Vec<Vec<Node>>,
}

impl Regex {
    fn new(pattern: &str) -> Result<Regex, String> {
        let mut parser = RegexParser {
            chars: pattern.chars().collect(),
            at: 0,
        };
        let alternatives = parser.alternatives()?;
        if parser.at < parser.chars.len() {
            return Err(format!("bad regex {pattern:?}: unmatched ')'"));
        }
        Ok(Regex { alternatives })
    }

    fn full_match(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        let node = Node::Alternatives(self.alternatives.clone());
        match_node(&node, 0, &text, &mut |end| end == text.len())
    }
}

struct RegexParser {
    chars: Vec<char>,
    at: usize,
}

impl RegexParser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or("regex ends too early")?;
        self.at += 1;
        Ok(c)
    }

    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut alternatives = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            alternatives.push(self.sequence()?);
        }
        Ok(alternatives)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            nodes.push(self.quantified(atom)?);
        }
        Ok(nodes)
    }

    fn atom(&mut self) -> Result<Node, String> {
        Ok(match self.next()? {
            '.' => Node::Any,
            '^' => Node::LineStart,
            '$' => Node::LineEnd,
            '[' => self.class()?,
            '(' => {
                if self.chars[self.at..].starts_with(&['?', ':']) {
                    self.at += 2;
                }
                let inner = self.alternatives()?;
                if self.next()? != ')' {
                    return Err("missing ')'".into());
                }
                Node::Alternatives(inner)
            }
            '\\' => escaped(self.next()?),
            c => Node::Char(c),
        })
    }

    fn class(&mut self) -> Result<Node, String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            if c == '\\' {
                match escaped(self.next()?) {
                    Node::Char(e) => items.push((e, e)),
                    Node::Class { items: more, .. } => items.extend(more),
                    _ => {}
                }
            } else if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                self.at += 1;
                items.push((c, self.next()?));
            } else {
                items.push((c, c));
            }
        }
        Ok(Node::Class { items, negated })
    }

    fn quantified(&mut self, node: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.braces(node),
            _ => return Ok(node),
        };
        self.at += 1;
        self.skip_lazy_mark();
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
        })
    }

    fn braces(&mut self, node: Node) -> Result<Node, String> {
        let close = self.chars[self.at..]
            .iter()
            .position(|&c| c == '}')
            .ok_or("missing '}'")?;
        let inside: String = self.chars[self.at + 1..self.at + close].iter().collect();
        self.at += close + 1;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|e| e.to_string());
        let (min, max) = match inside.split_once(',') {
            None => (number(&inside)?, Some(number(&inside)?)),
            Some((lo, "")) => (number(lo)?, None),
            Some((lo, hi)) => (number(lo)?, Some(number(hi)?)),
        };
        self.skip_lazy_mark();
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
        })
    }

    fn skip_lazy_mark(&mut self) {
        if matches!(self.peek(), Some('?' | '+')) {
            self.at += 1;
        }
    }
}

/// What `\c` stands for.
fn escaped(c: char) -> Node {
    let class = |items: Vec<(char, char)>, negated| Node::Class { items, negated };
    let digits = vec![('0', '9')];
    let spaces = vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')];
    let word = vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
    match c {
        'd' => class(digits, false),
        'D' => class(digits, true),
        's' => class(spaces, false),
        'S' => class(spaces, true),
        'w' => class(word, false),
        'W' => class(word, true),
        'n' => Node::Char('\n'),
        't' => Node::Char('\t'),
        other => Node::Char(other),
    }
}

/// Whether `node` matches at `at` in a way that lets `rest` accept the end position.
fn match_node(node: &Node, at: usize, text: &[char], rest: &mut dyn FnMut(usize) -> bool) -> bool {
    let here = text.get(at).copied();
    match node {
        Node::Char(c) => here == Some(*c) && rest(at + 1),
        Node::Any => here.is_some() && rest(at + 1),
        Node::Class { items, negated } => {
            here.is_some_and(|h| items.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) != *negated)
                && rest(at + 1)
        }
        Node::LineStart => (at == 0 || text[at - 1] == '\n') && rest(at),
        Node::LineEnd => (here.is_none() || here == Some('\n')) && rest(at),
        Node::Alternatives(alternatives) => alternatives
            .iter()
            .any(|seq| match_sequence(seq, at, text, rest)),
        Node::Repeat { node, min, max } => match_repeat(node, *min, *max, 0, at, text, rest),
    }
}

fn match_sequence(
    seq: &[Node],
    at: usize,
    text: &[char],
    rest: &mut dyn FnMut(usize) -> bool,
) -> bool {
    match seq.split_first() {
        None => rest(at),
        Some((first, others)) => match_node(first, at, text, &mut |next| {
            match_sequence(others, next, text, rest)
        }),
    }
}

/// Greedy repetition: one more if allowed (and not empty once the minimum is met), else
/// stop here if the minimum is met.
fn match_repeat(
    node: &Node,
    min: usize,
    max: Option<usize>,
    done: usize,
    at: usize,
    text: &[char],
    rest: &mut dyn FnMut(usize) -> bool,
) -> bool {
    let more_allowed = max.is_none_or(|m| done < m);
    if more_allowed
        && match_node(node, at, text, &mut |next| {
            (next != at || done < min) && match_repeat(node, min, max, done + 1, next, text, rest)
        })
    {
        return true;
    }
    done >= min && rest(at)
}

#[test]
fn the_regex_engine_matches_like_java() {
    let cases = [
        ("W\\+4\\.5", "W+4.5", true),
        ("W+4.5", "W+4.5", false),
        ("[A-HJ-T]1?[0-9]", "Q16", true),
        ("[A-HJ-T]1?[0-9]", "I5", false),
        ("pass|[A-J][1-9]", "pass", true),
        ("(?:B|W)\\+\\d+(\\.5)?", "B+12.5", true),
        ("a{2,3}", "aaaa", false),
        ("a{2,}", "aaaa", true),
        ("^x$\n^y$", "x\ny", true),
        (".*dead.*", "one\ndead\nthree", true),
        ("[^ ]+ [^ ]+", "C3 G7", true),
        ("\\w+", "two words", false),
        ("", "", true),
        ("(a|ab)(c|bcd)(d*)", "abcd", true),
    ];
    for (pattern, text, expected) in cases {
        let regex = Regex::new(pattern).unwrap();
        assert_eq!(regex.full_match(text), expected, "{pattern:?} on {text:?}");
    }
    assert!(Regex::new("(a").is_err());
    assert!(Regex::new("a)").is_err());
}
