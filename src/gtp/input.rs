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

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
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

/// What a thinking command learns from outside: that a new command is waiting (pondering
/// and analysis stop at once) and that GoGui asked to interrupt the command running
/// (`# interrupt`). The reader thread sets these; the thinking thread polls them, cheaply
/// and without locks, through the watch callbacks it hands the engine.
///
/// Counters shared by the reader thread and the thinking thread.
///
/// Lines are numbered from 1 in the order read. An interrupt belongs to the last line read
/// before it (GoGui sends it after the command it wants cut short), so it is honoured only
/// while that very line is the command being run: an interrupt that arrives late, after
/// its command has answered, cannot cut the next command short.
#[derive(Debug, Default)]
pub struct Signals {
    /// Lines read so far.
    read: AtomicUsize,
    /// Lines the main loop has taken so far (the last one is the command running).
    taken: AtomicUsize,
    /// The number of the line an interrupt was meant for (0: none).
    interrupted: AtomicUsize,
    /// The input has ended (or failed): no command will ever come again.
    closed: AtomicBool,
}

impl Signals {
    /// Whether a command is waiting to be answered (or the input ended): analysis and
    /// pondering stop at once.
    pub fn input_waiting(&self) -> bool {
        self.read.load(SeqCst) > self.taken.load(SeqCst) || self.closed.load(SeqCst)
    }

    /// Whether GoGui asked to interrupt the command running now.
    pub fn interrupted(&self) -> bool {
        let taken = self.taken.load(SeqCst);
        taken > 0 && self.interrupted.load(SeqCst) == taken
    }

    /// A line was read and queued.
    pub fn line_read(&self) {
        self.read.fetch_add(1, SeqCst);
    }

    /// The main loop took the next queued line.
    pub fn line_taken(&self) {
        self.taken.fetch_add(1, SeqCst);
    }

    /// GoGui's `# interrupt` came, for the last line read.
    pub fn interrupt(&self) {
        self.interrupted.store(self.read.load(SeqCst), SeqCst);
    }

    /// The input ended.
    pub fn close(&self) {
        self.closed.store(true, SeqCst);
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

    #[test]
    fn an_interrupt_cuts_only_the_command_it_followed() {
        let s = Signals::default();
        s.line_read(); // genmove b
        s.line_read(); // genmove w
        s.interrupt(); // meant for genmove w
        assert!(s.input_waiting());
        s.line_taken();
        assert!(!s.interrupted(), "genmove b runs: not for it");
        s.line_taken();
        assert!(s.interrupted(), "genmove w runs");
        assert!(!s.input_waiting());
        s.line_read();
        s.line_taken();
        assert!(
            !s.interrupted(),
            "a late interrupt does not touch the next command"
        );
    }

    #[test]
    fn a_closed_input_stops_pondering() {
        let s = Signals::default();
        assert!(!s.input_waiting());
        s.close();
        assert!(s.input_waiting());
    }
}
