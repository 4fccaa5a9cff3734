//! The lowest layer of KataGo's model files: gzip, whitespace-separated tokens and blocks of
//! floats. A file is its model's name, its version and then its layers, each a few tokens
//! (names, sizes, flags) and blocks of floats; in a `.bin` file (gzipped, `.bin.gz`, as
//! KataGo publishes them) a block is `@BIN@` and little-endian `f32`s, in a `.txt` file
//! the floats are written out as text. The layers themselves are read by [`super::model`].

use flate2::read::GzDecoder;
use std::fmt;
use std::io::Read;

/// The largest model read once unpacked: KataGo's biggest published networks (b28c512,
/// b40c256) unpack to a few hundred megabytes; a file that unpacks to more is refused
/// before it takes the machine's memory (a gzip bomb, or a file that is not a model).
pub const MAX_UNPACKED_BYTES: u64 = 2 << 30;

/// What is wrong with a model file: where in the file (the layer being read) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelError {
    /// The layer or part being read, by the name the file gives it where it has one.
    pub at: String,
    pub why: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.why)
        } else {
            write!(f, "{}: {}", self.at, self.why)
        }
    }
}

impl std::error::Error for ModelError {}

/// An error at `at`.
pub fn error(at: &str, why: impl Into<String>) -> ModelError {
    ModelError {
        at: at.to_string(),
        why: why.into(),
    }
}

/// Whether `bytes` look like a KataGo model: gzipped (hoshi's own format never is), or a
/// `.bin`/`.txt` model's opening, a name and then a model version on lines of their own.
pub fn recognises(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return true;
    }
    let head = &bytes[..bytes.len().min(256)];
    let mut lines = head.split(|&b| b == b'\n');
    let name = lines.next().unwrap_or_default();
    let version = lines.next().unwrap_or_default();
    !name.is_empty()
        && name.iter().all(|b| b.is_ascii_graphic())
        && std::str::from_utf8(version)
            .ok()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .is_some()
}

/// The model's bytes unpacked: gunzipped where gzipped, as they are otherwise.
pub fn unpack(bytes: &[u8]) -> Result<Vec<u8>, ModelError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes.to_vec());
    }
    let mut unpacked = Vec::new();
    GzDecoder::new(bytes)
        .take(MAX_UNPACKED_BYTES + 1)
        .read_to_end(&mut unpacked)
        .map_err(|e| error("gzip", format!("cannot unpack: {e}")))?;
    if unpacked.len() as u64 > MAX_UNPACKED_BYTES {
        return Err(error(
            "gzip",
            format!("unpacks to more than {MAX_UNPACKED_BYTES} bytes"),
        ));
    }
    Ok(unpacked)
}

/// How the floats of a file are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Floats {
    /// `@BIN@` and little-endian `f32`s (`.bin`, `.bin.gz`).
    Binary,
    /// Decimal text, one token each (`.txt`, `.txt.gz`).
    Text,
}

impl Floats {
    /// How `unpacked`'s floats are written: binary if its first block says so. (KataGo goes
    /// by the file's name; hoshi by its content, so that a renamed file reads alike.)
    pub fn of(unpacked: &[u8]) -> Floats {
        if unpacked.windows(5).any(|w| w == b"@BIN@") {
            Floats::Binary
        } else {
            Floats::Text
        }
    }
}

/// A cursor over an unpacked model: tokens and float blocks in file order.
pub struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    floats: Floats,
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Tokens<'a> {
        Tokens {
            bytes,
            at: 0,
            floats: Floats::of(bytes),
        }
    }

    /// The next whitespace-separated token; `what` names it in the error at the end of the
    /// file.
    pub fn word(&mut self, what: &str) -> Result<&'a str, ModelError> {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        let start = self.at;
        while self.at < self.bytes.len() && !self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        if start == self.at {
            return Err(error(what, "the file ends here (truncated?)"));
        }
        std::str::from_utf8(&self.bytes[start..self.at])
            .map_err(|_| error(what, "not text where a word was expected"))
    }

    /// The next token as a number of type `T`.
    pub fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ModelError> {
        let word = self.word(what)?;
        word.parse()
            .map_err(|_| error(what, format!("expected a number, found {word:?}")))
    }

    /// The next token as a count from 1 to `max` (channels, blocks, sizes).
    pub fn count(&mut self, what: &str, max: usize) -> Result<usize, ModelError> {
        let n: i64 = self.number(what)?;
        if n < 1 || n as u64 > max as u64 {
            return Err(error(what, format!("{n} out of range (1 to {max})")));
        }
        Ok(n as usize)
    }

    /// The next token as a flag, 0 or 1.
    pub fn flag(&mut self, what: &str) -> Result<bool, ModelError> {
        match self.number::<i64>(what)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(error(what, format!("expected 0 or 1, found {n}"))),
        }
    }

    /// The next token, which must be a reserved option left at 0 (newer versions' headers).
    pub fn reserved(&mut self, what: &str) -> Result<(), ModelError> {
        match self.number::<i64>(what)? {
            0 => Ok(()),
            n => Err(error(
                what,
                format!("option {n} is not one this reader knows (only 0)"),
            )),
        }
    }

    /// A block of `count` floats, each finite.
    pub fn floats(&mut self, what: &str, count: usize) -> Result<Vec<f32>, ModelError> {
        let values = match self.floats {
            Floats::Binary => self.binary_floats(what, count)?,
            Floats::Text => (0..count)
                .map(|_| self.number::<f32>(what))
                .collect::<Result<Vec<f32>, _>>()?,
        };
        if values.iter().any(|v| !v.is_finite()) {
            return Err(error(what, "a weight is infinite or not a number"));
        }
        Ok(values)
    }

    fn binary_floats(&mut self, what: &str, count: usize) -> Result<Vec<f32>, ModelError> {
        // A little whitespace, then `@BIN@` (KataGo allows up to 100 characters before it).
        let rest = &self.bytes[self.at..];
        let start = rest
            .iter()
            .take(101)
            .position(|&b| b == b'@')
            .ok_or_else(|| error(what, "no @BIN@ block of floats where one was expected"))?;
        if !rest[start..].starts_with(b"@BIN@") {
            return Err(error(
                what,
                "no @BIN@ block of floats where one was expected",
            ));
        }
        let from = self.at + start + 5;
        let len = count
            .checked_mul(4)
            .ok_or_else(|| error(what, "too many floats"))?;
        let block = self
            .bytes
            .get(from..from + len)
            .ok_or_else(|| error(what, format!("the file ends within its {count} floats")))?;
        self.at = from + len;
        Ok(block
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    /// Whether only whitespace is left.
    pub fn at_end(&self) -> bool {
        self.bytes[self.at..]
            .iter()
            .all(|b| b.is_ascii_whitespace())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_binary_floats_read_in_file_order() {
        let mut bytes = b"name\n8\nconv 3 @BIN@".to_vec();
        bytes.extend(1.5f32.to_le_bytes());
        bytes.extend((-2.0f32).to_le_bytes());
        bytes.extend(b"\nnext");
        let mut t = Tokens::new(&bytes);
        assert_eq!(t.word("name").unwrap(), "name");
        assert_eq!(t.number::<i32>("version").unwrap(), 8);
        assert_eq!(t.word("layer").unwrap(), "conv");
        assert_eq!(t.count("size", 5).unwrap(), 3);
        assert_eq!(t.floats("w", 2).unwrap(), vec![1.5, -2.0]);
        assert_eq!(t.word("next").unwrap(), "next");
        assert!(t.at_end());
    }

    #[test]
    fn text_floats_read_as_text() {
        let mut t = Tokens::new(b"w 0.25 -1e-3 3");
        assert_eq!(t.word("w").unwrap(), "w");
        assert_eq!(t.floats("w", 3).unwrap(), vec![0.25, -1e-3, 3.0]);
    }

    #[test]
    fn bad_blocks_are_named() {
        let mut bytes = b"w @BIN@".to_vec();
        bytes.extend(f32::NAN.to_le_bytes());
        let e = Tokens::new(&bytes).floats("w", 1).unwrap_err();
        assert_eq!(e.to_string(), "w: a weight is infinite or not a number");
        let e = Tokens::new(&bytes).floats("w", 2).unwrap_err();
        assert_eq!(e.to_string(), "w: the file ends within its 2 floats");
        let e = Tokens::new(b"  ").word("trunk").unwrap_err();
        assert_eq!(e.to_string(), "trunk: the file ends here (truncated?)");
        let e = Tokens::new(b"7").count("channels", 5).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
    }

    #[test]
    fn recognises_gzip_and_a_models_opening_only() {
        assert!(recognises(&[0x1f, 0x8b, 8, 0]));
        assert!(recognises(b"kata1-b6c96\n8\n22\n"));
        assert!(!recognises(b"HOSHINET\x01\x00"));
        assert!(!recognises(b""));
        assert!(!recognises(b"hello world\nnot a number\n"));
    }
}
