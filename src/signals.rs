//! What the engine learns from outside while it thinks: that a new command is waiting
//! (pondering and analysis stop at once) and that GoGui asked to interrupt the command
//! running (`# interrupt`). The GTP layer's reader thread sets these; the thinking thread
//! polls them, cheaply and without locks.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};

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

#[cfg(test)]
mod tests {
    use super::*;

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
