//! `protean perplexichess`: a Perplexichess team game (RULINGS.md,
//! Perplexichess 1-6) between boardman engines and grand strategists.
//! This file reads the arguments and standard input's transfer lines;
//! `protean_arena::team_game` plays the game.

use clap::Args;
use protean_arena::team_game::{self, TeamGame};
use protean_arena::{parse_tc, Lookahead, TimeControl};
use protean_rules::team::BOARD_COUNTS;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::mpsc;

#[derive(Args)]
pub struct PerplexichessArgs {
    /// Boards: 3 (small game), 5 (medium) or 7 (large).
    #[arg(long, default_value_t = 3)]
    boards: usize,
    /// White's boardman engine command (default: this Protean).
    #[arg(long)]
    white: Option<String>,
    /// Black's boardman engine command (default: this Protean).
    #[arg(long)]
    black: Option<String>,
    /// Each board's clock per side: seconds, and `+increment` seconds.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Seconds for the whole game; then an unfinished board goes to the
    /// side with more pieces on it (equal: drawn).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Where to write one PGN game per board.
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// Read transfers from standard input (`transfer white 1 d4 3`).
    #[arg(long)]
    stdin_transfers: bool,
    /// Turn off Protean's strategists (only standard input transfers).
    #[arg(long)]
    no_strategists: bool,
    /// How White's strategist looks: `search` (every transfer screened by
    /// a one-ply search of both boards, the few best searched again, both
    /// boards, 20,000 nodes each; it won more team games and boards) or
    /// `one-ply` (the screen alone).
    #[arg(long, value_enum, default_value_t = LookaheadArg::Search)]
    white_strategist: LookaheadArg,
    /// How Black's strategist looks (as `--white-strategist`).
    #[arg(long, value_enum, default_value_t = LookaheadArg::Search)]
    black_strategist: LookaheadArg,
    /// Plies after which a board still going is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
}

/// How a strategist looks, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LookaheadArg {
    /// Every transfer judged by a one-ply search of both boards.
    OnePly,
    /// The best few of those judged again by a search of both boards.
    Search,
}

impl From<LookaheadArg> for Lookahead {
    fn from(arg: LookaheadArg) -> Lookahead {
        match arg {
            LookaheadArg::OnePly => Lookahead::OnePly,
            LookaheadArg::Search => Lookahead::Search,
        }
    }
}

pub fn run(args: &PerplexichessArgs) -> Result<(), String> {
    if !BOARD_COUNTS.contains(&args.boards) {
        return Err(format!("--boards is 3, 5 or 7, not {}", args.boards));
    }
    let clock = match parse_tc(&args.tc)? {
        Some(tc @ (0, _, _)) => TimeControl::from_ms(tc),
        _ => return Err(format!("--tc '{}': give seconds and an increment, like 10+0.1", args.tc)),
    };
    let me = std::env::current_exe().map_err(|e| e.to_string())?.to_string_lossy().to_string();
    let settings = TeamGame {
        boards: args.boards,
        commands: [args.white.clone().unwrap_or_else(|| me.clone()), args.black.clone().unwrap_or(me)],
        clock,
        time_limit: args.time_limit,
        pgnout: args.pgnout.clone(),
        strategists: (!args.no_strategists).then(|| [args.white_strategist.into(), args.black_strategist.into()]),
        max_plies: args.max_plies,
    };
    team_game::play(&settings, spawn_stdin_reader(args.stdin_transfers))
}

/// Lines from standard input, if asked for, on a channel.
fn spawn_stdin_reader(enabled: bool) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if enabled {
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines().map_while(Result::ok) {
                if !line.trim().is_empty() && tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    rx
}
