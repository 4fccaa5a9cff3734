//! The Go Text Protocol, version 2: the read-answer loop and the framing of lines and
//! answers, to the letter of the specification (§2-3), because every controller (Sabaki,
//! GoGui, gogui-twogtp, kgsGtp, the CGOS client) parses the answers strictly.
//!
//! * Input: control characters other than tab and line feed are dropped (so CRLF is
//!   harmless), `#` starts a comment, tabs count as spaces, and lines left empty get no
//!   answer at all.
//! * A command is `[id] name [arguments]`; the id is echoed: `=12 D4`, `?12 illegal move`.
//! * An answer is `=` or `?`, the id, a space and the text, then one empty line, and is
//!   flushed at once: controllers wait for it. An answer never holds an empty line (that
//!   would end it early), so multi-line texts lose any blank line they had.
//! * stdout carries answers only; everything else is logged to stderr.

mod analysis;
mod args;
pub mod commands;
mod gogui;
mod input;
mod raw_nn;
mod reply;

use crate::engine::Engine;
use input::{Line, Lines, Signals, MAX_LINE};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

pub use commands::COMMANDS;
pub use reply::Failure;

/// A command line once cleaned and split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id as the controller wrote it, echoed in the answer.
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

/// Cleans a raw line as §3.1 says and splits it into id, name and arguments; `None` when
/// nothing is left (an empty line or a comment), which gets no answer.
pub fn parse_line(raw: &[u8]) -> Option<Command> {
    let mut clean = Vec::with_capacity(raw.len());
    for &byte in raw {
        match byte {
            b'#' => break,
            b'\t' => clean.push(b' '),
            0..=31 | 127 => {}
            _ => clean.push(byte),
        }
    }
    let text = String::from_utf8_lossy(&clean);
    let mut words = text.split(' ').filter(|w| !w.is_empty()).map(String::from);
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first), words.next().unwrap_or_default())
    } else {
        (None, first)
    };
    Some(Command {
        id,
        name,
        args: words.collect(),
    })
}

/// The full answer to a command: `=id text` or `?id text`, then an empty line.
pub fn format_answer(id: Option<&str>, reply: &Result<String, Failure>) -> String {
    let (mark, text) = match reply {
        Ok(text) => ('=', without_blank_lines(text)),
        Err(failure) => ('?', without_blank_lines(&failure.to_string())),
    };
    let id = id.unwrap_or("");
    if text.is_empty() {
        format!("{mark}{id}\n\n")
    } else {
        format!("{mark}{id} {text}\n\n")
    }
}

/// The text with its blank lines removed (all but a leading one, which puts a diagram on
/// its own line after `= `) and no line break at the end.
fn without_blank_lines(text: &str) -> String {
    let mut lines = text
        .trim_end()
        .split('\n')
        .map(|l| l.trim_end_matches('\r'));
    let first = lines.next().unwrap_or("");
    let rest: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
    std::iter::once(first)
        .chain(rest)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Answers the commands read from `input` on `output` until `quit` or the end of the input.
///
/// A thread reads the input ahead (see [`input`]), so that the engine can think while it
/// waits for the next command (`--ponder`), stream analysis until a command arrives, and
/// honour GoGui's `# interrupt`; commands are still answered one at a time, in order.
pub fn run(
    engine: &mut Engine,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    commands::start_cpu_clock();
    let lines = Lines::spawn(input);
    let signals = lines.signals();
    loop {
        if !signals.input_waiting() {
            engine.ponder(&mut |_| !signals.input_waiting());
        }
        let line = match lines.next() {
            Some(Line::Whole(line)) => line,
            Some(Line::TooLong(head)) => {
                output.write_all(refuse_long_line(&head).as_bytes())?;
                output.flush()?;
                continue;
            }
            None => {
                log::debug!("end of input");
                return Ok(());
            }
        };
        let Some(command) = parse_line(&line) else {
            continue;
        };
        log::debug!("command: {} {}", command.name, command.args.join(" "));
        if analysis::handles(&command.name) {
            stream_safely(engine, &command, &mut output, &lines)?;
            continue;
        }
        let reply = execute_safely(engine, &command, signals);
        output.write_all(format_answer(command.id.as_deref(), &reply).as_bytes())?;
        output.flush()?;
        if command.name.eq_ignore_ascii_case("quit") && reply.is_ok() {
            return Ok(());
        }
    }
}

/// The answer to a line longer than [`MAX_LINE`] (its comment left out), of which `head`
/// is the start: an error, with the line's id when the start shows one; nothing changes.
/// (A start that is all blank may hide a command further on, so it is answered too.)
fn refuse_long_line(head: &[u8]) -> String {
    // An id is only trusted when the command's name follows it within the start.
    let id = parse_line(head).and_then(|c| c.id.filter(|_| !c.name.is_empty()));
    log::warn!("a line of more than {MAX_LINE} bytes refused");
    format_answer(id.as_deref(), &Err(Failure::LineTooLong(MAX_LINE)))
}

/// Runs an analysis command, which writes its answer as it goes. A panic (a bug) still
/// ends the answer properly, with its empty line.
fn stream_safely(
    engine: &mut Engine,
    command: &Command,
    output: &mut impl Write,
    lines: &Lines,
) -> io::Result<()> {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        analysis::run(engine, command, output, lines.signals())
    }));
    outcome.unwrap_or_else(|_| {
        log::error!("internal error while running {:?}", command.name);
        output.write_all(b"\n")?;
        output.flush()
    })
}

/// Runs one command. A panic would be a bug; it is caught so that the controller gets an
/// answer and the engine stays up (the message goes to stderr).
fn execute_safely(
    engine: &mut Engine,
    command: &Command,
    signals: &Signals,
) -> Result<String, Failure> {
    panic::catch_unwind(AssertUnwindSafe(|| {
        commands::execute(engine, command, signals)
    }))
    .unwrap_or_else(|_| {
        log::error!("internal error while running {:?}", command.name);
        Err(Failure::Internal)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Settings;

    fn session(input: &[u8]) -> String {
        let mut engine = Engine::new(Settings::default());
        let mut out = Vec::new();
        run(&mut engine, io::Cursor::new(input.to_vec()), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_are_cleaned_as_the_spec_says() {
        let c = parse_line(b"12 \x01play\tB\r d4 # a comment\n").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(
            (c.name.as_str(), c.args.clone()),
            ("play", vec!["B".into(), "d4".into()])
        );
        assert_eq!(parse_line(b"  \t \r\n"), None);
        assert_eq!(parse_line(b"# only a comment"), None);
        assert_eq!(parse_line(b"\x00\x7f"), None);
        assert_eq!(parse_line(b"7").map(|c| c.name), Some(String::new()));
    }

    #[test]
    fn answers_are_framed_with_ids_and_one_empty_line() {
        let out = session(b"1 protocol_version\nname\n\n# nothing\n2 nonsense\r\nquit\nname\n");
        assert_eq!(out, "=1 2\n\n= hoshi\n\n?2 unknown command\n\n=\n\n");
    }

    #[test]
    fn a_line_beyond_the_maximum_is_refused_and_the_next_one_answered() {
        let mut input = b"1 play b d4\n2 play w e5 ".to_vec();
        input.extend(std::iter::repeat_n(b'a', 2 * MAX_LINE));
        input.extend_from_slice(b" f6\n3 list_stones w\n");
        input.extend(std::iter::repeat_n(b' ', MAX_LINE));
        input.extend_from_slice(b"4 name # more ");
        input.extend(std::iter::repeat_n(b'#', MAX_LINE));
        input.extend_from_slice(b"\n5 list_stones b\n# ");
        input.extend(std::iter::repeat_n(b'x', MAX_LINE));
        input.extend_from_slice(b"\n6 name\n");
        assert_eq!(
            session(&input),
            "=1\n\n?2 line too long (more than 1048576 bytes)\n\n=3\n\n\
             ? line too long (more than 1048576 bytes)\n\n=5 D4\n\n=6 hoshi\n\n"
        );
    }

    #[test]
    fn blank_lines_never_reach_an_answer() {
        let reply = Ok("\nfirst\n\n  \nsecond\n\n".to_string());
        assert_eq!(format_answer(Some("3"), &reply), "=3 \nfirst\nsecond\n\n");
    }

    #[test]
    fn end_of_input_ends_the_loop() {
        assert_eq!(
            session(b"version"),
            format!("= {}\n\n", env!("CARGO_PKG_VERSION"))
        );
    }
}
