//! The search tree allocates nothing: with a global allocator that counts,
//! a deeper search (many times the nodes) makes no more allocations than
//! a shallower one but for a few per iteration (the reported lines). Run
//! on one thread with a depth limit; the engine's thread is started (and
//! its per-ply stack allocated) before the count begins.

use protean_rules::AnyRules;
use protean_search::{Engine, Limits};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on unchanged to the system allocator,
// which upholds GlobalAlloc's contract; counting touches no memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's `layout` meets `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` with `layout`; the caller vouches for `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations and nodes of a fixed-depth search of `fen`.
fn search_counts(variant: &str, fen: &str, depth: u32) -> (u64, u64) {
    let pos = AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap();
    let mut engine = Engine::new(pos);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let outcome = engine.search(limits);
    (ALLOCATIONS.load(Ordering::Relaxed) - before, outcome.nodes)
}

/// What one iteration of deepening allocates outside the tree: the line
/// found, the line as whole turns, the report (six, measured).
const PER_ITERATION: u64 = 10;

#[test]
fn a_deeper_search_allocates_only_per_iteration() {
    // The deeper depth for each: enough for four times the nodes (the
    // one-dimensional board has few moves, and its tree grows slowly).
    for (variant, fen, deep) in [
        ("standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10", 11),
        ("perfect", "r1bqkqbnr/ppp1ppppp/2n6/3p5/9/4P4/9/PPPP1PPPP/RNBQKQBNR w KQkq - 0 3", 9),
        ("onedim", "K1R2Q3n1b2rk b - - 3 15", 13),
    ] {
        let (shallow_allocs, shallow_nodes) = search_counts(variant, fen, 5);
        let (deep_allocs, deep_nodes) = search_counts(variant, fen, deep);
        assert!(deep_nodes > 4 * shallow_nodes.max(1_000), "{variant}: {shallow_nodes} then {deep_nodes} nodes");
        // More iterations, each a few allocations for its principal
        // variation and report; the many thousands of nodes more allocate
        // nothing.
        assert!(
            deep_allocs <= shallow_allocs + (deep as u64 - 5) * PER_ITERATION,
            "{variant}: {shallow_allocs} allocations for {shallow_nodes} nodes, {deep_allocs} for {deep_nodes}"
        );
    }
}
