//! The `protean` command: the engine (no subcommand: a UCI or XBoard
//! session on standard input) and its tools.

mod bench_command;
mod check_command;
mod datagen_command;
mod epd_command;
mod learn_command;
mod match_command;
mod perft_command;
mod perplexichess_command;
mod rescore_command;
#[cfg(feature = "serve")]
mod serve;
mod train_network_command;
mod tune_command;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "protean",
    version,
    about = "A chess-variant engine: run without arguments for a UCI or XBoard session"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Load the variants of this file (Fairy-Stockfish's INI format) before
    /// anything else; may be given more than once.
    #[arg(long, global = true, value_name = "FILE")]
    variants: Vec<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (Stockfish's `go perft` output).
    Perft(perft_command::PerftArgs),
    /// Fixed-depth searches over positions of every variant; the node count is the search's signature.
    Bench(bench_command::BenchArgs),
    /// Solve an EPD test suite (`bm`/`am` operations) and report the score.
    Epd(epd_command::EpdArgs),
    /// A match between two engines in any variant, refereed by Protean's rules (cutechess-cli's options).
    #[command(disable_help_flag = true)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// A Perplexichess team game: Flexichess boards at once, grand strategists transferring pieces.
    Perplexichess(perplexichess_command::PerplexichessArgs),
    /// Self-play games that write quiet positions with the game's result and the search's score (`FEN [1.0] 37` a line), for tuning.
    Datagen(datagen_command::DatagenArgs),
    /// Score datagen's positions afresh by another engine (a reference such as Fairy-Stockfish) at a node limit.
    Rescore(rescore_command::RescoreArgs),
    /// Fit a variant's evaluation weights to datagen's game results (Texel's method) and write them as a weights file.
    Tune(tune_command::TuneArgs),
    /// Train a variant's evaluation network on datagen's positions (results and scores) and write it.
    TrainNetwork(train_network_command::TrainNetworkArgs),
    /// Learn a variant: book, self-play, fitted weights and a network, gated by SPRT against the defaults, within --minutes.
    Learn(learn_command::LearnArgs),
    /// Read a variant file (Fairy-Stockfish's INI format): each variant as Protean plays it, with perft, or every mistake with its line.
    Check(check_command::CheckArgs),
    #[cfg(feature = "serve")]
    /// Every game in a browser: a web server with the page, against the engine or another person.
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    for path in &cli.variants {
        if let Err(errors) = protean_rules::variants::load_file(path) {
            errors.iter().for_each(|e| eprintln!("error: {e}"));
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        None => {
            protean_protocol::run_stdio();
            Ok(())
        }
        Some(Command::Perft(args)) => perft_command::run(&args),
        Some(Command::Bench(args)) => bench_command::run(&args),
        Some(Command::Epd(args)) => epd_command::run(&args),
        Some(Command::Perplexichess(args)) => perplexichess_command::run(&args),
        Some(Command::Match { args }) => match_command::run(&args),
        Some(Command::Datagen(args)) => datagen_command::run(&args),
        Some(Command::Rescore(args)) => rescore_command::run(&args, &cli.variants),
        Some(Command::Tune(args)) => tune_command::run(&args),
        Some(Command::TrainNetwork(args)) => train_network_command::run(&args),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Check(args)) => check_command::run(&args),
        Some(Command::Learn(args)) => learn_command::run(&args, &cli.variants),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// The help of every command that takes a variant names all of them
    /// (the list is written out in the doc comments: this keeps it true).
    #[test]
    fn help_names_every_variant() {
        let mut cli = Cli::command();
        for command in ["perft", "epd"] {
            let help = cli.find_subcommand_mut(command).expect(command).render_long_help().to_string();
            for name in protean_rules::variants::VARIANTS {
                assert!(help.contains(name.name), "{command} --help lacks {}", name.name);
                for alias in name.aliases {
                    assert!(help.contains(alias), "{command} --help lacks {alias}");
                }
            }
        }
    }
}
