//! Splitting an engine's command line (`--black "gnugo --mode gtp --level 10"`) into the
//! program and its arguments, the way a shell would for the simple cases people write:
//! words separated by white space, `'...'` and `"..."` to keep spaces inside a word, and
//! `\` to escape the next character (outside single quotes). No variables, globs or
//! pipes: the program is started directly, not through a shell, so that killing it on a
//! time-out kills the engine itself and not a shell in front of it.

use std::fmt;

/// Why a command line cannot be split into a program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// No word at all.
    Empty,
    /// A quote (`'` or `"`) without its closing twin, and the line.
    Unterminated { quote: char, line: String },
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("empty command line"),
            CommandLineError::Unterminated { quote, line } => {
                write!(f, "unterminated {quote} in the command line {line:?}")
            }
        }
    }
}

impl std::error::Error for CommandLineError {}

/// The words of `line`; an error for an unterminated quote or an empty line.
pub fn split(line: &str) -> Result<Vec<String>, CommandLineError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => word
                .get_or_insert_with(String::new)
                .push_str(&until_quote(&mut chars, '\'', line)?),
            '"' => word
                .get_or_insert_with(String::new)
                .push_str(&until_quote(&mut chars, '"', line)?),
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// The text up to the closing `quote`, which is consumed. Inside double quotes a backslash
/// escapes the next character, as in a shell; inside single quotes nothing is special.
fn until_quote(
    chars: &mut std::str::Chars,
    quote: char,
    line: &str,
) -> Result<String, CommandLineError> {
    let mut text = String::new();
    while let Some(c) = chars.next() {
        match c {
            c if c == quote => return Ok(text),
            '\\' if quote == '"' => text.extend(chars.next()),
            c => text.push(c),
        }
    }
    Err(CommandLineError::Unterminated {
        quote,
        line: line.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn words_quotes_and_escapes() {
        assert_eq!(
            split("  gnugo --mode gtp\t--level 10 ").unwrap(),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split(r#"python3 "my engine.py" 'a "b"' c\ d "e\"f" ''"#).unwrap(),
            ["python3", "my engine.py", "a \"b\"", "c d", "e\"f", ""]
        );
        assert_eq!(
            split("engine 'open").map_err(|e| e.to_string()),
            Err("unterminated ' in the command line \"engine 'open\"".into())
        );
        assert_eq!(split("   "), Err(super::CommandLineError::Empty));
    }
}
