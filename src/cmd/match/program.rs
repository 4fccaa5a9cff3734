//! A GTP engine run as a child process: commands go to its stdin, answers come back from
//! its stdout through a reader thread and a channel, so that every wait has a deadline.
//! `hoshi match` must never hang, whatever the engine does (answer nothing, answer forever,
//! print junk, exit): a silent engine is killed when its time is up, and a reader thread
//! left blocked on a pipe that some grandchild still holds open is never joined.
//!
//! Only the process started is killed: an engine behind a wrapper script that forks it
//! (rather than `exec`ing it) keeps running until it reads the end of its input. Wrappers
//! should `exec` the engine.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line kept from an engine; longer output is cut into pieces of this size
/// (an engine that writes megabytes without a line break is broken, and must not make the
/// match run out of memory).
const MAX_LINE: u64 = 1 << 20;

/// How long a program that was asked to quit may take to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// What went wrong with a program, beyond a plain `?` answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// It could not be started, it exited, or it closed its output; with what is known.
    Crashed(String),
    /// No complete answer within the time allowed.
    TimedOut(Duration),
    /// Output that is not a GTP answer (the offending line).
    Garbled(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crashed(why) => write!(f, "crashed ({why})"),
            Fault::TimedOut(limit) => write!(f, "did not answer within {} s", limit.as_secs_f64()),
            Fault::Garbled(line) => write!(f, "answered garbage {line:?}"),
        }
    }
}

impl std::error::Error for Fault {}

/// A GTP answer: `Ok(text)` for `=`, `Err(text)` for `?`.
pub type Answer = Result<String, String>;

/// A running GTP engine.
pub struct Program {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Time allowed for each answer.
    timeout: Duration,
    /// The commands its `list_commands` named (empty when it has none).
    commands: Vec<String>,
}

impl Program {
    /// Starts `words` (program and arguments) with its stderr going to `stderr`, and asks
    /// its `list_commands`, allowing `startup` for that first answer (engines that load a
    /// network or an opening book are slow to start).
    pub fn start(
        words: &[String],
        stderr: Stdio,
        timeout: Duration,
        startup: Duration,
    ) -> Result<Program, Fault> {
        let (name, args) = words
            .split_first()
            .ok_or_else(|| Fault::Crashed("empty command line".into()))?;
        let mut child = Command::new(name)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|why| Fault::Crashed(format!("cannot start {name}: {why}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(Fault::Crashed("no pipes to the program".into()));
        };
        let mut program = Program {
            child,
            stdin,
            lines: spawn_reader(stdout),
            timeout,
            commands: Vec::new(),
        };
        program.commands = match program.ask_within("list_commands", startup)? {
            Ok(text) => text
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect(),
            Err(_) => Vec::new(),
        };
        Ok(program)
    }

    /// Whether its `list_commands` named `command`.
    pub fn knows(&self, command: &str) -> bool {
        self.commands
            .iter()
            .any(|c| c.eq_ignore_ascii_case(command))
    }

    /// Sends `command` and waits for its answer, at most the program's timeout.
    pub fn ask(&mut self, command: &str) -> Result<Answer, Fault> {
        self.ask_within(command, self.timeout)
    }

    /// Sends `command` and waits for its answer, at most `limit`. On a fault the program
    /// is killed: it is out of step with the match and cannot be trusted any more.
    pub fn ask_within(&mut self, command: &str, limit: Duration) -> Result<Answer, Fault> {
        log::debug!("to engine: {command}");
        let outcome = self.send(command).and_then(|()| self.answer(limit));
        outcome.map_err(|fault| {
            let fault = self.with_exit_status(fault);
            log::debug!("engine fault on {command:?}: {fault}");
            self.kill();
            fault
        })
    }

    fn send(&mut self, command: &str) -> Result<(), Fault> {
        let line = format!("{command}\n");
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|why| Fault::Crashed(format!("cannot write to it: {why}")))
    }

    /// Reads one answer: `=` or `?`, its text on one or more lines, then an empty line.
    /// Empty lines before the answer are allowed; any other line is garbage, since GTP
    /// engines may write nothing else on stdout.
    fn answer(&mut self, limit: Duration) -> Result<Answer, Fault> {
        // No deadline for a limit beyond what the clock can count (`--clock 1e300`).
        let deadline = Instant::now().checked_add(limit);
        let mut answer: Option<(bool, Vec<String>)> = None;
        loop {
            let line = self.next_line(deadline, limit)?;
            let line = line.trim_end_matches(['\r', '\n']);
            match &mut answer {
                None if line.trim().is_empty() => {}
                None => answer = Some(first_line(line)?),
                Some((success, text)) if line.trim().is_empty() => {
                    let text = text.join("\n");
                    return Ok(if *success { Ok(text) } else { Err(text) });
                }
                Some((_, text)) => text.push(line.to_string()),
            }
        }
    }

    fn next_line(&self, deadline: Option<Instant>, limit: Duration) -> Result<String, Fault> {
        let left = deadline.map_or(limit, |d| d.saturating_duration_since(Instant::now()));
        self.lines.recv_timeout(left).map_err(|why| match why {
            RecvTimeoutError::Timeout => Fault::TimedOut(limit),
            RecvTimeoutError::Disconnected => Fault::Crashed("its output ended".into()),
        })
    }

    /// A crash report completed with how the process ended, when it has.
    fn with_exit_status(&mut self, fault: Fault) -> Fault {
        match fault {
            Fault::Crashed(why) => match self.exit_status(EXIT_GRACE) {
                Some(status) => Fault::Crashed(format!("{why}; {status}")),
                None => Fault::Crashed(why),
            },
            other => other,
        }
    }

    /// The exit status, waiting up to `grace` for the process to end.
    fn exit_status(&mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    fn kill(&mut self) {
        // An error here means it has exited already, which is what we want.
        let _ = self.child.kill();
    }

    /// Asks the program to quit, and kills it if it does not within a second.
    pub fn quit(mut self) {
        if self.ask_within("quit", EXIT_GRACE).is_ok() && self.exit_status(EXIT_GRACE).is_some() {
            return;
        }
        self.kill();
    }
}

impl Drop for Program {
    /// No engine outlives its game: whatever happened, the process is killed and reaped.
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
            let _ = self.child.wait();
        }
    }
}

/// The start of an answer: whether it is a success, and the text after `=`/`?` and the
/// optional id. Anything else is garbage.
fn first_line(line: &str) -> Result<(bool, Vec<String>), Fault> {
    let success = match line.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(Fault::Garbled(line.to_string())),
    };
    let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    Ok((success, vec![text.trim().to_string()]))
}

/// A thread that sends every line of `output` into a channel, which is closed when the
/// output ends.
fn spawn_reader(output: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(output);
        loop {
            let mut line = Vec::new();
            match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    if sender.send(text).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_start_with_a_mark_and_an_optional_id() {
        assert_eq!(first_line("= D4"), Ok((true, vec!["D4".into()])));
        assert_eq!(first_line("=12 pass"), Ok((true, vec!["pass".into()])));
        assert_eq!(first_line("?"), Ok((false, vec![String::new()])));
        assert_eq!(
            first_line("? illegal move"),
            Ok((false, vec!["illegal move".into()]))
        );
        assert_eq!(first_line("D4"), Err(Fault::Garbled("D4".into())));
    }
}
