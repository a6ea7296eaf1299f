//! Long checks shared out over the machine's cores. A test binary runs its
//! tests on every core, but a file with one long test leaves the others
//! idle while it runs: its items are shared out here instead.

/// Calls `check` on every item, the items split into one share per core;
/// a panic in any share fails the caller once every share has ended.
pub fn for_each<T: Sync>(items: &[T], check: impl Fn(&T) + Sync) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let check = &check;
    std::thread::scope(|scope| {
        for share in items.chunks(items.len().div_ceil(cores).max(1)) {
            scope.spawn(move || share.iter().for_each(check));
        }
    });
}
