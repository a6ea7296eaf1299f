//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

mod eval_report;
pub mod output;
mod perft;
pub mod uci;
pub mod xboard;

pub use output::Output;

use protean_rules::{with_position, AnyRules};
use protean_search::evaluate::EvalTables;
use protean_search::nnue::Network;
use protean_search::Options;
use std::path::Path;
use std::sync::Arc;

/// The largest table either protocol allocates (MiB).
const MAX_HASH_MIB: usize = 65_536;
/// The most search threads either protocol starts.
pub use protean_search::MAX_THREADS;
/// The largest contempt (centipawns, either sign), Stockfish's range.
const MAX_CONTEMPT: i32 = 100;

/// The deepest perft a protocol runs.
pub use protean_rules::perft::MAX_DEPTH as MAX_PERFT_DEPTH;

/// Reads a perft depth, 0 to [`MAX_PERFT_DEPTH`].
fn perft_depth(text: Option<&str>) -> Result<u32, String> {
    match text.map(|t| t.parse::<u32>()) {
        Some(Ok(d)) if d <= MAX_PERFT_DEPTH => Ok(d),
        _ => Err(format!("perft takes a depth from 0 to {MAX_PERFT_DEPTH}")),
    }
}

/// What `EvalFile` names in `value`: a network file, or `<built-in>` (or
/// nothing) for the networks built into the binary. With the network, a
/// line for the user: its shape, and whether it fits `rules`' variant
/// (a variant it does not fit keeps its built-in network). The error
/// names the file and why; the caller says what stays.
fn read_eval_file(value: &str, rules: &AnyRules) -> Result<(Option<Arc<Network>>, String), String> {
    if value.is_empty() || value == BUILT_IN_NETWORKS {
        return Ok((None, "EvalFile: the built-in networks".into()));
    }
    let net = Network::from_file(Path::new(value)).map_err(|e| format!("EvalFile {e}"))?;
    let (kinds, cells) = net.shape();
    let kind = if net.on_top { ", on top of the hand-made evaluation" } else { "" };
    let (fits, their_kinds, their_cells) =
        with_position!(&rules.start(), p => (net.fits(p.rules()), p.rules().piece_types, p.rules().geometry.cells()));
    let variant = &rules.variant().name;
    let fit = if fits {
        format!("it evaluates {variant}")
    } else {
        format!(
            "it does not fit {variant} ({their_kinds} kinds on {their_cells} cells), which keeps its built-in network"
        )
    };
    Ok((Some(Arc::new(net)), format!("EvalFile {value}: {kinds} kinds on {cells} cells{kind}; {fit}")))
}

/// `EvalFile`'s value for the networks built into the binary.
const BUILT_IN_NETWORKS: &str = "<built-in>";

/// What `WeightsFile` names in `value`: a weights file (`protean tune`'s
/// or `protean learn`'s), or `<built-in>` (or nothing) for the weights
/// built into the binary. A file that does not read for `rules`' variant
/// (a letter it has no piece for, a malformed line) is an error; a
/// variant chosen later that the file does not read for is weighed by its
/// built-in weights.
fn read_weights_file(value: &str, rules: &AnyRules) -> Result<(Option<Arc<str>>, String), String> {
    if value.is_empty() || value == BUILT_IN_WEIGHTS {
        return Ok((None, "WeightsFile: the built-in weights".into()));
    }
    let text: Arc<str> = std::fs::read_to_string(value).map_err(|e| format!("WeightsFile {value}: {e}"))?.into();
    let variant = &rules.variant().name;
    with_position!(&rules.start(), p => EvalTables::with_file(p.rules(), text.clone()).map(drop))
        .map_err(|e| format!("WeightsFile {value}: {e} (for {variant})"))?;
    Ok((Some(text), format!("WeightsFile {value}: it weighs {variant}")))
}

/// `WeightsFile`'s value for the weights built into the binary.
const BUILT_IN_WEIGHTS: &str = "<built-in>";

/// Which of `WeightsFile` and `EvalFile` the user set: those stand, and
/// the others follow the variant chosen.
#[derive(Clone, Copy, Debug, Default)]
struct GivenEvalFiles {
    weights: bool,
    network: bool,
}

/// Gives `options` the weights and network that `rules`' variant file
/// names (`weightsFile`, `evalFile`), or the built-in ones where it names
/// none, except those the user set; lines to tell the user.
fn follow_variant_eval_files(rules: &AnyRules, given: GivenEvalFiles, options: &mut Options) -> Vec<String> {
    let files = &rules.variant().eval_files;
    let mut told = Vec::new();
    if !given.weights {
        options.weights_file = read_named(files.weights.as_deref(), rules, read_weights_file, &mut told);
    }
    if !given.network {
        options.eval_file = read_named(files.network.as_deref(), rules, read_eval_file, &mut told);
    }
    told
}

/// A reader of `WeightsFile` or `EvalFile`: what it loads, and a line
/// saying what it is.
type ReadFile<T> = fn(&str, &AnyRules) -> Result<(Option<T>, String), String>;

/// The file at `path` (of those a variant file names) read by `read`;
/// `None` where there is none, or it does not read (told).
fn read_named<T>(path: Option<&Path>, rules: &AnyRules, read: ReadFile<T>, told: &mut Vec<String>) -> Option<T> {
    match read(&path?.display().to_string(), rules) {
        Ok((file, line)) => {
            told.push(line);
            file
        }
        Err(e) => {
            told.push(format!("{e}: named by {}'s variant file, not used", rules.variant().name));
            None
        }
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
pub fn run_session(
    mut input: impl std::io::BufRead,
    start: impl FnOnce(&str) -> Box<dyn Protocol>,
) -> Option<Box<dyn Protocol>> {
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

/// The engine as GUIs run it: a session on standard input and output
/// until `quit` or the end of input. The first command picks the
/// protocol: `xboard` for XBoard, anything else is UCI.
pub fn run_stdio() {
    // A banner as Stockfish prints one; GUIs pass over it.
    println!("Protean {} by the Protean developers", env!("CARGO_PKG_VERSION"));
    let session = run_session(std::io::stdin().lock(), |first| -> Box<dyn Protocol> {
        if first.trim() == "xboard" {
            Box::new(XBoard::new(Output::stdout()))
        } else {
            Box::new(Uci::new(Output::stdout()))
        }
    });
    // The process ends now: its threads and tables go with it, at once.
    std::mem::forget(session);
}
