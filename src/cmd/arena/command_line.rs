//! Splitting an engine's command line (`--black "gnugo --mode gtp --level 10"`) into the
//! program and its arguments, the way a shell would for the simple cases people write:
//! words separated by white space, `'...'` and `"..."` to keep spaces inside a word, and
//! `\` to escape the next character (outside single quotes). No variables, globs or
//! pipes: the program is started directly, not through a shell, so that killing it on a
//! time-out kills the engine itself and not a shell in front of it.

/// The words of `line`; an error for an unterminated quote or an empty line.
pub fn split(line: &str) -> Result<Vec<String>, String> {
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
        return Err("empty command line".into());
    }
    Ok(words)
}

/// The text up to the closing `quote`, which is consumed. Inside double quotes a backslash
/// escapes the next character, as in a shell; inside single quotes nothing is special.
fn until_quote(chars: &mut std::str::Chars, quote: char, line: &str) -> Result<String, String> {
    let mut text = String::new();
    while let Some(c) = chars.next() {
        match c {
            c if c == quote => return Ok(text),
            '\\' if quote == '"' => text.extend(chars.next()),
            c => text.push(c),
        }
    }
    Err(format!("unterminated {quote} in the command line {line:?}"))
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
        assert!(split("engine 'open").is_err());
        assert!(split("   ").is_err());
    }
}
