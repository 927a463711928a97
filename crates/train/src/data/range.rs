//! An adaptive binary range coder (the design of LZMA's): the entropy coder of chunks.
//!
//! Every symbol is coded as bits, each under a [`Prob`]: an estimate, in 1/4096ths, that the
//! next bit under it is 0, which moves a thirty-second of the way towards each bit it codes.
//! A bit that is nearly certain costs a small fraction of a bit of output. Numbers are coded
//! through [`BitTree`]s (one probability per prefix of the number's bits) or as a bit length
//! followed by the bits below the leading one ([`Magnitude`]).
//!
//! The encoder keeps `low` (33 bits with the carry) and `range` (32 bits): coding a bit
//! narrows `[low, low + range)` to the bit's share, and whenever `range` falls below 2²⁴
//! the top byte of `low` is settled and shifted out. A byte of `0xFF` may still receive a
//! carry, so such bytes wait (`cache`, `pending`) until the carry is known. `finish` writes
//! the last five bytes. The decoder mirrors the encoder with `code`, the offset of the coded
//! number inside the range. Decoding damaged input never panics: reading past the end is
//! reported by [`Decoder::overrun`], and every number it returns stays within its width.

/// Bits of precision of a probability.
const PROB_BITS: u32 = 12;
/// A probability of one half.
const HALF: u16 = 1 << (PROB_BITS - 1);
/// Adaptation speed: each bit moves the estimate 1/2⁵ of the way.
const MOVE_BITS: u32 = 5;
/// `range` is renormalised when it falls below this.
const TOP: u32 = 1 << 24;

/// The probability that the next bit is 0, in 1/4096ths.
#[derive(Clone, Copy, Debug)]
pub struct Prob(u16);

impl Default for Prob {
    fn default() -> Prob {
        Prob(HALF)
    }
}

impl Prob {
    fn update(&mut self, bit: bool) {
        if bit {
            self.0 -= self.0 >> MOVE_BITS;
        } else {
            self.0 += ((1 << PROB_BITS) - self.0) >> MOVE_BITS;
        }
    }
}

/// Encodes bits into bytes.
#[derive(Debug)]
pub struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
}

impl Default for Encoder {
    fn default() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out: Vec::new(),
        }
    }
}

impl Encoder {
    /// Codes `bit` under `p` and adapts `p`.
    pub fn bit(&mut self, p: &mut Prob, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(p.0);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        p.update(bit);
        self.normalise();
    }

    /// Codes the low `n` bits of `value`, high bit first, each with probability one half.
    pub fn direct(&mut self, value: u32, n: u32) {
        for i in (0..n).rev() {
            self.range >>= 1;
            if (value >> i) & 1 == 1 {
                self.low += u64::from(self.range);
            }
            self.normalise();
        }
    }

    fn normalise(&mut self) {
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low >= 1 << 32 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// The coded bytes.
    pub fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// Decodes the bits an [`Encoder`] coded, with the same probabilities in the same order.
#[derive(Debug)]
pub struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    code: u32,
    range: u32,
    overrun: bool,
}

impl<'a> Decoder<'a> {
    /// A decoder of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            bytes,
            at: 0,
            code: 0,
            range: u32::MAX,
            overrun: false,
        };
        for _ in 0..5 {
            d.code = (d.code << 8) | u32::from(d.next_byte());
        }
        d
    }

    fn next_byte(&mut self) -> u8 {
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                b
            }
            None => {
                self.overrun = true;
                0
            }
        }
    }

    /// Whether decoding needed more bytes than there are (the input is truncated or
    /// damaged).
    pub fn overrun(&self) -> bool {
        self.overrun
    }

    /// Bytes consumed so far.
    pub fn consumed(&self) -> usize {
        self.at
    }

    /// Decodes a bit coded under `p` and adapts `p`.
    pub fn bit(&mut self, p: &mut Prob) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(p.0);
        let bit = self.code >= bound;
        if bit {
            self.code -= bound;
            self.range -= bound;
        } else {
            self.range = bound;
        }
        p.update(bit);
        self.normalise();
        bit
    }

    /// Decodes `n` (at most 32) bits coded by [`Encoder::direct`].
    pub fn direct(&mut self, n: u32) -> u32 {
        let mut value = 0u32;
        for _ in 0..n {
            self.range >>= 1;
            let bit = self.code >= self.range;
            if bit {
                self.code -= self.range;
            }
            value = (value << 1) | bit as u32;
            self.normalise();
        }
        value
    }

    fn normalise(&mut self) {
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next_byte());
        }
    }
}

/// An adaptive model of numbers of `N` bits, `0 .. 2^N`: one probability per prefix.
#[derive(Clone, Debug)]
pub struct BitTree<const N: usize> {
    probs: Vec<Prob>,
}

impl<const N: usize> Default for BitTree<N> {
    fn default() -> Self {
        BitTree {
            probs: vec![Prob::default(); 1 << N],
        }
    }
}

impl<const N: usize> BitTree<N> {
    /// Codes `value` (its low `N` bits).
    pub fn encode(&mut self, e: &mut Encoder, value: u32) {
        let mut node = 1usize;
        for i in (0..N).rev() {
            let bit = (value >> i) & 1 == 1;
            e.bit(&mut self.probs[node], bit);
            node = (node << 1) | bit as usize;
        }
    }

    /// Decodes a value, `0 .. 2^N`.
    pub fn decode(&mut self, d: &mut Decoder) -> u32 {
        let mut node = 1usize;
        for _ in 0..N {
            let bit = d.bit(&mut self.probs[node]);
            node = (node << 1) | bit as usize;
        }
        (node - (1 << N)) as u32
    }
}

/// Highest bit length [`Magnitude`] codes: values up to `2^MAX_LEN − 2`.
const MAX_LEN: usize = 31;
/// Bits below the leading one coded adaptively; the rest are direct.
const MODELLED: u32 = 3;

/// An adaptive model of unsigned numbers that are usually small: `v + 1` is coded as its bit
/// length (a [`BitTree`] of 5 bits), then its bits below the leading one, the first three
/// of them adaptively (one tree per length), the rest directly.
#[derive(Clone, Debug)]
pub struct Magnitude {
    len: BitTree<5>,
    high: Vec<BitTree<3>>,
}

impl Default for Magnitude {
    fn default() -> Magnitude {
        Magnitude {
            len: BitTree::default(),
            high: vec![BitTree::default(); MAX_LEN + 1],
        }
    }
}

impl Magnitude {
    /// Codes `value` (below `2^31 − 1`).
    pub fn encode(&mut self, e: &mut Encoder, value: u32) {
        let v = value + 1;
        let len = 32 - v.leading_zeros();
        debug_assert!(len as usize <= MAX_LEN, "{value} is too large");
        self.len.encode(e, len);
        let below = len - 1;
        let modelled = below.min(MODELLED);
        let rest = below - modelled;
        let high = (v >> rest) & ((1 << modelled) - 1);
        // Fewer than three bits use the tree's low levels with leading zeros.
        self.high[len as usize].encode(e, high);
        e.direct(v & ((1 << rest) - 1), rest);
    }

    /// Decodes a value; `None` for a bit length that [`Magnitude::encode`] never writes.
    pub fn decode(&mut self, d: &mut Decoder) -> Option<u32> {
        let len = self.len.decode(d);
        if len == 0 || len as usize > MAX_LEN {
            return None;
        }
        let below = len - 1;
        let modelled = below.min(MODELLED);
        let rest = below - modelled;
        let high = self.high[len as usize].decode(d);
        if high >> modelled != 0 {
            return None;
        }
        let low = d.direct(rest);
        let v = (1 << below) | (high << rest) | low;
        Some(v - 1)
    }
}

/// `v` folded onto the unsigned numbers: 0, −1, 1, −2, … become 0, 1, 2, 3, …
pub fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

/// The inverse of [`zigzag`].
pub fn unzigzag(z: u32) -> i32 {
    ((z >> 1) as i32) ^ -((z & 1) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, for test inputs.
    fn rng(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn zigzag_round_trips() {
        for v in [
            0,
            1,
            -1,
            2,
            -2,
            1000,
            -1000,
            i16::MAX as i32,
            i16::MIN as i32 * 2,
        ] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!(zigzag(0), 0);
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }

    #[test]
    fn mixed_symbols_round_trip_and_use_every_byte() {
        for seed in 0..20u64 {
            let mut s = seed;
            let n = (rng(&mut s) % 5000) as usize;
            let mut symbols = Vec::new();
            for _ in 0..n {
                let kind = rng(&mut s) % 4;
                let r = rng(&mut s);
                // Skewed values, as real data: mostly small, some large.
                let v = match kind {
                    0 => (r % 2) as u32 & (r >> 8) as u32 & 1,
                    1 => (r % 40) as u32,
                    2 => ((r % 7) as u32) << ((r >> 8) % 20),
                    _ => r as u32 >> 9,
                };
                symbols.push((kind, v));
            }
            let mut e = Encoder::default();
            let (mut p, mut t, mut m) = (
                Prob::default(),
                BitTree::<8>::default(),
                Magnitude::default(),
            );
            for &(kind, v) in &symbols {
                match kind {
                    0 => e.bit(&mut p, v == 1),
                    1 => t.encode(&mut e, v),
                    2 => m.encode(&mut e, v),
                    _ => e.direct(v, 23),
                }
            }
            let bytes = e.finish();
            let mut d = Decoder::new(&bytes);
            let (mut p, mut t, mut m) = (
                Prob::default(),
                BitTree::<8>::default(),
                Magnitude::default(),
            );
            for &(kind, v) in &symbols {
                let got = match kind {
                    0 => d.bit(&mut p) as u32,
                    1 => t.decode(&mut d),
                    2 => m.decode(&mut d).unwrap(),
                    _ => d.direct(23),
                };
                assert_eq!(got, v, "seed {seed}");
            }
            assert!(!d.overrun(), "seed {seed}");
            assert_eq!(d.consumed(), bytes.len(), "seed {seed}");
        }
    }

    #[test]
    fn skewed_bits_cost_little() {
        let mut e = Encoder::default();
        let mut p = Prob::default();
        for i in 0..80_000 {
            e.bit(&mut p, i % 100 == 0);
        }
        // The entropy of a 1% bit is 0.081 bits: 80,000 of them about 810 bytes.
        let n = e.finish().len();
        assert!(n < 1_100, "{n} bytes");
    }

    #[test]
    fn damaged_input_decodes_without_panicking() {
        // Random bytes: whatever they decode to, the decoder must not panic, and 900 symbols
        // need more than 200 bytes of input.
        let mut s = 7u64;
        for len in 0..200 {
            let bytes: Vec<u8> = (0..len).map(|_| rng(&mut s) as u8).collect();
            let mut d = Decoder::new(&bytes);
            let (mut t, mut m) = (BitTree::<8>::default(), Magnitude::default());
            for _ in 0..300 {
                t.decode(&mut d);
                let _ = m.decode(&mut d);
                d.direct(17);
            }
            assert!(d.overrun(), "{len} bytes were enough");
        }
    }

    #[test]
    fn every_truncation_is_an_overrun() {
        let mut e = Encoder::default();
        let mut t = BitTree::<8>::default();
        for i in 0..500u32 {
            t.encode(&mut e, i * 7 % 256);
        }
        let bytes = e.finish();
        for len in 0..bytes.len() {
            let mut d = Decoder::new(&bytes[..len]);
            let mut t = BitTree::<8>::default();
            for _ in 0..500 {
                t.decode(&mut d);
            }
            assert!(d.overrun(), "truncated to {len} of {}", bytes.len());
        }
    }
}
