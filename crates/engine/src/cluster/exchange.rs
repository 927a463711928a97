//! The table entries one rank shares with the others: what a search thread stores at a
//! depth of at least [`Exchange::min_depth`] is copied, with its full 64-bit key, into the
//! thread's [`Outbox`]; a full outbox is handed to the rank's [`Exchange`] (without waiting:
//! if the exchange is busy the outbox keeps filling, up to a cap, then starts over); the
//! rank's communication thread takes the batch, sends it round the ring, and stores what the
//! others sent into its own table ([`Exchange::store_batch`]).
//!
//! A received entry is stored by its full key, so the receiving table derives its own
//! bucket and signature from it: an entry only ever lands where the receiving rank itself
//! would have stored that position. The wire format is 16 bytes an entry, little-endian:
//! key (8), move (2), score (2), static evaluation (2), depth (1, at least 1), and the
//! bound (bits 0-1) and PV flag (bit 2).

use engram_tt::{Bound, Record, Table};
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bytes per entry on the wire.
pub const ENTRY_BYTES: usize = 16;
/// The default shallowest depth shared.
pub const MIN_DEPTH_DEFAULT: i32 = 6;
/// The default number of entries a search thread collects before it hands them over.
pub const OUTBOX_DEFAULT: usize = 32;
/// The most entries waiting to be sent; beyond it a thread's batch is dropped (the ring is
/// slower than the search: sending less is better than falling behind).
pub const PENDING_MAX: usize = 1 << 14;

/// One entry: its full key and what was stored.
pub type Shared = (u64, Record);

/// What a rank shares, and where it stores what it receives.
#[derive(Debug)]
pub struct Exchange {
    min_depth: AtomicI32,
    outbox: AtomicUsize,
    pending: Mutex<Vec<Shared>>,
    table: Mutex<Option<Arc<Table>>>,
    /// Entries handed over by the search threads.
    pub offered: AtomicU64,
    /// Entries dropped because too many were waiting.
    pub dropped: AtomicU64,
    /// Entries received from other ranks and stored.
    pub received: AtomicU64,
    /// Bytes of entries this rank sent (its own batches and those it forwarded).
    pub sent_bytes: AtomicU64,
    /// Microseconds this rank spent searching (for the bytes per second of search).
    pub search_micros: AtomicU64,
    search_start: Mutex<Option<Instant>>,
}

impl Default for Exchange {
    fn default() -> Self {
        Exchange {
            min_depth: AtomicI32::new(MIN_DEPTH_DEFAULT),
            outbox: AtomicUsize::new(OUTBOX_DEFAULT),
            pending: Mutex::new(Vec::new()),
            table: Mutex::new(None),
            offered: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            received: AtomicU64::new(0),
            sent_bytes: AtomicU64::new(0),
            search_micros: AtomicU64::new(0),
            search_start: Mutex::new(None),
        }
    }
}

impl Exchange {
    /// The shallowest depth shared.
    pub fn min_depth(&self) -> i32 {
        self.min_depth.load(Ordering::Relaxed)
    }

    /// Sets the shallowest depth shared (at least 1).
    pub fn set_min_depth(&self, depth: i32) {
        self.min_depth.store(depth.max(1), Ordering::Relaxed);
    }

    /// Entries a thread collects before handing them over.
    pub fn outbox_size(&self) -> usize {
        self.outbox.load(Ordering::Relaxed)
    }

    /// Sets the outbox size (at least 1).
    pub fn set_outbox_size(&self, n: usize) {
        self.outbox.store(n.max(1), Ordering::Relaxed);
    }

    /// The table received entries go to (the engine sets it whenever its table changes).
    pub fn set_table(&self, table: Arc<Table>) {
        *self.table.lock().unwrap_or_else(|e| e.into_inner()) = Some(table);
    }

    /// A search of this rank starts (for [`Exchange::summary`]'s rates).
    pub fn search_started(&self) {
        *self.search_start.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// The search of this rank ended.
    pub fn search_ended(&self) {
        if let Some(t) = self
            .search_start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            self.search_micros
                .fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
        }
    }

    /// What this rank shared and received so far, in one line: entries offered, dropped,
    /// received, bytes sent, and the bytes sent per second of search.
    pub fn summary(&self) -> String {
        let secs = self.search_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let sent = self.sent_bytes.load(Ordering::Relaxed);
        format!(
            "{secs:.1} s searching; entries offered {}, dropped {}, received {}; {sent} bytes \
             sent ({:.0} bytes/s of search)",
            self.offered.load(Ordering::Relaxed),
            self.dropped.load(Ordering::Relaxed),
            self.received.load(Ordering::Relaxed),
            if secs > 0.0 { sent as f64 / secs } else { 0.0 },
        )
    }

    /// Takes `outbox`'s entries if the exchange is free and has room; returns whether it
    /// did (the outbox is then empty). Never waits for the lock.
    pub fn offer(&self, outbox: &mut Vec<Shared>) -> bool {
        let Ok(mut pending) = self.pending.try_lock() else {
            return false;
        };
        self.offered
            .fetch_add(outbox.len() as u64, Ordering::Relaxed);
        if pending.len() + outbox.len() > PENDING_MAX {
            self.dropped
                .fetch_add(outbox.len() as u64, Ordering::Relaxed);
        } else {
            pending.append(outbox);
        }
        outbox.clear();
        true
    }

    /// The entries waiting to be sent, in the wire format (and no longer waiting).
    pub fn take_batch(&self) -> Vec<u8> {
        let entries = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        encode(&entries)
    }

    /// Stores a received batch into the table; returns how many entries it held (an
    /// incomplete last entry is ignored).
    pub fn store_batch(&self, bytes: &[u8]) -> usize {
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let entries = decode(bytes);
        if let Some(table) = table {
            for &(key, record) in &entries {
                table.store(key, record);
            }
        }
        self.received
            .fetch_add(entries.len() as u64, Ordering::Relaxed);
        entries.len()
    }
}

/// What a search thread collects for the exchange.
#[derive(Debug)]
pub struct Outbox {
    exchange: Option<Arc<Exchange>>,
    min_depth: i32,
    size: usize,
    entries: Vec<Shared>,
}

impl Default for Outbox {
    /// An outbox that collects nothing.
    fn default() -> Self {
        Outbox::new(None)
    }
}

impl Outbox {
    /// An outbox feeding `exchange` (none: nothing is collected), with its settings as they
    /// are now (read once per search).
    pub fn new(exchange: Option<Arc<Exchange>>) -> Outbox {
        let (min_depth, size) = exchange
            .as_ref()
            .map_or((i32::MAX, 0), |e| (e.min_depth(), e.outbox_size()));
        Outbox {
            exchange,
            min_depth,
            size,
            entries: Vec::with_capacity(size),
        }
    }

    /// Keeps `record` for `key` if it is deep enough; hands the outbox over when full.
    #[inline]
    pub fn push(&mut self, key: u64, record: &Record) {
        if record.depth < self.min_depth {
            return;
        }
        self.entries.push((key, *record));
        if self.entries.len() >= self.size {
            self.flush();
        }
    }

    /// Hands the collected entries over (if the exchange takes them; beyond four times the
    /// outbox size they are dropped).
    pub fn flush(&mut self) {
        let Some(exchange) = &self.exchange else {
            return;
        };
        if !exchange.offer(&mut self.entries) && self.entries.len() >= 4 * self.size {
            exchange
                .dropped
                .fetch_add(self.entries.len() as u64, Ordering::Relaxed);
            self.entries.clear();
        }
    }
}

/// The wire format of `entries`.
pub fn encode(entries: &[Shared]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * ENTRY_BYTES);
    for (key, r) in entries {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&r.mv.to_le_bytes());
        out.extend_from_slice(&r.score.to_le_bytes());
        out.extend_from_slice(&r.eval.to_le_bytes());
        out.push(r.depth.clamp(1, 255) as u8);
        out.push(r.bound as u8 | (u8::from(r.pv) << 2));
    }
    out
}

/// The entries of a batch in the wire format (an incomplete last entry is ignored).
pub fn decode(bytes: &[u8]) -> Vec<Shared> {
    bytes
        .chunks_exact(ENTRY_BYTES)
        .map(|c| {
            let u16_at = |i: usize| u16::from_le_bytes([c[i], c[i + 1]]);
            let key = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
            let bound = match c[15] & 3 {
                0 => Bound::None,
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            };
            (
                key,
                Record {
                    mv: u16_at(8),
                    score: u16_at(10) as i16,
                    eval: u16_at(12) as i16,
                    depth: i32::from(c[14]),
                    bound,
                    pv: c[15] & 4 != 0,
                    nodes: 0,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(depth: i32, score: i16) -> Record {
        Record {
            mv: 0x1234,
            score,
            eval: -77,
            depth,
            bound: Bound::Lower,
            pv: true,
            nodes: 0,
        }
    }

    #[test]
    fn entries_survive_the_wire() {
        let entries = vec![
            (0xDEAD_BEEF_0123_4567, record(9, -250)),
            (
                1,
                Record {
                    bound: Bound::Upper,
                    pv: false,
                    ..record(1, 31_000)
                },
            ),
        ];
        let bytes = encode(&entries);
        assert_eq!(bytes.len(), 2 * ENTRY_BYTES);
        assert_eq!(decode(&bytes), entries);
        // A torn last entry is ignored.
        assert_eq!(decode(&bytes[..ENTRY_BYTES + 5]), entries[..1]);
    }

    #[test]
    fn deep_entries_reach_the_other_table_by_their_key() {
        let ours = Arc::new(Exchange::default());
        ours.set_min_depth(5);
        ours.set_outbox_size(2);
        let mut outbox = Outbox::new(Some(ours.clone()));
        outbox.push(11, &record(4, 10)); // too shallow
        outbox.push(12, &record(5, 20));
        outbox.push(13, &record(8, 30)); // full: handed over
        outbox.push(14, &record(9, 40)); // waits in the outbox
        let batch = ours.take_batch();
        assert_eq!(decode(&batch).len(), 2);
        assert!(ours.take_batch().is_empty());

        let theirs = Exchange::default();
        let table = Arc::new(Table::new(1).unwrap());
        theirs.set_table(table.clone());
        assert_eq!(theirs.store_batch(&batch), 2);
        assert_eq!(table.probe(12).unwrap().score, 20);
        assert_eq!(table.probe(13).unwrap().depth, 8);
        assert!(table.probe(11).is_none() && table.probe(14).is_none());
        assert_eq!(theirs.received.load(Ordering::Relaxed), 2);
        assert!(
            theirs.summary().contains("received 2;"),
            "{}",
            theirs.summary()
        );
    }

    #[test]
    fn a_busy_or_full_exchange_drops_rather_than_waits() {
        let ex = Arc::new(Exchange::default());
        let mut entries: Vec<Shared> = (0..PENDING_MAX as u64).map(|k| (k, record(7, 0))).collect();
        assert!(ex.offer(&mut entries));
        let mut more = vec![(1u64 << 40, record(7, 0))];
        assert!(ex.offer(&mut more));
        assert!(more.is_empty());
        assert_eq!(ex.dropped.load(Ordering::Relaxed), 1);
        // While the exchange is locked, an offer returns at once.
        let guard = ex.pending.lock().unwrap();
        let mut one = vec![(5u64, record(7, 0))];
        assert!(!ex.offer(&mut one));
        assert_eq!(one.len(), 1);
        drop(guard);
        // An outbox without an exchange collects nothing.
        let mut none = Outbox::new(None);
        none.push(1, &record(50, 0));
        assert!(none.entries.is_empty());
    }
}
