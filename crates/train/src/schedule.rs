//! The learning-rate schedule: a step drop, and optionally a second one.
//!
//! The rate is `lr` until epoch `drop_epoch` (counted from 1) and `lr · 0.1` from it on — the
//! schedule of Carp's and Viridithas's first nets (a drop at about 3/8 to 3/4 of the run) and
//! one of bullet's two example schedules. A step drop was chosen over cosine decay because
//! its one parameter is easy to reason about when a run is extended: the epochs before the
//! drop are the same whatever the total. A second drop (`second_drop`, another factor of 0.1)
//! gives a low-rate tail, as bullet's multi-step schedules do.

/// The factor applied at the drop.
pub const DROP_FACTOR: f32 = 0.1;

/// A step-drop schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepDrop {
    /// The starting learning rate.
    pub lr: f32,
    /// The first epoch (1-based) at the lower rate.
    pub drop_epoch: usize,
    /// The first epoch (1-based) at a hundredth of the rate, if any (after `drop_epoch`).
    pub second_drop: Option<usize>,
}

impl StepDrop {
    /// The default drop epoch for a run of `epochs`: after 75% of them (`⌊0.75 · epochs⌋ + 1`,
    /// so 10 epochs drop at epoch 8).
    pub fn default_drop(epochs: usize) -> usize {
        epochs * 3 / 4 + 1
    }

    /// The learning rate of `epoch` (1-based).
    pub fn lr(&self, epoch: usize) -> f32 {
        if self.second_drop.is_some_and(|e| epoch >= e) {
            self.lr * DROP_FACTOR * DROP_FACTOR
        } else if epoch >= self.drop_epoch {
            self.lr * DROP_FACTOR
        } else {
            self.lr
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_once() {
        let s = StepDrop {
            lr: 0.001,
            drop_epoch: StepDrop::default_drop(10),
            second_drop: None,
        };
        assert_eq!(s.drop_epoch, 8);
        assert_eq!(s.lr(7), 0.001);
        assert!((s.lr(8) - 0.0001).abs() < 1e-9);
        assert!((s.lr(10) - 0.0001).abs() < 1e-9);
    }

    #[test]
    fn a_second_drop_gives_a_hundredth() {
        let s = StepDrop {
            lr: 0.001,
            drop_epoch: 28,
            second_drop: Some(36),
        };
        assert_eq!(s.lr(27), 0.001);
        assert!((s.lr(28) - 0.0001).abs() < 1e-9);
        assert!((s.lr(35) - 0.0001).abs() < 1e-9);
        assert!((s.lr(36) - 0.00001).abs() < 1e-10);
        assert!((s.lr(40) - 0.00001).abs() < 1e-10);
    }
}
