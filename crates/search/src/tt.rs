//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data
//! word (Hyatt and Mann's lockless hashing). A reader accepts an entry only
//! if `key_word ^ data == key`; an entry torn by two threads writing at
//! once fails that test and reads as a miss, so no lock is needed and a
//! torn write costs one lost entry, never a wrong move.
//!
//! Entries sit in clusters of four (64 bytes, one cache line). A store
//! replaces the entry with the same key, else the one whose depth, less
//! eight plies per search generation of age, is lowest.
//!
//! A concurrent hash map (dashmap) is the wrong tool here: it locks shards,
//! allocates per insert, never forgets (no replacement, so memory is not
//! bounded by `Hash`) and has no `hashfull`; `benches/tt.rs` measures it
//! against this table.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A move as the table keeps it, in 32 bits (its cells, promotion and
/// tile shift, as the search packs them). The search finds the full move
/// among the position's legal moves by packing those the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedMove(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<PackedMove>,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
}

const CLUSTER: usize = 4;

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Four slots on one cache line of their own: a probe costs one memory
/// access, which the prefetch before it can hide.
#[derive(Default)]
#[repr(align(64))]
struct Cluster([Slot; CLUSTER]);

pub struct TranspositionTable {
    /// The table's memory: `clusters` below starts `offset` clusters in,
    /// at a huge-page boundary (see [`huge_page_offset`]).
    memory: Vec<Cluster>,
    offset: usize,
    generation: AtomicU8,
}

/// The size of a transparent huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// How many clusters into `memory` the first huge-page boundary lies,
/// after asking Linux to back the table from there with huge pages.
///
/// Every probe lands on a random cluster, so with 4 KiB pages nearly
/// every probe also misses the processor's TLB (16 MiB is 4,096 pages,
/// more than its TLB holds) and waits on a page walk that the prefetch
/// does not hide; 2 MiB pages cut the pages a 16 MiB table spans to
/// eight. Stockfish allocates its table the same way. The advice must
/// come before the memory is first written, which faults the pages in.
/// Elsewhere, or where the kernel refuses, the table works on small pages.
fn huge_page_offset(memory: &Vec<Cluster>, count: usize) -> usize {
    let start = memory.as_ptr() as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let offset = (aligned - start) / std::mem::size_of::<Cluster>();
    if offset + count > memory.capacity() {
        return 0;
    }
    #[cfg(target_os = "linux")]
    {
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        let len = (count * std::mem::size_of::<Cluster>()).next_multiple_of(HUGE_PAGE);
        let len = len.min((memory.capacity() - offset) * std::mem::size_of::<Cluster>());
        // SAFETY: the range lies inside `memory`'s allocation, and the
        // advice changes how its pages are backed, never their contents.
        unsafe { madvise(aligned as *mut std::ffi::c_void, len, MADV_HUGEPAGE) };
    }
    offset
}

// data layout: move 32 | has move 1 | bound 2 | generation 5 | depth 8 |
// score 16.
fn pack(e: &Entry, generation: u8) -> u64 {
    let (mv, has) = match e.mv {
        Some(m) => (m.0 as u64, 1u64),
        None => (0, 0),
    };
    mv | has << 32
        | (e.bound as u64) << 33
        | ((generation & 31) as u64) << 35
        | (e.depth as u64) << 40
        | (e.score as u16 as u64) << 48
}

fn unpack(d: u64) -> Entry {
    let bound = match (d >> 33) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    Entry {
        mv: ((d >> 32) & 1 == 1).then_some(PackedMove(d as u32)),
        bound,
        depth: (d >> 40) as u8,
        score: (d >> 48) as u16 as i16,
    }
}

fn generation_of(d: u64) -> u8 {
    ((d >> 35) & 31) as u8
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one cluster).
    ///
    /// # Panics
    /// If the memory cannot be had; protocols use [`Self::try_new`].
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` mebibytes, or why there is none: a size the
    /// system refuses is an error to report, not an abort.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let too_large = || format!("{mib} MiB cannot be allocated");
        let bytes = mib.max(1).checked_mul(1024 * 1024).ok_or_else(too_large)?;
        let count = (bytes / std::mem::size_of::<Cluster>()).max(1);
        // Room for the clusters from the first huge-page boundary on.
        let slack = HUGE_PAGE / std::mem::size_of::<Cluster>();
        let mut memory = Vec::new();
        memory.try_reserve_exact(count + slack).map_err(|_| too_large())?;
        let offset = huge_page_offset(&memory, count);
        memory.resize_with(offset + count, Cluster::default);
        Ok(TranspositionTable { memory, offset, generation: AtomicU8::new(0) })
    }

    /// The table's clusters.
    fn clusters(&self) -> &[Cluster] {
        &self.memory[self.offset..]
    }

    pub fn clear(&self) {
        for s in self.clusters().iter().flat_map(|c| &c.0) {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search, so entries of old searches age out first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> &[Slot] {
        // Multiply-shift maps the key onto the clusters without a modulo.
        let i = ((key as u128 * self.clusters().len() as u128) >> 64) as usize;
        &self.clusters()[i].0
    }

    /// Asks the processor to bring `key`'s cluster into its cache: called
    /// as a move is made, the load from memory overlaps the work done
    /// before the child node probes.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.cluster(key).as_ptr());
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.cluster(key) {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.key.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) & 31;
        let cluster = self.cluster(key);
        let mut victim = &cluster[0];
        let mut worst = i32::MAX;
        for s in cluster {
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 || s.key.load(Ordering::Relaxed) ^ data == key {
                // Keep the old move when the new entry has none.
                if entry.mv.is_none() && data != 0 {
                    entry.mv = unpack(data).mv;
                }
                victim = s;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 31) as i32;
            let worth = unpack(data).depth as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                victim = s;
            }
        }
        let data = pack(&entry, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.key.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand entries written in this search,
    /// as UCI's `hashfull` asks.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 31;
        let n = (self.clusters().len() * CLUSTER).min(1000);
        let used = self
            .clusters()
            .iter()
            .flat_map(|c| &c.0)
            .take(n)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Asks the processor to bring the cache line at `p` closer, without
/// waiting for it.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u8, score: i16) -> Entry {
        Entry { mv: Some(PackedMove(12 | 28 << 8)), score, depth, bound: Bound::Lower }
    }

    #[test]
    fn a_table_the_system_cannot_give_is_an_error() {
        assert!(TranspositionTable::try_new(usize::MAX).is_err(), "bytes overflow");
        assert!(TranspositionTable::try_new(1 << 40).is_err(), "an exbibyte");
        assert!(TranspositionTable::try_new(1).is_ok());
    }

    #[test]
    fn stores_and_finds_what_it_stored() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, entry(7, -1234));
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(entry(7, -1234)));
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(42, entry(3, 10));
        let slot = tt.cluster(42).iter().find(|s| s.data.load(Ordering::Relaxed) != 0).unwrap();
        slot.data.fetch_xor(1 << 40, Ordering::Relaxed); // another thread's half-written score
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn replaces_the_shallowest_and_oldest() {
        let tt = TranspositionTable::new(1);
        // Keys that share a cluster: same high bits of key * clusters.
        let base = 1u64 << 40;
        let keys: Vec<u64> = (0..5).map(|i| base + i).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, entry(10 + i as u8, 0));
        }
        tt.store(keys[4], entry(20, 0));
        assert_eq!(tt.probe(keys[0]), None, "the shallowest went");
        assert!(keys[1..].iter().all(|&k| tt.probe(k).is_some()));
        tt.new_search();
        tt.new_search();
        tt.store(keys[0], entry(5, 0));
        assert_eq!(tt.probe(keys[0]).map(|e| e.depth), Some(5), "old deep entries give way to new shallow ones");
        assert!(tt.hashfull() <= 1000);
    }
}
