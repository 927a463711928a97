//! PGN tokens: the reader's view of the text. Whitespace, `%` escape lines and nothing else are
//! skipped here; move numbers, periods and results are tokens like any other, for the reader to
//! judge.

use super::Nag;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `.`
    Period,
    /// A string (tag values), escapes resolved.
    Str(String),
    /// A symbol: a move, a move number, a tag name, a result (`*` included).
    Symbol(&'a str),
    /// `$n`, or a free-standing suffix annotation (`!`, `?!`, ...).
    Nag(Nag),
    /// The text of a `{...}` or `;` comment, without its delimiters.
    Comment(&'a str),
    /// The end of the text.
    Eof,
}

/// A token and the line (1-based) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub tok: Tok<'a>,
    pub line: usize,
}

/// What went wrong while cutting the text into tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LexErrorKind {
    /// A string ran to the end of its line.
    UnterminatedString,
    /// A `{` comment ran to the end of the text or into the tag section of a later game. The
    /// lexer has moved on to that tag section.
    UnterminatedComment,
    /// `$` followed by no number, or a number above 255 (the text).
    BadNag(String),
    /// A character that has no place in PGN here, or an unknown run of `!`/`?` (the text).
    Unexpected(String),
}

/// A lexing error and the line (1-based) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub kind: LexErrorKind,
    pub line: usize,
}

/// Symbols start with a letter, a digit or `-` (`--`, the null move, so that it reaches the
/// move parser and gets a clear error) and go on with these besides letters and digits; `!` and
/// `?` are taken in so that `e4!?` stays one move.
fn symbol_continues(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+#=:-/!?".contains(&b)
}

/// Whether `line` (one line, without its newline) is a whole tag pair starting in column 1:
/// `[Name "value"]`. A `{` comment that runs into such a line is taken as unterminated.
pub(crate) fn looks_like_tag_pair(line: &str) -> bool {
    let Some(inner) = line
        .trim_end()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
    else {
        return false;
    };
    let name_len = inner
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let value = &inner[name_len..];
    name_len > 0
        && value.starts_with([' ', '\t'])
        && value.trim().len() >= 2
        && value.trim().starts_with('"')
        && value.trim().ends_with('"')
}

/// Cuts PGN text into tokens.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    peeked: Option<Result<Token<'a>, LexError>>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src` (a byte-order mark is skipped).
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src: src.strip_prefix('\u{feff}').unwrap_or(src),
            pos: 0,
            line: 1,
            peeked: None,
        }
    }

    /// The next token, without consuming it.
    pub fn peek(&mut self) -> &Result<Token<'a>, LexError> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex());
        }
        self.peeked.as_ref().expect("just filled")
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token<'a>, LexError> {
        match self.peeked.take() {
            Some(t) => t,
            None => self.lex(),
        }
    }

    /// The line the lexer is on (where the next token starts or after).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Drops the rest of the current line, then every following line that starts with `[` (the
    /// rest of a tag section after a broken tag pair).
    pub fn skip_tag_lines(&mut self) {
        self.peeked = None;
        self.skip_line();
        while self.src.as_bytes().get(self.pos) == Some(&b'[') {
            self.skip_line();
        }
    }

    /// Moves past the next newline (or to the end).
    fn skip_line(&mut self) {
        match self.src[self.pos..].find('\n') {
            Some(i) => {
                self.pos += i + 1;
                self.line += 1;
            }
            None => self.pos = self.src.len(),
        }
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.src.as_bytes()[self.pos - 1] == b'\n'
    }

    /// Skips whitespace and `%` escape lines.
    fn skip_space(&mut self) {
        let bytes = self.src.as_bytes();
        while self.pos < bytes.len() {
            let b = bytes[self.pos];
            if b == b'\n' {
                self.line += 1;
                self.pos += 1;
            } else if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'%' && self.at_line_start() {
                self.skip_line();
            } else if b >= 0x80 {
                // Unicode white space (a no-break space pasted from a web page, say).
                match self.src[self.pos..].chars().next() {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => break,
                }
            } else {
                break;
            }
        }
    }

    fn token(&self, tok: Tok<'a>, line: usize) -> Result<Token<'a>, LexError> {
        Ok(Token { tok, line })
    }

    fn error(&self, kind: LexErrorKind, line: usize) -> Result<Token<'a>, LexError> {
        Err(LexError { kind, line })
    }

    fn lex(&mut self) -> Result<Token<'a>, LexError> {
        self.skip_space();
        let line = self.line;
        let bytes = self.src.as_bytes();
        let Some(&b) = bytes.get(self.pos) else {
            return self.token(Tok::Eof, line);
        };
        let start = self.pos;
        self.pos += 1;
        match b {
            b'[' => self.token(Tok::LBracket, line),
            b']' => self.token(Tok::RBracket, line),
            b'(' => self.token(Tok::LParen, line),
            b')' => self.token(Tok::RParen, line),
            b'.' => self.token(Tok::Period, line),
            b'*' => self.token(Tok::Symbol("*"), line),
            b'"' => self.string(line),
            b'{' => self.brace_comment(line),
            b';' => {
                let end = self.src[self.pos..]
                    .find('\n')
                    .map_or(self.src.len(), |i| self.pos + i);
                let text = &self.src[self.pos..end];
                self.pos = end;
                self.token(Tok::Comment(text.trim_end_matches('\r')), line)
            }
            b'$' => {
                let digits = bytes[self.pos..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                self.pos += digits;
                let text = &self.src[start..self.pos];
                match text[1..].parse::<u8>() {
                    Ok(n) => self.token(Tok::Nag(Nag(n)), line),
                    Err(_) => self.error(LexErrorKind::BadNag(text.into()), line),
                }
            }
            b'!' | b'?' => {
                let len = bytes[self.pos..]
                    .iter()
                    .take_while(|b| matches!(b, b'!' | b'?'))
                    .count();
                self.pos += len;
                let text = &self.src[start..self.pos];
                match Nag::from_suffix(text) {
                    Some(nag) => self.token(Tok::Nag(nag), line),
                    None => self.error(LexErrorKind::Unexpected(text.into()), line),
                }
            }
            b if b.is_ascii_alphanumeric() || b == b'-' => {
                let len = bytes[self.pos..]
                    .iter()
                    .take_while(|&&b| symbol_continues(b))
                    .count();
                self.pos += len;
                self.token(Tok::Symbol(&self.src[start..self.pos]), line)
            }
            _ => {
                let c = self.src[start..].chars().next().unwrap_or('\u{fffd}');
                self.pos = start + c.len_utf8();
                self.error(LexErrorKind::Unexpected(c.to_string()), line)
            }
        }
    }

    /// A string after its opening quote: `\"` and `\\` are escapes, a lone backslash is kept.
    /// Strings end on their line.
    fn string(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        let mut value = String::new();
        let mut chars = self.src[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return self.token(Tok::Str(value), line);
                }
                '\n' => break,
                '\\' => match self.src[self.pos + i + 1..].chars().next() {
                    Some(e @ ('"' | '\\')) => {
                        value.push(e);
                        chars.next();
                    }
                    _ => value.push('\\'),
                },
                c => value.push(c),
            }
        }
        // Resume at the end of the line; the reader skips the rest of the tag section.
        self.pos = self.src[self.pos..]
            .find('\n')
            .map_or(self.src.len(), |i| self.pos + i);
        self.error(LexErrorKind::UnterminatedString, line)
    }

    /// A `{` comment after its brace. A comment may span lines, but one that runs into a line
    /// that is a whole tag pair (`[Event "..."]` in column 1) has lost its `}`: the lexer stops
    /// before that line, so that reading resumes with the game it starts.
    fn brace_comment(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        let start = self.pos;
        let mut i = start;
        let bytes = self.src.as_bytes();
        while i < bytes.len() {
            match bytes[i] {
                b'}' => {
                    self.pos = i + 1;
                    return self.token(Tok::Comment(&self.src[start..i]), line);
                }
                b'\n' => {
                    self.line += 1;
                    let next = i + 1;
                    let end = self.src[next..]
                        .find('\n')
                        .map_or(self.src.len(), |j| next + j);
                    if looks_like_tag_pair(&self.src[next..end]) {
                        self.pos = next;
                        return self.error(LexErrorKind::UnterminatedComment, line);
                    }
                    i = next;
                }
                _ => i += 1,
            }
        }
        self.pos = bytes.len();
        self.error(LexErrorKind::UnterminatedComment, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Result<Tok<'_>, LexErrorKind>> {
        let mut lex = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            match lex.next_token() {
                Ok(Token { tok: Tok::Eof, .. }) => return out,
                Ok(t) => out.push(Ok(t.tok)),
                Err(e) => out.push(Err(e.kind)),
            }
        }
    }

    #[test]
    fn tokens() {
        use Tok::*;
        assert_eq!(
            toks("\u{feff}[Event \"a \\\"b\\\" \\\\ c\\d\"]\r\n\r\n12.e4 12... e5!? $14 {x\n y} ; z\r\n(Nf3) 1/2-1/2 *"),
            vec![
                Ok(LBracket),
                Ok(Symbol("Event")),
                Ok(Str("a \"b\" \\ c\\d".into())),
                Ok(RBracket),
                Ok(Symbol("12")),
                Ok(Period),
                Ok(Symbol("e4")),
                Ok(Symbol("12")),
                Ok(Period),
                Ok(Period),
                Ok(Period),
                Ok(Symbol("e5!?")),
                Ok(Nag(super::Nag(14))),
                Ok(Comment("x\n y")),
                Ok(Comment(" z")),
                Ok(LParen),
                Ok(Symbol("Nf3")),
                Ok(RParen),
                Ok(Symbol("1/2-1/2")),
                Ok(Symbol("*")),
            ]
        );
        assert_eq!(
            toks("%escaped line\n e4 % not at line start\n!? ?? !!! $ $256 €"),
            vec![
                Ok(Symbol("e4")),
                Err(LexErrorKind::Unexpected("%".into())),
                Ok(Symbol("not")),
                Ok(Symbol("at")),
                Ok(Symbol("line")),
                Ok(Symbol("start")),
                Ok(Nag(super::Nag::SPECULATIVE)),
                Ok(Nag(super::Nag::BLUNDER)),
                Err(LexErrorKind::Unexpected("!!!".into())),
                Err(LexErrorKind::BadNag("$".into())),
                Err(LexErrorKind::BadNag("$256".into())),
                Err(LexErrorKind::Unexpected("€".into())),
            ]
        );
    }

    #[test]
    fn unterminated() {
        assert_eq!(
            toks("[Event \"abc]\n1. e4"),
            vec![
                Ok(Tok::LBracket),
                Ok(Tok::Symbol("Event")),
                Err(LexErrorKind::UnterminatedString),
                Ok(Tok::Symbol("1")),
                Ok(Tok::Period),
                Ok(Tok::Symbol("e4")),
            ]
        );
        let mut lex = Lexer::new("1. e4 { lost\n\n[Event \"next\"]\n1. d4 *");
        lex.next_token().unwrap();
        lex.next_token().unwrap();
        lex.next_token().unwrap();
        let err = lex.next_token().unwrap_err();
        assert_eq!((err.kind, err.line), (LexErrorKind::UnterminatedComment, 1));
        assert_eq!(lex.next_token().unwrap().tok, Tok::LBracket);
        assert_eq!(lex.line(), 3);
        assert_eq!(
            toks("{ never closed"),
            vec![Err(LexErrorKind::UnterminatedComment)]
        );
        // A tag-like text that is not a whole line of its own does not end a comment.
        assert_eq!(
            toks("{ see\n[Event \"x\"] and more }"),
            vec![Ok(Tok::Comment(" see\n[Event \"x\"] and more "))]
        );
        assert!(looks_like_tag_pair("[Event \"x\"]\r"));
        assert!(looks_like_tag_pair("[Event \"\"]"));
        assert!(!looks_like_tag_pair(" [Event \"x\"]"));
        assert!(!looks_like_tag_pair("[Event x]"));
        assert!(!looks_like_tag_pair("[\"x\"]"));
        assert!(!looks_like_tag_pair("[Event \"]"));
    }
}
