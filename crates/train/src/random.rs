//! Seeded random networks with non-trivial weights, for tests (the engine's accumulator and
//! `EvalFile` tests use them). The engine embeds a trained network, never one of these.

use engram_nnue::net::{Activation, Network};

use crate::rng::Rng;

/// Uniform in `-m..=m`.
fn small(rng: &mut Rng, m: i16) -> i16 {
    ((rng.next_u64() % (2 * m as u64 + 1)) as i64 - m as i64) as i16
}

/// A network of hidden size `hidden` (a multiple of 16) with weights drawn from `seed`:
/// feature weights and biases in ±64, output weights in ±64 (valid for both activations),
/// output bias in ±`QA · QB`. Evaluations are of a few hundred centipawns and differ from
/// position to position; the same seed gives the same network.
pub fn random_network(hidden: usize, activation: Activation, seed: u64) -> Network {
    random_bucketed_network(hidden, activation, 1, seed)
}

/// [`random_network`] with `buckets` output buckets, each with its own random output layer
/// (drawn one after the other; one bucket gives exactly [`random_network`]'s network).
pub fn random_bucketed_network(
    hidden: usize,
    activation: Activation,
    buckets: usize,
    seed: u64,
) -> Network {
    let mut rng = Rng::new(seed);
    let mut net = Network::zeros(hidden, activation, buckets);
    for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias) {
        *w = small(&mut rng, 64);
    }
    for w in &mut net.out_weights {
        *w = small(&mut rng, 64);
    }
    for b in &mut net.out_bias {
        *b = small(&mut rng, i16::MAX) as i32 % (engram_nnue::net::QA * engram_nnue::net::QB);
    }
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
        let b = random_bucketed_network(32, Activation::SCReLU, 8, 7);
        assert_eq!(
            (b.buckets, b.out_weights.len(), b.out_bias.len()),
            (8, 8 * 64, 8)
        );
        assert_eq!(Network::from_bytes(&b.to_bytes()).unwrap(), b);
        assert_eq!(random_bucketed_network(32, Activation::SCReLU, 1, 7), a);
    }
}
