//! The search threads: started once (and again only when `Threads`
//! changes), each waiting for jobs and keeping its own [`ThreadData`]
//! between them. A search is a job on the first thread, which hands a
//! helper job to each of the others (Lazy SMP, see `deepening`).

use crate::thread_data::ThreadData;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Work for one thread, run with that thread's data.
pub(crate) type Job = Box<dyn FnOnce(&mut ThreadData) + Send>;

/// Deep trees recurse once per ply, with a few hundred bytes a frame.
const STACK_BYTES: usize = 16 << 20;

struct SearchThread {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

pub(crate) struct ThreadPool {
    threads: Vec<SearchThread>,
}

impl ThreadPool {
    /// Starts `count` threads and returns once each has its data.
    pub fn new(count: usize) -> ThreadPool {
        let ready = Arc::new(Countdown::new(count.max(1)));
        let threads = (0..count.max(1))
            .map(|id| {
                let (jobs, inbox) = channel::<Job>();
                let ready = ready.clone();
                let handle = std::thread::Builder::new()
                    .name(format!("search {id}"))
                    .stack_size(STACK_BYTES)
                    .spawn(move || {
                        let mut data = ThreadData::new();
                        ready.count_down();
                        // Ends when the pool drops its sender. A job that
                        // panics (a bug) is reported by the panic hook and
                        // costs the thread nothing but that job.
                        while let Ok(job) = inbox.recv() {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut data)));
                        }
                    })
                    .expect("start a search thread");
                SearchThread { jobs, handle }
            })
            .collect();
        ready.wait();
        ThreadPool { threads }
    }

    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Where to send the jobs of each thread, the main thread first.
    pub fn senders(&self) -> Vec<Sender<Job>> {
        self.threads.iter().map(|t| t.jobs.clone()).collect()
    }

    /// Runs `job` on the main thread.
    pub fn run_main(&self, job: Job) {
        self.threads[0].jobs.send(job).expect("the main search thread is alive");
    }

    /// Runs `f` on every thread's data and waits until all are done.
    pub fn for_each_data(&self, f: impl Fn(&mut ThreadData) + Send + Sync + 'static) {
        let f = Arc::new(f);
        let done = Arc::new(Countdown::new(self.threads.len()));
        for t in &self.threads {
            let (f, done) = (f.clone(), done.clone());
            t.jobs
                .send(Box::new(move |data| {
                    let _done = CountedDown(&done);
                    f(data);
                }))
                .expect("search threads are alive");
        }
        done.wait();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for t in self.threads.drain(..) {
            drop(t.jobs);
            let _ = t.handle.join();
        }
    }
}

/// Waits for a number of jobs to finish.
pub(crate) struct Countdown {
    left: Mutex<usize>,
    zero: Condvar,
}

impl Countdown {
    pub fn new(n: usize) -> Countdown {
        Countdown { left: Mutex::new(n), zero: Condvar::new() }
    }
    pub fn count_down(&self) {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        *left = left.saturating_sub(1);
        if *left == 0 {
            self.zero.notify_all();
        }
    }
    pub fn is_done(&self) -> bool {
        *self.left.lock().unwrap_or_else(|e| e.into_inner()) == 0
    }
    pub fn wait(&self) {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        while *left > 0 {
            left = self.zero.wait(left).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Counts a job down when it ends, even by a panic, so that nobody waits
/// for ever on a job that failed.
pub(crate) struct CountedDown<'a>(pub &'a Countdown);

impl Drop for CountedDown<'_> {
    fn drop(&mut self) {
        self.0.count_down();
    }
}
