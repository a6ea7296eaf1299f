//! The steps of a learning run are `protean` subcommands (`datagen`,
//! `tune`, `train-network`, `match`), each run as a child process of the
//! same binary with its output in a log: each keeps its own checks and
//! messages, and a step killed at the deadline loses only itself. A step
//! ends when the run does, however it ends: a step left running would go
//! on writing the files that the run, started again, writes afresh.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How often running children are looked at.
pub const POLL: Duration = Duration::from_millis(200);

/// One `protean` subcommand, its output (standard output and error) going
/// to `log`.
pub struct Step {
    pub child: Child,
    pub log: PathBuf,
}

impl Step {
    /// Starts `protean [--variants FILE ...] ARGS`.
    pub fn start(protean: &Path, variant_files: &[PathBuf], args: &[String], log: &Path) -> Result<Step, String> {
        let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| format!("{}: {e}", log.display()))?;
        let mut command = Command::new(protean);
        end_with_this_process(&mut command);
        for file in variant_files {
            command.arg("--variants").arg(file);
        }
        let child = command
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("{}: {e}", protean.display()))?;
        Ok(Step { child, log: log.to_path_buf() })
    }

    /// `Some(true)` once it ended well, `Some(false)` once it failed.
    pub fn finished(&mut self) -> Result<Option<bool>, String> {
        let status = self.child.try_wait().map_err(|e| e.to_string())?;
        Ok(status.map(|s| s.success()))
    }

    /// Ends it now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for it to end, killing it at `deadline`, calling `tick` with
    /// its log every `every`; whether it ended well (a step killed did
    /// not).
    pub fn wait(
        mut self,
        deadline: Option<Instant>,
        every: Duration,
        mut tick: impl FnMut(&Path),
    ) -> Result<bool, String> {
        let mut last_tick = Instant::now();
        loop {
            if let Some(ok) = self.finished()? {
                return Ok(ok);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                self.kill();
                return Ok(false);
            }
            if last_tick.elapsed() >= every {
                tick(&self.log);
                last_tick = Instant::now();
            }
            std::thread::sleep(POLL);
        }
    }

    /// A log's text (empty where it cannot be read: a step not started).
    pub fn read_log(log: &Path) -> String {
        std::fs::read_to_string(log).unwrap_or_default()
    }

    /// The last line of `text` (a log's) starting with `prefix`.
    pub fn last_line(text: &str, prefix: &str) -> Option<String> {
        text.lines().rev().find(|l| l.starts_with(prefix)).map(str::to_string)
    }

    /// The log's last lines, for an error message.
    pub fn tail(log: &Path) -> String {
        let text = Step::read_log(log);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(3)..].join(" / ")
    }
}

/// Has the child killed when this process ends, even by a signal it cannot
/// catch (Linux's parent-death signal, sent when the thread that started
/// the step ends: a run starts every step from its one thread). The
/// engines a step starts end in turn when their input closes.
#[cfg(target_os = "linux")]
fn end_with_this_process(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: between fork and exec the closure makes only async-signal-safe
    // system calls and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // This process may have ended before the signal was asked for.
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn end_with_this_process(_: &mut Command) {}
