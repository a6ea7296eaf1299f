//! An engine in a child process, driven over UCI or XBoard the way a
//! referee drives it: every read has a deadline, so an engine that hangs,
//! dies or answers nonsense is noticed and named instead of stalling the
//! caller. Used by `protean match` and `protean perplexichess`.

use protean_rules::variants;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

/// How long an engine may think, as cutechess-cli's `tc`, `st`, `depth`
/// and `nodes` say it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchLimit {
    /// Moves per period (0: the whole game), base and increment in ms.
    pub clock: Option<(u32, u64, u64)>,
    pub move_time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// A time control as cutechess-cli writes it: `40/60+0.6` (moves per
/// period, seconds, increment), `60+0.6`, `1:30+1`, or `inf` (`None`).
/// Returns (moves per period or 0, base ms, increment ms).
pub fn parse_tc(text: &str) -> Result<Option<(u32, u64, u64)>, String> {
    let number =
        |t: &str| -> Result<f64, String> { t.parse().map_err(|_| format!("tc: '{text}' is not a time control")) };
    if text == "inf" {
        return Ok(None);
    }
    let (per, rest) = match text.split_once('/') {
        Some((p, r)) => (number(p)? as u32, r),
        None => (0, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let ms = |t: &str| -> Result<u64, String> {
        // Minutes may be given as m:ss.
        let secs = match t.split_once(':') {
            Some((m, s)) => number(m)? * 60.0 + number(s)?,
            None => number(t)?,
        };
        if secs < 0.0 {
            Err(format!("tc: '{text}' is negative"))
        } else {
            Ok((secs * 1000.0) as u64)
        }
    };
    let base = ms(base)?;
    if base == 0 {
        return Err(format!("tc: '{text}' gives no time"));
    }
    Ok(Some((per, base, ms(inc)?)))
}

/// What an engine answered: its move, its last score (centipawns, from
/// its own side), and how long it took.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: String,
    pub score: Option<i32>,
    pub elapsed: Duration,
}

/// Why an engine gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Nothing in time (a hang, or far past its clock).
    Stalled,
    /// The process ended or its pipe broke.
    Crashed,
    /// It answered something that is not a move line.
    Garbled(String),
}

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    proto: Proto,
    /// XBoard features: the engine wants `usermove`, and takes `setboard`.
    usermove: bool,
    /// The name the engine gives itself.
    pub id_name: Option<String>,
}

/// How long the handshake and `isready` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl EngineProcess {
    /// Starts `command` (split on whitespace), completes the handshake and
    /// sets each option (UCI `setoption`; XBoard `option NAME=VALUE`).
    pub fn start(command: &str, proto: Proto, options: &[(String, String)]) -> Result<EngineProcess, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = child.stdout.take().ok_or("no engine stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProcess { child, stdin, lines, proto, usermove: false, id_name: None };
        let fail = |what: &str, f: Failure| format!("'{command}' failed the {what}: {f:?}");
        match proto {
            Proto::Uci => {
                e.send("uci").map_err(|f| fail("handshake", f))?;
                let id = e
                    .read_until(|l| l == "uciok" || l.starts_with("id name "), HANDSHAKE)
                    .map_err(|f| fail("handshake", f))?;
                if let Some(name) = id.strip_prefix("id name ") {
                    e.id_name = Some(name.to_string());
                    e.read_until(|l| l == "uciok", HANDSHAKE).map_err(|f| fail("handshake", f))?;
                }
                for (name, value) in options {
                    e.send(&format!("setoption name {name} value {value}")).map_err(|f| fail("options", f))?;
                }
            }
            Proto::Xboard => {
                e.send("xboard").and_then(|_| e.send("protover 2")).map_err(|f| fail("handshake", f))?;
                loop {
                    let line =
                        e.read_until(|l| l.starts_with("feature"), HANDSHAKE).map_err(|f| fail("handshake", f))?;
                    if line.contains("usermove=1") {
                        e.usermove = true;
                    }
                    if let Some(rest) = line.split("myname=\"").nth(1) {
                        e.id_name = rest.split('"').next().map(str::to_string);
                    }
                    if line.contains("done=1") {
                        break;
                    }
                }
                for (name, value) in options {
                    e.send(&format!("option {name}={value}")).map_err(|f| fail("options", f))?;
                }
            }
        }
        e.sync().map_err(|f| fail("handshake", f))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| Failure::Crashed)
    }

    /// Lines until one satisfies `done`, within `timeout`.
    fn read_until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Result<String, Failure> {
        let end = Instant::now() + timeout;
        loop {
            match self.lines.recv_timeout(end.saturating_duration_since(Instant::now())) {
                Ok(line) if done(line.trim()) => return Ok(line.trim().to_string()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Stalled),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    /// Waits until the engine has read everything sent so far.
    fn sync(&mut self) -> Result<(), Failure> {
        match self.proto {
            Proto::Uci => {
                self.send("isready")?;
                self.read_until(|l| l == "readyok", HANDSHAKE).map(|_| ())
            }
            Proto::Xboard => {
                self.send("ping 1")?;
                self.read_until(|l| l == "pong 1", HANDSHAKE).map(|_| ())
            }
        }
    }

    /// A new game of `variant` (Protean's name), told in the protocol's
    /// own names: nothing for standard chess; Chess960 as cutechess-cli
    /// tells it, `UCI_Chess960` over UCI and `fischerandom` over XBoard.
    pub fn new_game(&mut self, variant: &str) -> Result<(), Failure> {
        match self.proto {
            Proto::Uci => {
                let uci = variants::uci_name(variant);
                if uci == "chess960" {
                    self.send("setoption name UCI_Chess960 value true")?;
                } else if variant != "standard" {
                    self.send(&format!("setoption name UCI_Variant value {uci}"))?;
                }
                self.send("ucinewgame")?;
            }
            Proto::Xboard => {
                self.send("new")?;
                if variant != "standard" {
                    self.send(&format!("variant {}", variants::xboard_name(variant)))?;
                }
                self.send("force")?;
            }
        }
        self.sync()
    }

    /// The engine's move in the position after `moves` from `fen` (`None`:
    /// the variant's start), with `clocks` (ms, White's and Black's) left.
    pub fn think(
        &mut self,
        variant: &str,
        fen: Option<&str>,
        moves: &[String],
        white: bool,
        limit: &SearchLimit,
        clocks: [u64; 2],
    ) -> Result<Reply, Failure> {
        let (own, other) = if white { (clocks[0], clocks[1]) } else { (clocks[1], clocks[0]) };
        // Past its own clock (or the fixed limit) by this much, the engine
        // has lost anyway: stop waiting.
        let grace = Duration::from_millis(2000);
        let budget = match (limit.clock, limit.move_time_ms) {
            (Some(_), _) => Duration::from_millis(own) + grace,
            (None, Some(ms)) => Duration::from_millis(ms) + grace,
            (None, None) => Duration::from_secs(120),
        };
        let start = Instant::now();
        let mut score = None;
        match self.proto {
            Proto::Uci => {
                let position = match fen {
                    Some(f) => format!("position fen {f}"),
                    None => "position startpos".to_string(),
                };
                let tail = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
                self.send(&format!("{position}{tail}"))?;
                let mut go = String::from("go");
                if let Some((per, _, inc)) = limit.clock {
                    go += &format!(" wtime {} btime {} winc {inc} binc {inc}", clocks[0], clocks[1]);
                    if per > 0 {
                        let played = moves.len() as u32 / 2;
                        go += &format!(" movestogo {}", per - played % per);
                    }
                }
                if let Some(ms) = limit.move_time_ms {
                    go += &format!(" movetime {ms}");
                }
                if let Some(d) = limit.depth {
                    go += &format!(" depth {d}");
                }
                if let Some(n) = limit.nodes {
                    go += &format!(" nodes {n}");
                }
                self.send(&go)?;
                let end = start + budget;
                loop {
                    let line = self.read_until(|_| true, end.saturating_duration_since(Instant::now()))?;
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        let mv =
                            rest.split_whitespace().next().ok_or_else(|| Failure::Garbled(line.clone()))?.to_string();
                        return Ok(Reply { mv, score, elapsed: start.elapsed() });
                    }
                    if line.starts_with("info") {
                        score = uci_score(&line).or(score);
                    }
                }
            }
            Proto::Xboard => {
                self.send("new")?;
                if variant != "standard" {
                    self.send(&format!("variant {}", variants::xboard_name(variant)))?;
                }
                self.send("force")?;
                if let Some(f) = fen {
                    self.send(&format!("setboard {f}"))?;
                }
                for m in moves {
                    self.send(&if self.usermove { format!("usermove {m}") } else { m.clone() })?;
                }
                if let Some((per, base, inc)) = limit.clock {
                    let secs = base / 1000;
                    self.send(&format!("level {per} {}:{:02} {}", secs / 60, secs % 60, inc as f64 / 1000.0))?;
                    self.send(&format!("time {}", own / 10))?;
                    self.send(&format!("otim {}", other / 10))?;
                }
                if let Some(ms) = limit.move_time_ms {
                    self.send(&format!("st {}", (ms / 1000).max(1)))?;
                }
                if let Some(d) = limit.depth {
                    self.send(&format!("sd {d}"))?;
                }
                self.send("post")?;
                self.send("go")?;
                let end = start + budget;
                loop {
                    let line = self.read_until(|_| true, end.saturating_duration_since(Instant::now()))?;
                    if let Some(mv) = line.strip_prefix("move ") {
                        let reply = Reply { mv: mv.trim().to_string(), score, elapsed: start.elapsed() };
                        self.send("force")?;
                        return Ok(reply);
                    }
                    if line.starts_with("Illegal move") || line.starts_with("Error") {
                        return Err(Failure::Garbled(line));
                    }
                    // Thinking output: ply score time nodes pv.
                    let mut f = line.split_whitespace();
                    if f.next().is_some_and(|p| p.trim_end_matches(['.', '&']).parse::<u32>().is_ok()) {
                        score = f.next().and_then(|s| s.parse().ok()).or(score);
                    }
                }
            }
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// The score of a UCI `info` line, mates as ±(30000 - distance).
fn uci_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(30_000 - value),
        "mate" => Some(-30_000 - value),
        _ => None,
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_cutechess_writes_them() {
        assert_eq!(parse_tc("10+0.1"), Ok(Some((0, 10_000, 100))));
        assert_eq!(parse_tc("40/1:30+1"), Ok(Some((40, 90_000, 1000))));
        assert_eq!(parse_tc("inf"), Ok(None));
        assert!(parse_tc("0+1").is_err() && parse_tc("x").is_err());
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(uci_score("info depth 9 seldepth 12 score cp -35 nodes 100 pv e2e4"), Some(-35));
        assert_eq!(uci_score("info depth 9 score mate 3 pv e2e4"), Some(29_997));
        assert_eq!(uci_score("info depth 9 score mate -2 pv e2e4"), Some(-29_998));
        assert_eq!(uci_score("info string hello"), None);
    }
}
