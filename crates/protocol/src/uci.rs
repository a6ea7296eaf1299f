//! UCI, with the variant extensions Fairy-Stockfish made common
//! (`UCI_Variant`, an `info string` with a variant's start position).
//!
//! Commands are parsed here rather than with vampirc-uci: that crate only
//! knows squares a1..h8 and its lenient parser silently drops a move it
//! cannot read (`position startpos moves e2e4 i8i9` comes back with one
//! move), so a Perfect Chess game would desynchronise without a word. The
//! test `vampirc_uci_drops_variant_moves` in `tests/uci.rs` shows it. Here
//! every token is read against the current variant's rules, and a line
//! with any bad token is refused whole with an `info string`.

use crate::eval_report;
use crate::output::Output;
use crate::perft::Perft;
use crate::{
    follow_variant_eval_files, read_eval_file, read_weights_file, GivenEvalFiles, BUILT_IN_NETWORKS, BUILT_IN_WEIGHTS,
    MAX_CONTEMPT, MAX_HASH_MIB, MAX_THREADS,
};
use protean_rules::{fen, variants, AnyPosition, AnyRules, Color};
use protean_search::bench::{bench, BenchSettings};
use protean_search::engine::DEFAULT_HASH_MIB;
use protean_search::skill::{self, Skill};
use protean_search::{AfterMove, Engine, Limits, Listener, Score, SearchParams};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A build with the `tune` feature offers every number of the search
/// (`SearchParams::TUNABLE`) as a spin option of its field's name, as
/// Stockfish's tuning builds do, so that an SPSA tuner (OpenBench,
/// Weather Factory) or a match can set them; other builds keep the option
/// list a GUI shows short.
const SEARCH_PARAMS_AS_OPTIONS: bool = cfg!(feature = "tune");

/// Whether the loop goes on after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Uci {
    out: Output,
    rules: AnyRules,
    /// The search, and the position it searches.
    engine: Engine,
    /// How the position was last given: the words before `moves`, and the
    /// moves, so that a command that only adds moves (as GUIs send every
    /// turn) plays just those instead of the whole game again.
    given: (Vec<String>, Vec<String>),
    ponder: bool,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    show_wdl: bool,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`, which together
    /// set the search's skill (the Elo wins while strength is limited).
    skill_level: usize,
    /// `UCI_Variant` as set, and `UCI_Chess960`, which turns chess into
    /// Chess960 (castling written king-takes-rook, X-FEN and Shredder-FEN).
    variant: String,
    chess960: bool,
    limit_strength: bool,
    elo: i32,
    perft: Perft,
    /// `WeightsFile` and `EvalFile` as set stand; unset, they follow the
    /// variant's file.
    given_eval_files: GivenEvalFiles,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        let rules = AnyRules::by_name("standard").expect("standard chess exists");
        let engine = Engine::new(rules.start());
        Uci {
            out,
            rules,
            engine,
            given: (vec!["startpos".into()], Vec::new()),
            ponder: false,
            show_wdl: false,
            skill_level: skill::MAX_LEVEL as usize,
            variant: "standard".into(),
            chess960: false,
            limit_strength: false,
            elo: skill::elo_range().0,
            perft: Perft::default(),
            given_eval_files: GivenEvalFiles::default(),
        }
    }

    fn info_string(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    /// Says that a line could not be read at all; nothing changes.
    pub fn refuse(&self, reason: &str) {
        self.info_string(&format!("{reason}; line ignored"));
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else { return Flow::Continue };
        match command {
            "uci" => self.identify(),
            "isready" => self.out.line("readyok"),
            // Accepted, as GUIs send it; Protean has no debug output.
            "debug" if matches!(args, ["on"] | ["off"]) => {}
            "ucinewgame" => {
                self.perft.stop();
                self.engine.clear();
            }
            "setoption" => self.set_option(args),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.engine.ponderhit(),
            "d" => self.display(),
            "eval" => {
                for line in eval_report::lines(&self.engine.static_evaluation()) {
                    self.out.line(&line);
                }
            }
            "bench" => self.bench(args),
            "quit" => {
                self.stop();
                return Flow::Quit;
            }
            _ => self.info_string(&format!("unknown command '{}'", line.trim())),
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.out.line(&format!("id name Protean {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Protean developers");
        self.out.line(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        self.out.line(&format!("option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"));
        self.out.line("option name Clear Hash type button");
        self.out.line("option name Ponder type check default false");
        self.out.line("option name MultiPV type spin default 1 min 1 max 256");
        self.out.line("option name Move Overhead type spin default 10 min 0 max 5000");
        self.out
            .line(&format!("option name Skill Level type spin default {0} min 0 max {0}", skill::MAX_LEVEL as usize));
        self.out.line("option name UCI_LimitStrength type check default false");
        let (low, high) = skill::elo_range();
        self.out.line(&format!("option name UCI_Elo type spin default {low} min {low} max {high}"));
        self.out
            .line(&format!("option name Split Turns type check default {}", protean_search::SPLIT_TURNS_BY_DEFAULT));
        self.out.line(&format!(
            "option name Contempt type spin default {} min -{MAX_CONTEMPT} max {MAX_CONTEMPT}",
            protean_search::CONTEMPT_BY_DEFAULT
        ));
        self.out.line(&format!("option name Use NNUE type check default {}", protean_search::USE_NETWORK_BY_DEFAULT));
        self.out.line(&format!("option name EvalFile type string default {BUILT_IN_NETWORKS}"));
        self.out.line(&format!("option name WeightsFile type string default {BUILT_IN_WEIGHTS}"));
        let vars: String = variants::listed(|n| n.uci).iter().map(|n| format!(" var {n}")).collect();
        self.out.line(&format!("option name UCI_Variant type combo default chess{vars}"));
        self.out.line("option name UCI_Chess960 type check default false");
        self.out.line("option name VariantPath type string default <empty>");
        self.out.line("option name UCI_ShowWDL type check default false");
        if SEARCH_PARAMS_AS_OPTIONS {
            for t in SearchParams::TUNABLE {
                let default = t.get(&SearchParams::DEFAULT);
                self.out
                    .line(&format!("option name {} type spin default {default} min {} max {}", t.name, t.min, t.max));
            }
        }
        self.out.line("uciok");
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name <name words> [value <value words>]
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return self.info_string("setoption needs 'name'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        self.stop();
        let mut options = self.engine.options().clone();
        let number = |min: usize, max: usize| spin(name, value, min, max);
        let check = |value: Option<&str>| match value {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(format!("option '{name}' is true or false")),
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "hash" => number(1, MAX_HASH_MIB).and_then(|n| {
                let was = self.engine.hash_mib();
                self.engine.resize_hash(n).map_err(|e| format!("Hash {n}: {e}; the table stays at {was} MiB"))
            }),
            "threads" => number(1, MAX_THREADS).map(|n| options.threads = n),
            "multipv" => number(1, 256).map(|n| options.multi_pv = n),
            "move overhead" => number(0, 5000).map(|n| options.move_overhead = Duration::from_millis(n as u64)),
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            "ponder" => check(value).map(|on| self.ponder = on),
            "split turns" => check(value).map(|on| options.split_turns = on),
            "contempt" => spin(name, value, -MAX_CONTEMPT, MAX_CONTEMPT).map(|n| options.contempt = n),
            "use nnue" => check(value).map(|on| options.use_network = on),
            "evalfile" => read_eval_file(value.unwrap_or(""), &self.rules)
                .map(|(net, told)| {
                    options.eval_file = net;
                    self.given_eval_files.network = true;
                    self.info_string(&told);
                })
                .map_err(|e| format!("{e}; the network stays as it was")),
            "weightsfile" => read_weights_file(value.unwrap_or(""), &self.rules)
                .map(|(file, told)| {
                    options.weights_file = file;
                    self.given_eval_files.weights = true;
                    self.info_string(&told);
                })
                .map_err(|e| format!("{e}; the weights stay as they were")),
            "skill level" => number(0, skill::MAX_LEVEL as usize).map(|n| self.skill_level = n),
            "uci_limitstrength" => check(value).map(|on| self.limit_strength = on),
            "uci_elo" => {
                let (low, high) = skill::elo_range();
                number(low as usize, high as usize).map(|n| self.elo = n as i32)
            }
            "uci_chess960" => check(value)
                .and_then(|on| {
                    let was = self.chess960;
                    self.chess960 = on;
                    self.select_variant(&self.variant.clone()).inspect_err(|_| self.chess960 = was)
                })
                .map(|()| self.follow_variant_eval_files(&mut options)),
            "uci_variant" => {
                self.select_variant(value.unwrap_or("")).map(|()| self.follow_variant_eval_files(&mut options))
            }
            "variantpath" => self.load_variants(value.unwrap_or("")),
            "uci_showwdl" => check(value).map(|on| self.show_wdl = on),
            _ => match SearchParams::tunable(name) {
                Some(t) if SEARCH_PARAMS_AS_OPTIONS => {
                    spin(name, value, t.min, t.max).and_then(|n| t.set(&mut options.params, n))
                }
                _ => Err(format!("unknown option '{name}'")),
            },
        };
        if let Err(e) = result {
            self.info_string(&e);
        }
        // Full strength is left to the search to recognise (it ignores a full skill).
        options.skill = Some(if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::from_level(self.skill_level as f64)
        });
        self.engine.set_options(options);
    }

    /// `bench [HASH [THREADS [DEPTH]]]`, Stockfish's order: the bench, its
    /// lines here. It holds the session until done, as Stockfish's does.
    fn bench(&mut self, args: &[&str]) {
        let mut settings = BenchSettings::default();
        for (i, text) in args.iter().enumerate() {
            let set = match i {
                0 => text.parse().map(|n| settings.hash_mib = n).is_ok(),
                1 => text.parse().map(|n| settings.threads = n).is_ok(),
                2 => text.parse().map(|n| settings.depth = n).is_ok(),
                _ => return self.info_string("bench takes at most hash, threads and depth"),
            };
            if !set {
                return self.info_string(&format!("bench takes numbers (hash, threads, depth), not '{text}'"));
            }
        }
        self.stop();
        let out = self.out.clone();
        match bench(&settings, &mut |line| out.line(&line)) {
            Ok(result) => result.lines().iter().for_each(|l| self.out.line(l)),
            Err(e) => self.info_string(&format!("bench: {e}")),
        }
    }

    /// `VariantPath`: loads the variants of a file (Fairy-Stockfish's INI
    /// format), or of several joined by the system's path separator (`:`,
    /// `;` on Windows) as Fairy-Stockfish reads them, which `UCI_Variant`
    /// then takes. Each mistake of a bad file is an `info string` with its
    /// line, and nothing of that file loads.
    fn load_variants(&mut self, paths: &str) -> Result<(), String> {
        if paths.is_empty() || paths == "<empty>" {
            return Ok(());
        }
        let mut failed = Vec::new();
        for path in std::env::split_paths(paths) {
            let shown = path.display().to_string();
            match variants::load_file(&path) {
                Ok(names) => self.info_string(&format!("variants loaded from {shown}: {}", names.join(", "))),
                Err(errors) => {
                    errors.iter().for_each(|e| self.info_string(e));
                    failed.push(shown);
                }
            }
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: nothing loaded", failed.join(", ")))
        }
    }

    /// Sets `UCI_Variant` (under `UCI_Chess960`, chess is Chess960) and
    /// starts from its start position.
    fn select_variant(&mut self, name: &str) -> Result<(), String> {
        let own_name =
            variants::own_name(name).ok_or_else(|| protean_rules::UnknownVariant(name.to_string()).to_string())?;
        let own = if self.chess960 && own_name == "standard" { "chess960" } else { own_name.as_str() };
        let rules = AnyRules::by_name(own).map_err(|e| e.to_string())?;
        self.variant = own_name;
        self.engine.set_position(rules.start());
        self.given = (vec!["startpos".into()], Vec::new());
        self.rules = rules;
        let variant = self.rules.variant();
        let g = variant.geometry;
        if variant.name != "standard" {
            self.info_string(&format!(
                "variant {} files {} ranks {} pocket 0 template fairy startpos {}",
                variants::uci_name(&variant.name),
                g.width(),
                g.height(),
                variant.start_fen
            ));
        }
        Ok(())
    }

    /// The variant file's weights and network for the variant just chosen,
    /// where the user gave none (see `follow_variant_eval_files`).
    fn follow_variant_eval_files(&mut self, options: &mut protean_search::Options) {
        for line in follow_variant_eval_files(&self.rules, self.given_eval_files, options) {
            self.info_string(&line);
        }
    }

    /// `position startpos|fen F [moves M...]`: the whole line is checked
    /// first, and on any error the previous position stays.
    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
        let (base, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
        match self.parse_position(base, moves) {
            Ok(pos) => {
                self.stop();
                self.engine.set_position(pos);
                let words = |w: &[&str]| w.iter().map(|t| t.to_string()).collect();
                self.given = (words(base), words(moves));
            }
            Err(e) => self.info_string(&format!("{e}; position unchanged")),
        }
    }

    /// The position of `position BASE moves MOVES`, BASE being `startpos`
    /// or `fen ...`.
    fn parse_position(&self, words: &[&str], moves: &[&str]) -> Result<AnyPosition, String> {
        let (given_words, played) = &self.given;
        let extends = given_words.iter().eq(words)
            && played.len() <= moves.len()
            && played.iter().zip(moves).all(|(a, b)| a == b);
        let (mut pos, from) = if extends {
            // The same game with moves added: only those are played (a long
            // Beyond Chess game takes milliseconds to replay, and that time
            // is on the engine's clock but not in its budget).
            (self.engine.position().clone(), played.len())
        } else {
            let pos = match words {
                ["startpos"] => self.rules.start(),
                ["startpos", extra, ..] => return Err(format!("unexpected '{extra}' after startpos")),
                ["fen", fen @ ..] => self.rules.from_fen(&fen.join(" ")).map_err(|e| e.to_string())?,
                [other, ..] => return Err(format!("position takes 'startpos' or 'fen', not '{other}'")),
                [] => return Err("position needs 'startpos' or 'fen'".into()),
            };
            (pos, 0)
        };
        for (i, m) in moves.iter().enumerate().skip(from) {
            pos.play(m).map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
        }
        Ok(pos)
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.perft(args.get(1).copied());
        }
        let limits = match parse_go(args, self.engine.position()) {
            Ok(l) => l,
            Err(e) => {
                // Every `go` gets a `bestmove`, as from Stockfish: a GUI
                // waiting for one would lose on time. A one-ply search
                // gives a legal move at once.
                self.info_string(&format!("{e}; searching one ply"));
                Limits { depth: Some(1), ..Limits::default() }
            }
        };
        self.stop();
        let (out, show_wdl) = (self.out.clone(), self.show_wdl);
        let reported = Arc::new(AtomicBool::new(false));
        let info_reported = reported.clone();
        let info = move |root: &AnyPosition, r: &protean_search::Report| {
            info_reported.store(true, Ordering::Relaxed);
            let mut score = match r.score {
                Score::Centipawns(cp) => format!("cp {cp}"),
                Score::Mate(m) => format!("mate {m}"),
            };
            if show_wdl {
                let [w, d, l] = r.score.wdl();
                score += &format!(" wdl {w} {d} {l}");
            }
            out.line(&format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                r.depth,
                r.seldepth,
                r.multi_pv,
                score,
                r.nodes,
                r.nps,
                r.hashfull,
                r.time.as_millis(),
                root.line_text(&r.pv).join(" ")
            ));
        };
        let out = self.out.clone();
        let best_move = move |root: &AnyPosition, outcome: &protean_search::Outcome| {
            let best = outcome.best.map(|m| root.move_text(m));
            if !reported.load(Ordering::Relaxed) {
                // Stopped before a first iteration finished (`go nodes
                // 1`): GUIs still expect an `info` before `bestmove`.
                let pv = best.as_ref().map_or(String::new(), |m| format!(" pv {m}"));
                out.line(&format!("info depth 0 nodes {} time {}{pv}", outcome.nodes, outcome.time.as_millis()));
            }
            let ponder = outcome.best.zip(outcome.ponder).map(|(b, p)| root.reply_text(b, p));
            match (best, ponder) {
                (Some(best), Some(ponder)) => out.line(&format!("bestmove {best} ponder {ponder}")),
                (Some(best), None) => out.line(&format!("bestmove {best}")),
                // No legal move: UCI's convention for "none".
                (None, _) => out.line("bestmove (none)"),
            }
            AfterMove::Done
        };
        self.engine.go(limits, Listener { info: Box::new(info), best_move: Box::new(best_move) });
    }

    fn perft(&mut self, depth: Option<&str>) {
        let depth = match crate::perft_depth(depth) {
            Ok(d) => d,
            Err(e) => return self.info_string(&format!("go {e}")),
        };
        self.stop();
        let total_lines = |total| vec![String::new(), format!("Nodes searched: {total}")];
        self.perft.start(
            self.out.clone(),
            self.engine.position().clone(),
            depth,
            total_lines,
            "info string perft stopped",
        );
    }

    fn display(&self) {
        let position = self.engine.position();
        let fen = position.fen();
        let variant = position.variant();
        let g = variant.geometry;
        let placement =
            fen::parse_placement(variant, fen.split(' ').next().unwrap_or("")).expect("a position's own FEN parses");
        let mut cells = vec![' '; g.cells()];
        for cell in placement.rifts {
            cells[cell] = '*';
        }
        for (cell, piece) in placement.pieces {
            let letter = variant.pieces[piece.kind()].letter;
            cells[cell] = if piece.color() == Color::White { letter } else { letter.to_ascii_lowercase() };
        }
        let border = format!(" +{}", "---+".repeat(g.width()));
        self.out.line("");
        self.out.line(&border);
        for rank in (0..g.height()).rev() {
            let row: String = (0..g.width()).map(|file| format!(" {} |", cells[g.cell(file, rank)])).collect();
            self.out.line(&format!(" |{row} {}", rank + 1));
            self.out.line(&border);
        }
        let files: String = (0..g.width()).map(|f| format!("   {}", (b'a' + f as u8) as char)).collect();
        self.out.line(&files);
        self.out.line("");
        self.out.line(&format!("Fen: {fen}"));
    }

    /// Ends a running search (its `bestmove` is still printed) or perft.
    /// Also before a command that changes what a search searches: GUIs
    /// send `stop` first, but a command that comes without one stops the
    /// search rather than wait on one that may never end by itself.
    fn stop(&mut self) {
        self.engine.halt();
        self.perft.stop();
    }

    /// For tests and tools: the current position.
    pub fn position(&self) -> &AnyPosition {
        self.engine.position()
    }
}

/// Reads `go`'s parameters; an unknown word or a bad number is an error.
fn parse_go(args: &[&str], pos: &AnyPosition) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    let ms = |v: Option<&&str>, name: &str| -> Result<Duration, String> {
        // GUIs may send negative times when a clock has run out.
        let v = v.ok_or_else(|| format!("go {name} needs a number"))?;
        v.parse::<i64>()
            .map(|n| Duration::from_millis(n.max(0) as u64))
            .map_err(|_| format!("go {name}: '{v}' is not a number"))
    };
    let count = |v: Option<&&str>, name: &str| -> Result<u64, String> {
        let v = v.ok_or_else(|| format!("go {name} needs a number"))?;
        v.parse::<u64>().map_err(|_| format!("go {name}: '{v}' is not a number"))
    };
    // Depths, mates and move counts past u32 mean "no limit": they stop at
    // u32::MAX rather than wrap to a small number.
    let count32 = |v: Option<&&str>, name: &str| count(v, name).map(|n| n.min(u32::MAX as u64) as u32);
    while i < args.len() {
        let next = args.get(i + 1);
        match args[i] {
            "wtime" => limits.time[0] = Some(ms(next, "wtime")?),
            "btime" => limits.time[1] = Some(ms(next, "btime")?),
            "winc" => limits.increment[0] = ms(next, "winc")?,
            "binc" => limits.increment[1] = ms(next, "binc")?,
            "movestogo" => limits.moves_to_go = Some(count32(next, "movestogo")?),
            "depth" => limits.depth = Some(count32(next, "depth")?),
            "nodes" => limits.nodes = Some(count(next, "nodes")?),
            "mate" => limits.mate = Some(count32(next, "mate")?),
            "movetime" => limits.movetime = Some(ms(next, "movetime")?),
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                let mut p = pos.clone();
                for m in &args[i + 1..] {
                    let legal = p.parse_move(m).map_err(|_| format!("searchmoves: '{m}' is not a legal move here"))?;
                    limits.search_moves.push(legal);
                }
                break;
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += 2;
    }
    Ok(limits)
}

/// A spin option's value: a number from `min` to `max`, or an error that
/// names the option and the range.
fn spin<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    name: &str,
    value: Option<&str>,
    min: T,
    max: T,
) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
    match v.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(format!("option '{name}' takes a number from {min} to {max}, not '{v}'")),
    }
}
