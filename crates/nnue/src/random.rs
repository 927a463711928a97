//! Seeded random networks: non-trivial weights for tests and benchmarks, and the
//! placeholder the engine embeds until a trained network replaces it.

use crate::net::{Activation, Network};

/// splitmix64: a small, deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `-m..=m`.
    fn small(&mut self, m: i16) -> i16 {
        ((self.next() % (2 * m as u64 + 1)) as i64 - m as i64) as i16
    }
}

/// A network of hidden size `hidden` (a multiple of 16) with weights drawn from `seed`:
/// feature weights and biases in ±64, output weights in ±64 (valid for both activations),
/// output bias in ±`QA · QB`. Evaluations are of a few hundred centipawns and differ from
/// position to position; the same seed gives the same network.
pub fn random_network(hidden: usize, activation: Activation, seed: u64) -> Network {
    let mut rng = SplitMix(seed);
    let mut net = Network::zeros(hidden, activation);
    for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
        *w = rng.small(64);
    }
    for w in &mut net.out_weights {
        *w = rng.small(64);
    }
    net.out_bias = rng.small(i16::MAX) as i32 % (crate::net::QA * crate::net::QB);
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::Board;

    #[test]
    fn deterministic_valid_and_not_trivial() {
        let a = random_network(32, Activation::SCReLU, 7);
        assert_eq!(a, random_network(32, Activation::SCReLU, 7));
        assert_ne!(a, random_network(32, Activation::SCReLU, 8));
        assert_eq!(Network::from_bytes(&a.to_bytes()).unwrap(), a);
        let start = a.evaluate_scalar(&Board::startpos());
        let other =
            a.evaluate_scalar(&Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap());
        assert_ne!(start, other);
    }
}
