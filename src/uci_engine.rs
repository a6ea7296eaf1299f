//! A UCI engine in a child process, as a referee drives it: every read
//! has a deadline, so an engine that hangs or dies is noticed instead of
//! stalling the caller.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciEngine {
    /// Starts `command` (split on whitespace) and completes the UCI
    /// handshake, then sets each option.
    pub fn start(command: &str, options: &[(&str, &str)]) -> Result<UciEngine, String> {
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
        let mut engine = UciEngine { child, stdin, lines };
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(10))?;
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(10))?;
        Ok(engine)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("engine gone: {e}"))
    }

    /// The first line starting with `prefix` within `timeout`.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(format!("no '{prefix}' within {} ms", timeout.as_millis())),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// Searches `fen` on the given clocks (ms) and returns the move and
    /// the time it took; `Err` if it answered nothing in time.
    pub fn best_move(&mut self, fen: &str, clocks: [u64; 2], increment_ms: u64) -> Result<(String, Duration), String> {
        let start = Instant::now();
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go wtime {} btime {} winc {increment_ms} binc {increment_ms}", clocks[0], clocks[1]))?;
        // The mover's clock plus a grace second: beyond that it has lost anyway.
        let mover = usize::from(fen.split_whitespace().nth(1) == Some("b"));
        let line = self.wait_for("bestmove", Duration::from_millis(clocks[mover] + 1000))?;
        let mv = line.split_whitespace().nth(1).ok_or("bestmove without a move")?.to_string();
        Ok((mv, start.elapsed()))
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
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
