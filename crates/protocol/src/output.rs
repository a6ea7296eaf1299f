//! Where a protocol writes: one line at a time, from the command loop and
//! the search thread alike, flushed at once (GUIs read line by line).

use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// An in-memory output and a handle to read what was written (tests).
    pub fn capture() -> (Output, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        (Output::new(Shared(buffer.clone())), buffer)
    }

    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed pipe means the GUI has gone; nothing useful to do.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
