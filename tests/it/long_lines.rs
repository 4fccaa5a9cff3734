//! Input lines beyond hoshi's limit (1 MiB): a 2 MiB command line sent to the engine
//! process gets a `?` answer (with its id), is not run, and the commands after it are
//! answered as usual, on a position the long line did not touch.

use crate::common;

use std::io::Write;
use std::time::Duration;

/// How long an answer may take before the engine counts as hung.
const PATIENCE: Duration = Duration::from_secs(30);

#[test]
fn a_two_mebibyte_line_is_refused_and_the_next_command_answered() {
    let mut child = common::spawn_hoshi(&["--size", "9", "--visits", "50"], &std::env::temp_dir());
    let mut stdin = child.stdin.take().expect("stdin");
    let lines = common::lines_of(child.stdout.take().expect("stdout"));
    // Written by a thread of its own: the engine answers while the long line is sent.
    let writer = std::thread::spawn(move || {
        let mut input = b"1 play b d4\n2 play w e5 ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 2 << 20));
        input.extend_from_slice(b"\n3 list_stones w\n4 list_stones b\nquit\n");
        stdin.write_all(&input).expect("send");
    });
    let mut answers = Vec::new();
    while let Ok(line) = lines.recv_timeout(PATIENCE) {
        answers.push(line);
    }
    writer.join().expect("the writer");
    assert!(child.wait().expect("exit").success());
    assert_eq!(
        answers,
        [
            "=1",
            "",
            "?2 line too long (more than 1048576 bytes)",
            "",
            "=3",
            "",
            "=4 D4",
            "",
            "=",
            ""
        ]
    );
}
