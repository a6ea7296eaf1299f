//! A protocol session for transcript tests: lines in, captured output out.

use protean_protocol::{Output, Protocol};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Session<P> {
    pub engine: P,
    out: Arc<Mutex<Vec<u8>>>,
}

impl<P: Protocol> Session<P> {
    pub fn new(make: impl FnOnce(Output) -> P) -> Session<P> {
        let (output, out) = Output::capture();
        Session { engine: make(output), out }
    }
    pub fn send(&mut self, line: &str) {
        self.engine.handle(line);
    }
    pub fn text(&self) -> String {
        String::from_utf8(self.out.lock().unwrap().clone()).unwrap()
    }
    /// Everything written so far, cleared.
    pub fn take(&self) -> String {
        let mut buffer = self.out.lock().unwrap();
        let text = String::from_utf8(buffer.clone()).unwrap();
        buffer.clear();
        text
    }
    /// The first line starting with `prefix`, waiting up to `timeout`.
    pub fn wait_for(&self, prefix: &str, timeout: Duration) -> String {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Some(line) = self.text().lines().find(|l| l.starts_with(prefix)) {
                return line.to_string();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no '{prefix}' within {timeout:?}; got:\n{}", self.text());
    }
}
