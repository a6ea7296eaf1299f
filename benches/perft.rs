//! Perft speed, Protean against Stockfish's own `go perft`, in one run.
//!
//! Stockfish runs as a child process that is started once; each iteration
//! sends `go perft 5` and waits for `Nodes searched`, so its figure carries
//! one pipe round trip (microseconds) on top of a ~0.1 s search. Compare
//! the two `standard start d5` lines: their ratio is Protean's speed as a
//! fraction of Stockfish's on this machine. `PROTEAN_STOCKFISH` names
//! another Stockfish binary.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use protean_rules::AnyRules;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start() -> Option<Stockfish> {
        let path = std::env::var("PROTEAN_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
        let mut child = Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        Some(Stockfish { child, input, output })
    }

    fn perft(&mut self, depth: u32) -> u64 {
        writeln!(self.input, "position startpos\ngo perft {depth}").unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "Stockfish exited");
            if let Some(n) = line.strip_prefix("Nodes searched: ") {
                return n.trim().parse().unwrap();
            }
        }
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);

    let mut standard = AnyRules::by_name("standard").unwrap().start();
    group.throughput(Throughput::Elements(4_865_609));
    group.bench_function("protean standard start d5", |b| b.iter(|| assert_eq!(standard.perft(5), 4_865_609)));
    match Stockfish::start() {
        Some(mut sf) => {
            group.bench_function("stockfish standard start d5", |b| b.iter(|| assert_eq!(sf.perft(5), 4_865_609)));
        }
        None => eprintln!("Stockfish not found: only Protean measured"),
    }

    let mut perfect = AnyRules::by_name("perfect").unwrap().start();
    group.throughput(Throughput::Elements(8_931_600));
    group.bench_function("protean perfect start d5", |b| b.iter(|| assert_eq!(perfect.perft(5), 8_931_600)));
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
