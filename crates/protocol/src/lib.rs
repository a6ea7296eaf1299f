//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

pub mod bench;
pub mod output;
mod perft;
pub mod uci;
pub mod xboard;

pub use output::Output;


/// The largest table either protocol allocates (MiB).
const MAX_HASH_MIB: usize = 65_536;
/// The most search threads either protocol starts.
pub const MAX_THREADS: usize = 256;
/// The largest contempt (centipawns, either sign), Stockfish's range.
const MAX_CONTEMPT: i32 = 100;

/// The deepest perft a protocol runs (each ply keeps a move list).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Reads a perft depth, 0 to [`MAX_PERFT_DEPTH`].
fn perft_depth(text: Option<&str>) -> Result<u32, String> {
    match text.map(|t| t.parse::<u32>()) {
        Some(Ok(d)) if d <= MAX_PERFT_DEPTH => Ok(d),
        _ => Err(format!("perft takes a depth from 0 to {MAX_PERFT_DEPTH}")),
    }
}

pub use uci::{Flow, Uci};
pub use xboard::XBoard;

/// A protocol session: one line in, replies to its output.
pub trait Protocol {
    fn handle(&mut self, line: &str) -> Flow;
    /// Says, in the protocol's own form, that a line could not be read
    /// at all (not UTF-8); nothing changes.
    fn refuse(&mut self, reason: &str);
}

impl Protocol for Uci {
    fn handle(&mut self, line: &str) -> Flow {
        Uci::handle(self, line)
    }
    fn refuse(&mut self, reason: &str) {
        Uci::refuse(self, reason)
    }
}

impl Protocol for XBoard {
    fn handle(&mut self, line: &str) -> Flow {
        XBoard::handle(self, line)
    }
    fn refuse(&mut self, reason: &str) {
        XBoard::refuse(self, reason)
    }
}

/// Reads a session's lines from `input` until `quit` or its end. A line
/// that is not UTF-8 is refused in the protocol's own way and the
/// session goes on. `start` picks the protocol from the first line that
/// is not blank.
///
/// The session, its search stopped, is handed back rather than dropped:
/// dropping it joins every search thread and frees its tables, which with
/// 64 threads on a busy machine can take longer than a GUI waits after
/// `quit`. A process about to exit may simply forget it.
pub fn run_session(mut input: impl std::io::BufRead, start: impl FnOnce(&str) -> Box<dyn Protocol>) -> Option<Box<dyn Protocol>> {
    let mut session: Option<Box<dyn Protocol>> = None;
    let mut start = Some(start);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = std::str::from_utf8(&bytes);
        if session.is_none() {
            let Ok(text) = line else { continue };
            if text.trim().is_empty() {
                continue;
            }
            session = Some(start.take().expect("started once")(text));
        }
        let s = session.as_mut().expect("started above");
        let flow = match line {
            Ok(text) => s.handle(text.trim_end_matches(['\n', '\r'])),
            Err(e) => {
                s.refuse(&format!("not UTF-8 (byte {} of the line)", e.valid_up_to() + 1));
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return session;
        }
    }
    if let Some(s) = session.as_mut() {
        s.handle("quit");
    }
    session
}
