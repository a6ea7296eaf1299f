//! `protean match`: a tournament runner for every variant Protean knows,
//! with cutechess-cli's option names, and Protean's rules as the referee
//! (cutechess-cli refuses variants it does not know).
//!
//!     protean match -engine cmd=protean name=A -engine cmd=stockfish name=B \
//!         -each proto=uci tc=10+0.1 -variant standard -games 2 -rounds 50 -repeat \
//!         -concurrency 2 -openings file=book.epd format=epd order=random \
//!         -pgnout games.pgn -draw movenumber=40 movecount=8 score=10 \
//!         -resign movecount=3 score=600 -maxmoves 200 -recover \
//!         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -ratinginterval 10
//!
//! This file reads the options; `protean_arena::run_match` plays the
//! match. Every move is checked by the rules; an illegal move, a crash, a hang or
//! a time loss ends that game with the right result, and the match goes
//! on (with `-recover` a crashed engine is restarted; without, it forfeits
//! its remaining games).

use protean_arena::tournament::{run_match, EngineSpec, MatchConfig, Sprt};
use protean_arena::{parse_tc, read_openings, Adjudication, DrawRule, Opening, Proto, ResignRule, SearchLimit};
use protean_rules::AnyRules;

fn key_values<'a>(words: &'a [String], what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    words.iter().map(|w| w.split_once('=').ok_or_else(|| format!("{what}: '{w}' is not KEY=VALUE"))).collect()
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what}: '{text}' is not a number"))
}

fn apply_engine_setting(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), String> {
    match key {
        "cmd" => spec.cmd = value.to_string(),
        "name" => spec.name = value.to_string(),
        "proto" => {
            spec.proto = match value {
                "uci" => Proto::Uci,
                "xboard" => Proto::Xboard,
                _ => return Err(format!("proto: '{value}' is neither uci nor xboard")),
            }
        }
        "tc" => {
            spec.limit.clock = parse_tc(value)?;
            spec.tc = value.to_string();
        }
        "st" => {
            spec.limit.move_time_ms = Some((number::<f64>(value, "st")? * 1000.0) as u64);
            spec.tc = format!("{value}/move");
        }
        "depth" => spec.limit.depth = Some(number(value, "depth")?),
        "nodes" => spec.limit.nodes = Some(number(value, "nodes")?),
        k if k.starts_with("option.") => spec.options.push((k["option.".len()..].to_string(), value.to_string())),
        _ => return Err(format!("unknown engine setting '{key}'")),
    }
    Ok(())
}

fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    // Options are `-name` followed by their values up to the next option.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit()) {
            groups.push((a.trim_start_matches('-').to_string(), Vec::new()));
        } else if let Some(last) = groups.last_mut() {
            last.1.push(a.clone());
        } else {
            return Err(format!("'{a}' is not an option"));
        }
    }
    let blank = EngineSpec {
        cmd: String::new(),
        name: String::new(),
        proto: Proto::Uci,
        options: Vec::new(),
        limit: SearchLimit::default(),
        tc: "-".into(),
    };
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut cfg = MatchConfig {
        engines: [blank.clone(), blank.clone()],
        variant: "standard".into(),
        games: 1,
        repeat: false,
        concurrency: 1,
        openings: Vec::new(),
        pgnout: None,
        adjudication: Adjudication::default(),
        recover: false,
        sprt: None,
        rating_interval: 10,
        resume: None,
    };
    let (mut games, mut rounds) = (1usize, 1usize);
    let (mut opening_file, mut format, mut order, mut plies) =
        (None, "epd".to_string(), "sequential".to_string(), usize::MAX);
    let single = |name: &str, v: &[String]| -> Result<String, String> {
        match v {
            [one] => Ok(one.clone()),
            _ => Err(format!("-{name} takes one value")),
        }
    };
    for (name, values) in &groups {
        match name.as_str() {
            "engine" => {
                let mut spec = blank.clone();
                for (k, v) in key_values(values, "-engine")? {
                    apply_engine_setting(&mut spec, k, v)?;
                }
                engines.push(spec);
            }
            "each" => {
                each.extend(key_values(values, "-each")?.into_iter().map(|(k, v)| (k.to_string(), v.to_string())))
            }
            "variant" => cfg.variant = single(name, values)?,
            "games" => games = number(&single(name, values)?, "-games")?,
            "rounds" => rounds = number(&single(name, values)?, "-rounds")?,
            "repeat" => cfg.repeat = true,
            "recover" => cfg.recover = true,
            "concurrency" => cfg.concurrency = number::<usize>(&single(name, values)?, "-concurrency")?.max(1),
            "pgnout" => cfg.pgnout = Some(single(name, values)?.into()),
            "resume" => cfg.resume = Some(single(name, values)?.into()),
            "maxmoves" => cfg.adjudication.max_moves = Some(number(&single(name, values)?, "-maxmoves")?),
            "ratinginterval" => cfg.rating_interval = number(&single(name, values)?, "-ratinginterval")?,
            "openings" => {
                for (k, v) in key_values(values, "-openings")? {
                    match k {
                        "file" => opening_file = Some(v.to_string()),
                        "format" => format = v.to_string(),
                        "order" => order = v.to_string(),
                        "plies" => plies = number(v, "plies")?,
                        _ => return Err(format!("-openings: unknown setting '{k}'")),
                    }
                }
            }
            "draw" => {
                let mut d = DrawRule { move_number: 0, move_count: 1, score: 0 };
                for (k, v) in key_values(values, "-draw")? {
                    match k {
                        "movenumber" => d.move_number = number(v, k)?,
                        "movecount" => d.move_count = number(v, k)?,
                        "score" => d.score = number(v, k)?,
                        _ => return Err(format!("-draw: unknown setting '{k}'")),
                    }
                }
                cfg.adjudication.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignRule { move_count: 1, score: 1000, two_sided: false };
                for (k, v) in key_values(values, "-resign")? {
                    match k {
                        "movecount" => r.move_count = number(v, k)?,
                        "score" => r.score = number(v, k)?,
                        "twosided" => r.two_sided = v == "true",
                        _ => return Err(format!("-resign: unknown setting '{k}'")),
                    }
                }
                cfg.adjudication.resign = Some(r);
            }
            "sprt" => {
                let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
                for (k, v) in key_values(values, "-sprt")? {
                    match k {
                        "elo0" => s.elo0 = number(v, k)?,
                        "elo1" => s.elo1 = number(v, k)?,
                        "alpha" => s.alpha = number(v, k)?,
                        "beta" => s.beta = number(v, k)?,
                        _ => return Err(format!("-sprt: unknown setting '{k}'")),
                    }
                }
                cfg.sprt = Some(s);
            }
            _ => return Err(format!("unknown option -{name}")),
        }
    }
    if engines.len() != 2 {
        return Err(format!("a match needs two -engine options, not {}", engines.len()));
    }
    for (i, spec) in engines.iter_mut().enumerate() {
        for (k, v) in &each {
            apply_engine_setting(spec, k, v)?;
        }
        if spec.cmd.is_empty() {
            return Err("every engine needs cmd=".into());
        }
        if spec.name.is_empty() {
            spec.name =
                format!("{}{}", spec.cmd.rsplit('/').next().unwrap_or("engine"), if i == 1 { "-2" } else { "" });
        }
        if spec.limit == SearchLimit::default() {
            return Err(format!("{}: no tc, st, depth or nodes", spec.name));
        }
    }
    cfg.engines = [engines[0].clone(), engines[1].clone()];
    let rules = AnyRules::by_name(&cfg.variant).map_err(|e| e.to_string())?;
    cfg.variant = rules.variant().name.clone();
    cfg.games = games * rounds;
    if let Some(file) = opening_file {
        cfg.openings = read_openings(&rules, &file, &format, plies)?;
    } else if let Some(starts) = rules.variant().start_positions {
        // Chess960 without a book: its start positions in random order,
        // as cutechess-cli plays them (a repeated pair shares one).
        cfg.openings = (0..starts.count()).map(|n| Opening { fen: Some(starts.fen(n)), moves: Vec::new() }).collect();
        order = "random".into();
    }
    if !cfg.openings.is_empty() {
        if order == "random" {
            shuffle(&mut cfg.openings);
        } else if order != "sequential" {
            return Err(format!("-openings: order '{order}' is neither random nor sequential"));
        }
    }
    Ok(cfg)
}

/// A shuffle seeded from the clock: each run plays the book in a new order.
fn shuffle<T>(items: &mut [T]) {
    let mut random = protean_search::skill::Random::from_clock();
    for i in (1..items.len()).rev() {
        items.swap(i, random.below(i as u64 + 1) as usize);
    }
}

/// What `protean match -help` prints.
fn usage() -> String {
    USAGE.replace("VARIANTS", &protean_rules::variants::described())
}

const USAGE: &str = "usage: protean match -engine OPTIONS -engine OPTIONS [-each OPTIONS] [options]

engine options (after -engine, or -each for both):
  cmd=COMMAND name=NAME proto=uci|xboard option.NAME=VALUE
  tc=[MOVES/]SECONDS[+INCREMENT] | tc=inf   st=SECONDS   depth=N   nodes=N
match options:
  -variant NAME             VARIANTS
  -games N -rounds N        N x M games, colours alternating
  -repeat                   each opening twice, colours swapped
  -concurrency N            games at once
  -openings file=F format=epd|pgn order=random|sequential plies=N
  -pgnout FILE              (appended to with -resume)
  -resume FILE              count the games of FILE, an earlier -pgnout of
                            this match, and play on after them
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N               draw at that move number
  -recover                  restart an engine that crashed
  -sprt elo0=E elo1=E alpha=A beta=B   (pentanomial, on game pairs)
  -ratinginterval N
  -help";

pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| matches!(a.as_str(), "-help" | "--help" | "-h")) {
        println!("{}", usage());
        return Ok(());
    }
    run_match(parse_args(args)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_match_to_resume_is_read() {
        assert!(parse_args(&args("-engine cmd=a -engine cmd=b -each tc=1 -resume old.pgn")).unwrap().resume.is_some());
    }

    #[test]
    fn cutechess_options_are_read() {
        let cfg = parse_args(&args("-engine cmd=a name=A option.Hash=16 -engine cmd=b proto=xboard st=0.5 -each tc=40/60+0.6 -variant perfect -games 2 -rounds 3 -repeat -concurrency 2 -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true -maxmoves 100 -recover -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 -ratinginterval 5")).unwrap();
        assert_eq!(cfg.games, 6);
        assert_eq!(cfg.variant, "perfect");
        assert_eq!(cfg.engines[0].options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(cfg.engines[1].proto, Proto::Xboard);
        assert_eq!(cfg.engines[0].limit.clock, Some((40, 60_000, 600)));
        assert_eq!(cfg.engines[1].limit.move_time_ms, Some(500));
        assert!(
            cfg.repeat
                && cfg.recover
                && cfg.concurrency == 2
                && cfg.adjudication.max_moves == Some(100)
                && cfg.rating_interval == 5
        );
        assert!(cfg.adjudication.draw.is_some_and(|d| d.move_number == 40 && d.move_count == 8 && d.score == 10));
        assert!(cfg.adjudication.resign.is_some_and(|r| r.two_sided && r.score == 600));
        assert!(cfg.sprt.is_some_and(|s| s.elo1 == 10.0 && s.beta == 0.1));
    }

    #[test]
    fn bad_options_are_named() {
        for (line, complaint) in [
            ("-engine cmd=a tc=1", "two -engine"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -variant chess961", "unknown variant"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=x", "tc"),
            ("-engine cmd=a -engine cmd=b", "no tc"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate", "unknown option"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 proto=cecp", "proto"),
        ] {
            let e = parse_args(&args(line)).unwrap_err();
            assert!(e.contains(complaint), "{line}: {e}");
        }
    }
}
