//! Time management: turns the `go` clock parameters into a soft limit (don't start another
//! iteration after it) and a hard limit (stop the search at once). The search scales the soft
//! limit by how stable the best move is and by the share of the nodes it took
//! (`search/iterate.rs`, `time_scale`).

use std::time::{Duration, Instant};

/// The clock part of a `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Our remaining time, if given.
    pub time: Option<u64>,
    /// Our increment per move.
    pub inc: u64,
    /// The opponent's remaining time, if given.
    pub opp_time: Option<u64>,
    /// Moves until the next time control (absent: sudden death).
    pub movestogo: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<u64>,
}

/// Soft and hard limits for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Don't start a new iteration after this much time (scaled by stability).
    pub soft: Duration,
    /// Stop as soon as this much time has passed.
    pub hard: Duration,
}

/// Computes the limits for a search, or `None` when the clock imposes none.
/// `overhead` is the `Move Overhead` option: time lost per move in communication.
pub fn allocate(clock: &Clock, overhead: u64) -> Option<Limits> {
    if let Some(mt) = clock.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
        return Some(Limits { soft: t, hard: t });
    }
    // With only the opponent's clock given, assume ours is the same.
    let time = clock.time.or(clock.opp_time)?;
    let avail = time.saturating_sub(overhead).max(1);
    let mtg = clock.movestogo.unwrap_or(30).clamp(1, 50);
    // Any u64 may come from `go`: fractions in u128, sums and products saturating.
    let inc_share = (u128::from(clock.inc) * 3 / 4) as u64;
    let base = (avail / (mtg + u64::from(clock.movestogo.is_some()))).saturating_add(inc_share);
    let soft = base.min(avail / 2).max(1);
    let hard_cap = if mtg == 1 {
        (u128::from(avail) * 8 / 10) as u64
    } else {
        avail / 3
    };
    let hard = soft
        .saturating_mul(4)
        .min(hard_cap)
        .max(soft.min(avail))
        .max(1);
    Some(Limits {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    })
}

/// A running search's clock.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Instant,
    limits: Option<Limits>,
}

impl Timer {
    /// Starts the clock now.
    pub fn new(limits: Option<Limits>) -> Timer {
        Timer {
            start: Instant::now(),
            limits,
        }
    }

    /// Restarts the clock from `at` (on `ponderhit`: our time starts running only then).
    pub fn restart_at(&mut self, at: Instant) {
        self.start = at;
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.limits.is_some_and(|l| self.start.elapsed() >= l.hard)
    }

    /// Whether to stop before starting another iteration. `scale` (around 1.0) grows when the
    /// best move keeps changing or the score drops, and shrinks when the move is stable;
    /// it is clamped to 0.3–3.0, and NaN counts as 1.0.
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.limits.is_some_and(|l| {
            // A fixed time per move (soft = hard) is used in full.
            let scale = if l.soft == l.hard || scale.is_nan() {
                1.0
            } else {
                scale.clamp(0.3, 3.0)
            };
            let soft = l.soft.mul_f64(scale).min(l.hard);
            self.start.elapsed() >= soft
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(l: Limits) -> (u128, u128) {
        (l.soft.as_millis(), l.hard.as_millis())
    }

    #[test]
    fn table_of_clocks() {
        type Case = (Clock, u64, Option<(u128, u128)>);
        let cases: &[Case] = &[
            // Sudden death 60 s, no increment: about 1/30 soft, 4x hard.
            (
                Clock {
                    time: Some(60_000),
                    ..Clock::default()
                },
                10,
                Some((1_999, 7_996)),
            ),
            // 10 s + 0.1 s.
            (
                Clock {
                    time: Some(10_000),
                    inc: 100,
                    ..Clock::default()
                },
                10,
                Some((408, 1_632)),
            ),
            // 40 moves in 40 minutes, 1 move to go: most of the remaining time, never all of it.
            (
                Clock {
                    time: Some(5_000),
                    movestogo: Some(1),
                    ..Clock::default()
                },
                10,
                Some((2_495, 3_992)),
            ),
            // Movetime is exact (minus overhead).
            (
                Clock {
                    movetime: Some(1_000),
                    ..Clock::default()
                },
                10,
                Some((990, 990)),
            ),
            // A tiny clock still gives a positive budget below what is left.
            (
                Clock {
                    time: Some(100),
                    ..Clock::default()
                },
                10,
                Some((3, 12)),
            ),
            // Overhead larger than the clock: 1 ms.
            (
                Clock {
                    time: Some(5),
                    ..Clock::default()
                },
                10,
                Some((1, 1)),
            ),
            // Only the opponent's clock: assume ours is the same.
            (
                Clock {
                    opp_time: Some(60_000),
                    ..Clock::default()
                },
                10,
                Some((1_999, 7_996)),
            ),
            // No clock at all: no limit.
            (Clock::default(), 10, None),
        ];
        for (clock, overhead, expected) in cases {
            assert_eq!(allocate(clock, *overhead).map(ms), *expected, "{clock:?}");
        }
    }

    /// Issue 13, fault 5c: any u64 in any field (as `go` may send) gives limits with
    /// soft <= hard <= the time left, and no overflow (this panics in a debug build if any
    /// arithmetic overflows).
    #[test]
    fn extreme_clocks_neither_overflow_nor_exceed_the_clock() {
        let big = [
            0,
            1,
            2,
            3,
            1_000,
            u64::MAX / 10,
            i64::MAX as u64,
            u64::MAX - 1,
            u64::MAX,
        ];
        let opt = || std::iter::once(None).chain(big.iter().copied().map(Some));
        for time in opt() {
            for inc in big {
                for movestogo in opt() {
                    for overhead in [0, 10, u64::MAX] {
                        for movetime in [None, Some(0), Some(u64::MAX)] {
                            let c = Clock {
                                time,
                                inc,
                                opp_time: Some(u64::MAX),
                                movestogo,
                                movetime,
                            };
                            let l = allocate(&c, overhead).expect("a clock is given");
                            assert!(l.soft <= l.hard && l.hard > Duration::ZERO, "{c:?}: {l:?}");
                            let left = movetime.or(time).unwrap_or(u64::MAX);
                            let cap = left.saturating_sub(overhead).max(1);
                            assert!(l.hard.as_millis() <= u128::from(cap), "{c:?}: {l:?}");
                            // The timer copes too (stability scaling multiplies the soft limit).
                            let t = Timer::new(Some(l));
                            for scale in [0.0, 1.0, 3.0, f64::MAX, f64::NAN] {
                                let _ = t.soft_expired(scale);
                            }
                            assert!(!t.hard_expired() || l.hard.as_millis() < 1_000);
                        }
                    }
                }
            }
        }
    }

    /// The values the saturating arithmetic gives at the top of the range: the same rules
    /// as for ordinary clocks, not wrapped-around garbage.
    #[test]
    fn huge_clocks_keep_the_ordinary_rules() {
        let avail = u64::MAX - 10;
        let one_move = Clock {
            time: Some(u64::MAX),
            inc: u64::MAX,
            movestogo: Some(1),
            ..Clock::default()
        };
        let l = allocate(&one_move, 10).unwrap();
        // soft: half the time left; hard: 80 % of it.
        assert_eq!(l.soft, Duration::from_millis(avail / 2));
        assert_eq!(
            l.hard,
            Duration::from_millis((avail as u128 * 8 / 10) as u64)
        );
        let sudden_death = Clock {
            time: Some(u64::MAX),
            inc: u64::MAX,
            ..Clock::default()
        };
        let l = allocate(&sudden_death, 10).unwrap();
        // The increment makes soft half the time left, and hard is never below soft.
        assert_eq!(l.soft, Duration::from_millis(avail / 2));
        assert_eq!(l.hard, Duration::from_millis(avail / 2));
        // A huge increment with little time: the increment is not yet on the clock.
        let small = Clock {
            time: Some(1_000),
            inc: u64::MAX,
            ..Clock::default()
        };
        let l = allocate(&small, 10).unwrap();
        assert_eq!((l.soft.as_millis(), l.hard.as_millis()), (495, 495));
    }

    #[test]
    fn limits_never_exceed_the_clock() {
        for time in [1u64, 10, 50, 100, 1_000, 10_000, 100_000, 10_000_000] {
            for inc in [0u64, 10, 100, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(10), Some(40)] {
                    let c = Clock {
                        time: Some(time),
                        inc,
                        movestogo: mtg,
                        ..Clock::default()
                    };
                    let l = allocate(&c, 10).unwrap();
                    assert!(l.soft <= l.hard, "{c:?}");
                    assert!(
                        l.hard.as_millis() as u64 <= time.saturating_sub(10).max(1),
                        "{c:?}: {l:?}"
                    );
                }
            }
        }
    }
}
