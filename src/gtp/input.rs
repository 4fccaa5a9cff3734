//! Reading commands while the engine thinks.
//!
//! GTP is strictly one command, one answer, but three things need the engine to notice new
//! input while it is busy: pondering (thinking on the opponent's time until the next command
//! comes), the analysis streams of Sabaki and Lizzie (`lz-analyze` runs until any input
//! line arrives) and GoGui's interrupt (the comment line `# interrupt` written to stdin while
//! a command runs, asking to answer early). So a reader thread owns stdin: it hands every
//! line over in order through a channel, and keeps two flags the searching thread can poll
//! cheaply: how many lines wait to be answered, and whether an interrupt came. No line is
//! ever lost or reordered: the main loop answers them one by one, in the order read.

use crate::signals::Signals;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

/// The lines of the input, read ahead by a thread of their own.
pub struct Lines {
    receiver: Receiver<Vec<u8>>,
    signals: Arc<Signals>,
}

impl Lines {
    /// Starts the reader thread on `input`.
    pub fn spawn(input: impl BufRead + Send + 'static) -> Lines {
        let signals = Arc::new(Signals::default());
        let (sender, receiver) = mpsc::channel();
        let shared = Arc::clone(&signals);
        std::thread::spawn(move || {
            let mut input = input;
            loop {
                let mut line = Vec::new();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) if is_interrupt(&line) => shared.interrupt(),
                    Ok(_) => {
                        shared.line_read();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                    Err(why) => {
                        log::error!("reading the input: {why}");
                        break;
                    }
                }
            }
            shared.close();
        });
        Lines { receiver, signals }
    }

    pub fn signals(&self) -> &Arc<Signals> {
        &self.signals
    }

    /// The next line, waiting for it; `None` once the input has ended.
    pub fn next(&self) -> Option<Vec<u8>> {
        let line = self.receiver.recv().ok()?;
        self.signals.line_taken();
        Some(line)
    }
}

/// Whether `line` is GoGui's interrupt request: the comment `# interrupt` alone on its line.
fn is_interrupt(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    text.strip_prefix('#')
        .is_some_and(|rest| rest.trim().eq_ignore_ascii_case("interrupt"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn lines_come_in_order_without_the_interrupts() {
        let lines = Lines::spawn(Cursor::new(
            b"name\n# interrupt\r\nversion\n#interrupt\nlast".to_vec(),
        ));
        assert_eq!(lines.next().as_deref(), Some(&b"name\n"[..]));
        assert_eq!(lines.next().as_deref(), Some(&b"version\n"[..]));
        assert_eq!(lines.next().as_deref(), Some(&b"last"[..]));
        assert_eq!(lines.next(), None);
        assert!(
            lines.signals().input_waiting(),
            "closed input counts as waiting"
        );
    }

    #[test]
    fn other_comments_are_ordinary_lines() {
        assert!(is_interrupt(b"# interrupt\n"));
        assert!(is_interrupt(b"  #  INTERRUPT \r\n"));
        assert!(!is_interrupt(b"# interrupted\n"));
        assert!(!is_interrupt(b"interrupt\n"));
        assert!(!is_interrupt(b"play b d4 # interrupt\n"));
    }
}
