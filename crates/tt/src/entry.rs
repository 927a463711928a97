//! What one entry holds, and how it is packed into one 64-bit data word.
//!
//! Data word layout (bit 0 is the least significant):
//!
//! | bits   | field                                   |
//! |--------|-----------------------------------------|
//! | 0–15   | move, 16 opaque bits (0 = no move)      |
//! | 16–31  | score, `i16`                            |
//! | 32–47  | static evaluation, `i16`; under [`Policy::TwoBig1`](crate::Policy::TwoBig1) the subtree size instead ([`size_code`]) |
//! | 48–55  | depth byte: depth + [`DEPTH_OFFSET`], 0 = empty slot |
//! | 56–63  | generation (5 bits, 59–63) · pv (bit 58) · bound (bits 56–57) |

/// Added to the signed search depth to get the stored depth byte.
///
/// The byte value 0 is reserved for "empty slot", so the storable depths are
/// [`MIN_DEPTH`]`..=`[`MAX_DEPTH`]; quiescence depths down to −6 store as they are.
pub const DEPTH_OFFSET: i32 = 7;
/// The smallest storable depth; shallower depths are clamped to it.
pub const MIN_DEPTH: i32 = 1 - DEPTH_OFFSET;
/// The largest storable depth; deeper depths are clamped to it.
pub const MAX_DEPTH: i32 = 255 - DEPTH_OFFSET;
/// Number of distinct generations (5 bits); ages are computed modulo this.
pub const GENERATIONS: u8 = 32;
/// The static evaluation a probe returns when the table does not keep one: under
/// [`Policy::TwoBig1`](crate::Policy::TwoBig1), whose entries hold their subtree size in its
/// place. Callers that also store "no evaluation" this way (say, in check) need no special case.
pub const NO_EVAL: i16 = i16::MIN;

/// The subtree size `nodes` on a 16-bit monotone log scale: exact below 1,024, then a
/// 6-bit exponent and the 10 bits after the leading one (a relative error below 0.1 %).
/// `a ≤ b` implies `size_code(a) ≤ size_code(b)`, so codes compare as sizes do.
#[inline]
pub fn size_code(nodes: u64) -> u16 {
    if nodes < 1024 {
        return nodes as u16;
    }
    let e = 63 - nodes.leading_zeros(); // 10..=63
    let mantissa = (nodes >> (e - 10)) & 0x3FF;
    (((e - 9) << 10) as u64 | mantissa) as u16
}

/// The kind of score an entry holds, as in alpha-beta search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Bound {
    /// No score information (for example an entry that only caches the static eval).
    #[default]
    None = 0,
    /// The score is an upper bound (the node failed low; an ALL node).
    Upper = 1,
    /// The score is a lower bound (the node failed high; a CUT node).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            0 => Bound::None,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// What a caller stores: the argument of [`Table::store`](crate::Table::store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// Best or refutation move, 16 opaque bits; 0 means "no move" (the old move is kept).
    pub mv: u16,
    /// Search score.
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining search depth; clamped into [`MIN_DEPTH`]`..=`[`MAX_DEPTH`].
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// Whether the node is (or was) on a principal variation.
    pub pv: bool,
    /// Nodes searched below this node (its subtree size), 0 if unknown. Only
    /// [`Policy::TwoBig1`](crate::Policy::TwoBig1) reads it; it is stored, on a log scale
    /// ([`size_code`]), in place of `eval`.
    pub nodes: u64,
}

/// A copy of a stored entry, as returned by [`Table::probe`](crate::Table::probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Stored move; 0 means none.
    pub mv: u16,
    /// Stored score.
    pub score: i16,
    /// Stored static evaluation ([`NO_EVAL`] under [`Policy::TwoBig1`](crate::Policy::TwoBig1)).
    pub eval: i16,
    /// Stored depth (after clamping into [`MIN_DEPTH`]`..=`[`MAX_DEPTH`]).
    pub depth: i32,
    /// Kind of bound of `score`.
    pub bound: Bound,
    /// PV flag.
    pub pv: bool,
    /// Generation (0–31) of the search that wrote the entry.
    pub generation: u8,
    /// How many searches ago the entry was written (0 = by the current search), modulo 32.
    pub age: u8,
}

/// Relative age of generation `gen` seen from generation `current`, with wrap-around on 5 bits.
#[inline]
pub(crate) fn relative_age(current: u8, gen: u8) -> u8 {
    current.wrapping_sub(gen) & (GENERATIONS - 1)
}

/// One packed data word. A plain value: no atomics here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Data(pub u64);

impl Data {
    /// The empty slot.
    pub const EMPTY: Data = Data(0);

    /// Packs a record written during generation `gen`.
    #[inline]
    pub fn pack(r: &Record, gen: u8) -> Data {
        let depth8 = (r.depth.clamp(MIN_DEPTH, MAX_DEPTH) + DEPTH_OFFSET) as u64;
        let meta =
            (u64::from(gen & (GENERATIONS - 1)) << 3) | (u64::from(r.pv) << 2) | r.bound as u64;
        Data(
            u64::from(r.mv)
                | (u64::from(r.score as u16) << 16)
                | (u64::from(r.eval as u16) << 32)
                | (depth8 << 48)
                | (meta << 56),
        )
    }

    /// Packs a record for [`Policy::TwoBig1`](crate::Policy::TwoBig1): its subtree size
    /// ([`size_code`]) takes the place of the static evaluation.
    #[inline]
    pub fn pack_sized(r: &Record, gen: u8) -> Data {
        let d = Data::pack(r, gen);
        Data((d.0 & !(0xFFFF << 32)) | (u64::from(size_code(r.nodes)) << 32))
    }

    /// The subtree size code of a word packed by [`Data::pack_sized`].
    #[inline]
    pub fn size(self) -> u16 {
        (self.0 >> 32) as u16
    }

    /// The same word written in generation `gen` instead.
    #[inline]
    pub fn with_generation(self, gen: u8) -> Data {
        Data((self.0 & !(0x1F << 59)) | (u64::from(gen & (GENERATIONS - 1)) << 59))
    }

    /// The same word with `bits` in the evaluation field (bits 32–47).
    #[inline]
    pub fn with_eval_field(self, bits: u16) -> Data {
        Data((self.0 & !(0xFFFF << 32)) | (u64::from(bits) << 32))
    }

    /// Stored move (0 = none).
    #[inline]
    pub fn mv(self) -> u16 {
        self.0 as u16
    }

    /// The same word with its move replaced.
    #[inline]
    pub fn with_move(self, mv: u16) -> Data {
        Data((self.0 & !0xFFFF) | u64::from(mv))
    }

    /// The raw depth byte; 0 means the slot is empty.
    #[inline]
    pub fn depth8(self) -> u8 {
        (self.0 >> 48) as u8
    }

    /// Whether the slot holds nothing.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.depth8() == 0
    }

    /// Signed depth.
    #[inline]
    pub fn depth(self) -> i32 {
        i32::from(self.depth8()) - DEPTH_OFFSET
    }

    /// Generation, 0–31.
    #[inline]
    pub fn generation(self) -> u8 {
        (self.0 >> 59) as u8
    }

    /// Bound kind.
    #[inline]
    pub fn bound(self) -> Bound {
        Bound::from_bits(self.0 >> 56)
    }

    /// PV flag.
    #[inline]
    pub fn pv(self) -> bool {
        (self.0 >> 58) & 1 == 1
    }

    /// Relative age seen from the current generation.
    #[inline]
    pub fn age(self, current: u8) -> u8 {
        relative_age(current, self.generation())
    }

    /// Unpacks into the public copy.
    #[inline]
    pub fn unpack(self, current: u8) -> Entry {
        Entry {
            mv: self.mv(),
            score: (self.0 >> 16) as u16 as i16,
            eval: (self.0 >> 32) as u16 as i16,
            depth: self.depth(),
            bound: self.bound(),
            pv: self.pv(),
            generation: self.generation(),
            age: self.age(current),
        }
    }
}

/// A lower-bound record of `depth` with move `mv` (score 10, eval −3), for the crate's tests.
#[cfg(test)]
pub(crate) fn test_record(depth: i32, mv: u16) -> Record {
    Record {
        mv,
        score: 10,
        eval: -3,
        depth,
        bound: Bound::Lower,
        pv: false,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_every_field() {
        for &(depth, bound, pv) in &[
            (MIN_DEPTH, Bound::Upper, false),
            (-1, Bound::Lower, true),
            (0, Bound::None, false),
            (17, Bound::Exact, true),
            (MAX_DEPTH, Bound::Exact, false),
        ] {
            let r = Record {
                mv: 0xBEEF,
                score: -32000,
                eval: 1234,
                depth,
                bound,
                pv,
                nodes: 0,
            };
            let e = Data::pack(&r, 29).unpack(30);
            assert_eq!(
                (
                    e.mv,
                    e.score,
                    e.eval,
                    e.depth,
                    e.bound,
                    e.pv,
                    e.generation,
                    e.age
                ),
                (0xBEEF, -32000, 1234, depth, bound, pv, 29, 1)
            );
            assert!(!Data::pack(&r, 29).is_empty());
        }
    }

    #[test]
    fn depth_is_clamped_and_never_empty() {
        let deep = Record {
            depth: 10_000,
            ..Record::default()
        };
        let shallow = Record {
            depth: -100,
            ..Record::default()
        };
        assert_eq!(Data::pack(&deep, 0).depth(), MAX_DEPTH);
        assert_eq!(Data::pack(&shallow, 0).depth(), MIN_DEPTH);
        assert!(!Data::pack(&shallow, 0).is_empty());
        assert!(Data::EMPTY.is_empty());
    }

    #[test]
    fn size_code_is_monotone_exact_when_small_and_close_when_large() {
        let mut last = 0;
        let mut n = 0u64;
        while n < u64::MAX / 3 {
            let c = size_code(n);
            assert!(c >= last, "size_code({n}) = {c} < {last}");
            last = c;
            if n < 1024 {
                assert_eq!(u64::from(c), n);
            }
            n = n + 1 + n / 7;
        }
        assert!(size_code(u64::MAX) >= last);
        assert!(size_code(1 << 40) < size_code((1 << 40) + (1 << 31)));
        let d = Data::pack_sized(
            &Record {
                eval: -5,
                nodes: 123_456,
                depth: 3,
                ..Record::default()
            },
            0,
        );
        assert_eq!(d.size(), size_code(123_456));
        assert_eq!(d.depth(), 3);
    }

    #[test]
    fn relative_age_wraps_on_five_bits() {
        assert_eq!(relative_age(3, 3), 0);
        assert_eq!(relative_age(3, 1), 2);
        assert_eq!(relative_age(1, 30), 3);
        assert_eq!(relative_age(0, 31), 1);
    }
}
