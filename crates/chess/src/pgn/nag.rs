//! NAGs: the numeric annotation glyphs of PGN (`$2`), and the move suffixes they stand for.

use core::fmt;

/// A Numeric Annotation Glyph, `$0` to `$255`. Export format writes every annotation this way;
/// the six move assessments also have a suffix form (`!`, `?`, `!!`, `??`, `!?`, `?!`) that
/// import format accepts after a move or on its own.
///
/// ```
/// use engram_chess::pgn::Nag;
/// assert_eq!(Nag::from_suffix("?!"), Some(Nag::DUBIOUS));
/// assert_eq!(Nag::DUBIOUS.to_string(), "$6");
/// assert_eq!(Nag::BLUNDER.suffix(), Some("??"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, `!`: a good move.
    pub const GOOD: Nag = Nag(1);
    /// `$2`, `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`: a brilliant move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `$4`, `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`: a speculative (interesting) move.
    pub const SPECULATIVE: Nag = Nag(5);
    /// `$6`, `?!`: a dubious move.
    pub const DUBIOUS: Nag = Nag(6);

    const SUFFIXES: [(&'static str, Nag); 6] = [
        ("!", Nag::GOOD),
        ("?", Nag::MISTAKE),
        ("!!", Nag::BRILLIANT),
        ("??", Nag::BLUNDER),
        ("!?", Nag::SPECULATIVE),
        ("?!", Nag::DUBIOUS),
    ];

    /// The NAG of a move suffix (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn from_suffix(suffix: &str) -> Option<Nag> {
        Nag::SUFFIXES
            .iter()
            .find(|(s, _)| *s == suffix)
            .map(|&(_, n)| n)
    }

    /// The suffix form of the six move assessments (`$1` to `$6`).
    pub fn suffix(self) -> Option<&'static str> {
        Nag::SUFFIXES
            .iter()
            .find(|(_, n)| *n == self)
            .map(|&(s, _)| s)
    }
}

/// A NAG displays in export form, `$n`.
impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}
