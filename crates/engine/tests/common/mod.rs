//! Drives the real `engram` binary over stdin/stdout.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts the engine.
    pub fn start() -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_engram")))
    }

    /// Starts the engine with `cmd`, which runs the engine binary (say, through a shell
    /// that sets limits first); stdin and stdout are piped, stderr dropped.
    pub fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engram starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command line.
    pub fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").expect("engine reads stdin");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `pred` (returned) or `timeout` passes (panics).
    pub fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out after {timeout:?}; log:\n{}", self.log.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine exited; log:\n{}", self.log.join("\n"))
                }
            }
        }
    }

    /// Reads the `bestmove` line of the current search.
    pub fn bestmove(&mut self, timeout: Duration) -> String {
        self.wait_for(timeout, |l| l.starts_with("bestmove"))
    }

    /// The lines received within `dur`, without waiting for anything in particular.
    pub fn drain(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut out = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.log.push(line.clone());
            out.push(line);
        }
        out
    }

    /// `isready` → `readyok`, within `timeout`.
    pub fn sync(&mut self, timeout: Duration) {
        self.send("isready");
        self.wait_for(timeout, |l| l == "readyok");
    }

    /// Sends `quit` and waits for the process to exit; returns how long it took.
    pub fn quit(self) -> Duration {
        self.quit_within(Duration::from_secs(5))
    }

    /// Sends `quit` and waits up to `limit` for the process to exit successfully.
    pub fn quit_within(mut self, limit: Duration) -> Duration {
        let start = Instant::now();
        self.send("quit");
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return start.elapsed();
            }
            assert!(start.elapsed() < limit, "engine did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line.
pub fn best(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

/// A directory of its own under the system's temporary directory, removed with everything in
/// it when dropped, also when the test fails.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// Creates `engram-{tag}-{pid}`; the tag keeps tests of one process apart.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("engram-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A path inside the directory.
    pub fn join(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
