//! The cluster's UCI options (`cargo build --features cluster` lists them after the
//! others): the settings of the entry exchange between ranks (`crate::cluster`).

use super::{Declaration, Effect, Kind};
use crate::cluster::{self, exchange::MIN_DEPTH_DEFAULT, exchange::OUTBOX_DEFAULT};
use std::sync::atomic::Ordering;

/// The cluster's UCI options (a `cluster` build lists them after the others): the
/// exchange's depth threshold, outbox size and period.
pub fn declarations() -> Vec<Declaration> {
    vec![
        Declaration {
            name: "Cluster Depth",
            kind: Kind::Spin {
                default: MIN_DEPTH_DEFAULT.into(),
                min: 1,
                max: 64,
            },
            doc: "the shallowest table entries a rank sends the others",
            apply: |_, _, v| {
                cluster::MIN_DEPTH.store(v.int() as i32, Ordering::Relaxed);
                Ok(Effect::None)
            },
        },
        Declaration {
            name: "Cluster Outbox",
            kind: Kind::Spin {
                default: OUTBOX_DEFAULT as i64,
                min: 1,
                max: 4096,
            },
            doc: "entries a search thread collects before it hands them to the ring",
            apply: |_, _, v| {
                cluster::OUTBOX.store(v.int() as usize, Ordering::Relaxed);
                Ok(Effect::None)
            },
        },
        Declaration {
            name: "Cluster Period",
            kind: Kind::Spin {
                default: cluster::PERIOD_MS_DEFAULT as i64,
                min: 1,
                max: 1000,
            },
            doc: "milliseconds between two batches of entries sent round the ring",
            apply: |_, _, v| {
                cluster::PERIOD_MS.store(v.int() as u64, Ordering::Relaxed);
                Ok(Effect::None)
            },
        },
    ]
}
