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
//!
//! A line may hold at most [`MAX_LINE`] bytes: a longer one is not kept whole (a controller
//! gone mad, or a file sent by mistake, must not make the engine run out of memory). Its
//! first [`MAX_LINE`] bytes are kept, the rest of it is read and thrown away, and it comes
//! as [`Line::TooLong`], which gets an error answer.

use std::io::{self, BufRead, ErrorKind, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

/// The most bytes a line may hold, its line break left out: 1 MiB, thousands of times
/// the longest command a controller sends (`gogui-play_sequence` of a whole game, a
/// `loadsgf` path).
pub const MAX_LINE: usize = 1 << 20;

/// A line of the input, as the reader hands it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, its line break included (none on the last line of an input that does
    /// not end with one).
    Whole(Vec<u8>),
    /// A line of more than the maximum, comment left out: its first bytes (the maximum's
    /// worth, enough to tell its id), the rest thrown away.
    TooLong(Vec<u8>),
}

/// Reads the next line of `input`, keeping at most `max` bytes of it (its line break
/// left out); `None` at the end of the input. A longer line is read to its end (or the end
/// of the input) without being stored, so the memory used never depends on the input.
/// When its first `max` bytes hold a `#`, all the rest is a comment, which changes
/// nothing: those bytes come as a whole line.
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    let read = Read::take(&mut *input, limit).read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.ends_with(b"\n") || line.len() <= max {
        return Ok(Some(Line::Whole(line)));
    }
    line.truncate(max);
    skip_line(input)?;
    Ok(Some(if line.contains(&b'#') {
        Line::Whole(line)
    } else {
        Line::TooLong(line)
    }))
}

/// Reads and throws away the rest of the line: up to and including the next line break,
/// or to the end of the input.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(why) if why.kind() == ErrorKind::Interrupted => continue,
            Err(why) => return Err(why),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// The lines of the input, read ahead by a thread of their own.
pub struct Lines {
    receiver: Receiver<Line>,
    signals: Arc<Signals>,
}

impl Lines {
    /// Starts the reader thread on `input`, with lines of at most [`MAX_LINE`] bytes.
    pub fn spawn(input: impl BufRead + Send + 'static) -> Lines {
        Lines::spawn_with_max(input, MAX_LINE)
    }

    /// Starts the reader thread on `input`, with lines of at most `max` bytes.
    pub fn spawn_with_max(input: impl BufRead + Send + 'static, max: usize) -> Lines {
        let signals = Arc::new(Signals::default());
        let (sender, receiver) = mpsc::channel();
        let shared = Arc::clone(&signals);
        std::thread::spawn(move || {
            let mut input = input;
            loop {
                match read_line(&mut input, max) {
                    Ok(None) => break,
                    Ok(Some(Line::Whole(line))) if is_interrupt(&line) => shared.interrupt(),
                    Ok(Some(line)) => {
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
    pub fn next(&self) -> Option<Line> {
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
        let whole = |text: &[u8]| Some(Line::Whole(text.to_vec()));
        assert_eq!(lines.next(), whole(b"name\n"));
        assert_eq!(lines.next(), whole(b"version\n"));
        assert_eq!(lines.next(), whole(b"last"));
        assert_eq!(lines.next(), None);
        assert!(
            lines.signals().input_waiting(),
            "closed input counts as waiting"
        );
    }

    #[test]
    fn lines_beyond_the_maximum_are_cut_and_the_rest_thrown_away() {
        let mut input = Cursor::new(
            b"12345678\n123456789\n1 play b d4 e5 f6\r\nname\n2 undo #too long\n0123456789abc"
                .to_vec(),
        );
        let mut next = || read_line(&mut input, 8).expect("a cursor cannot fail");
        let whole = |text: &[u8]| Some(Line::Whole(text.to_vec()));
        let too_long = |text: &[u8]| Some(Line::TooLong(text.to_vec()));
        assert_eq!(
            next(),
            whole(b"12345678\n"),
            "8 bytes and the line break fit"
        );
        assert_eq!(next(), too_long(b"12345678"));
        assert_eq!(next(), too_long(b"1 play b"));
        assert_eq!(next(), whole(b"name\n"), "the next line is whole");
        assert_eq!(next(), whole(b"2 undo #"), "only the comment was too long");
        assert_eq!(
            next(),
            too_long(b"01234567"),
            "the last line, without a break"
        );
        assert_eq!(next(), None);
        let mut input = Cursor::new(b"1234\n".to_vec());
        let mut next = || read_line(&mut input, 0).expect("a cursor cannot fail");
        assert_eq!(next(), too_long(b""));
        assert_eq!(next(), None);
    }

    #[test]
    fn a_long_line_does_not_hide_the_next_ones_from_the_reader_thread() {
        let mut text = vec![b'x'; 100];
        text.extend_from_slice(b"\n# interrupt\nname\n");
        let lines = Lines::spawn_with_max(Cursor::new(text), 16);
        assert_eq!(lines.next(), Some(Line::TooLong(vec![b'x'; 16])));
        assert_eq!(lines.next(), Some(Line::Whole(b"name\n".to_vec())));
        assert_eq!(lines.next(), None);
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
