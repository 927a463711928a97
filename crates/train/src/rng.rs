//! A small seeded pseudo-random generator (SplitMix64), the crate's one source of randomness:
//! the trainer's initialisation, shuffling and validation split, random networks, and the
//! engine's self-play openings depend only on their seeds, and no `rand` crate is needed.

/// SplitMix64 (Steele, Lea and Flood 2014): 64 bits of state, passes BigCrush, and any seed
/// (zero included) is a good one.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below
    /// `n / 2⁶⁴`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniform float in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        // 24 random bits: every value is exact in an f32.
        ((self.next_u64() >> 40) as f32 / (1u32 << 23) as f32) - 1.0
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_repeatability() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..10_000 {
            let x = a.symmetric();
            assert!((-1.0..1.0).contains(&x));
            assert_eq!(x, b.symmetric());
            assert!(a.below(7) < 7);
            b.below(7);
        }
        let mut v: Vec<u32> = (0..100).collect();
        Rng::new(1).shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
