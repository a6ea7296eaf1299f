//! The transposition table against a concurrent hash map (dashmap), the
//! way a search uses a table: two threads storing and probing random keys,
//! far more keys than fit. Also prints what each holds after the run: the
//! table stays at its size (it replaces), the map grows with every new key
//! (it never forgets), so its memory is not bounded by `Hash` at all.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dashmap::DashMap;
use protean_search::tt::{Bound, Entry, PackedMove, TranspositionTable};

const OPS_PER_THREAD: u64 = 200_000;

fn keys(seed: u64) -> impl Iterator<Item = u64> {
    let mut s = seed;
    (0..OPS_PER_THREAD).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
}

fn entry(k: u64) -> Entry {
    Entry { mv: Some(PackedMove(k as u32)), score: (k >> 16) as i16, depth: (k >> 32) as u8 % 64, bound: Bound::Exact }
}

/// Two threads, each probing a key and storing another, as a search does;
/// returns the hits.
fn run(probe: impl Fn(u64) -> bool + Sync, store: impl Fn(u64) + Sync) -> u64 {
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..=2u64)
            .map(|t| {
                let (probe, store) = (&probe, &store);
                s.spawn(move || {
                    let mut hits = 0;
                    for k in keys(t * 0x9E37_79B9) {
                        hits += u64::from(probe(k >> 1));
                        store(k);
                    }
                    hits
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

fn compare(c: &mut Criterion) {
    let mut group = c.benchmark_group("transposition table, 2 threads, 400k store+probe");
    group.sample_size(10);
    group.throughput(Throughput::Elements(2 * OPS_PER_THREAD));
    let tt = TranspositionTable::new(1);
    group.bench_function("lock-free table (1 MiB)", |b| {
        b.iter(|| run(|k| tt.probe(k).is_some(), |k| tt.store(k, entry(k))))
    });
    let map: DashMap<u64, Entry> = DashMap::new();
    group.bench_function("dashmap", |b| {
        b.iter(|| {
            run(
                |k| map.get(&k).is_some(),
                |k| {
                    map.insert(k, entry(k));
                },
            )
        })
    });
    group.finish();
    eprintln!(
        "after the runs: table holds at most {} entries in 1 MiB; dashmap holds {} entries (about {} MiB of entries alone)",
        1024 * 1024 / 16,
        map.len(),
        map.len() * (std::mem::size_of::<u64>() + std::mem::size_of::<Entry>()) / (1024 * 1024)
    );
}

criterion_group!(benches, compare);
criterion_main!(benches);
