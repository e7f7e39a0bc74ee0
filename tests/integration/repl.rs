//! The REPL on a terminal. The line editor (rustyline) reads a terminal in
//! its own way (raw mode, a read buffer of its own) and a pipe in another
//! (the standard library's buffered lines), so what the other tests check by
//! piping lines into `yose repl` says nothing about a user at a terminal.
//! These tests run `yose repl` on a pseudo-terminal, made with the C
//! library's calls (`libc` is already a dependency; no crate is needed for
//! a master, a slave and a controlling terminal), and type into it as a
//! terminal does: Enter is a carriage return, Ctrl-C the byte 3, and the
//! cursor position query the editor sends at each prompt is answered.

#![cfg(unix)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a test waits for text that should come within milliseconds.
const PATIENCE: Duration = Duration::from_secs(30);

/// The cursor position query rustyline writes before each prompt, and the
/// answer of a terminal whose cursor is at the start of a line.
const CURSOR_QUERY: &[u8] = b"\x1b[6n";
const CURSOR_AT_COLUMN_ONE: &[u8] = b"\x1b[1;1R";

/// What the REPL has written to the terminal, and whether it still can.
#[derive(Default)]
struct Screen {
    bytes: Vec<u8>,
    closed: bool,
}

/// `yose repl` running on a pseudo-terminal.
struct Terminal {
    keyboard: File,
    screen: Arc<(Mutex<Screen>, Condvar)>,
    child: Child,
    reader: Option<std::thread::JoinHandle<()>>,
    history: PathBuf,
}

impl Terminal {
    fn start(name: &str) -> Terminal {
        // Both ends close on exec, so that the children other tests start
        // meanwhile do not hold the terminal open; the REPL gets the slave
        // as its standard streams, which `Command` duplicates without the
        // flag.
        // SAFETY: plain calls on a descriptor we own, with buffers we own.
        let (master, slave_name) = unsafe {
            let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
            assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
            let master = OwnedFd::from_raw_fd(fd);
            assert_eq!(libc::grantpt(fd), 0);
            assert_eq!(libc::unlockpt(fd), 0);
            let mut buf = [0 as libc::c_char; 256];
            assert_eq!(libc::ptsname_r(fd, buf.as_mut_ptr(), buf.len()), 0);
            let size = libc::winsize {
                ws_row: 40,
                ws_col: 200,
                ws_xpixel: 0,
                ws_ypixel: 0,
            };
            assert_eq!(libc::ioctl(fd, libc::TIOCSWINSZ, &size), 0);
            let slave_name = std::ffi::CStr::from_ptr(buf.as_ptr())
                .to_str()
                .unwrap()
                .to_string();
            (master, slave_name)
        };
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&slave_name)
            .unwrap();
        let history = std::env::temp_dir().join(format!("yose-tty-{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&history);
        let mut cmd = super::yose_binary();
        cmd.arg("repl")
            .env("YOSE_HISTORY", &history)
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // The REPL leads a session of its own whose controlling terminal is
        // the slave, so that Ctrl-C typed on it is a SIGINT to the REPL, as
        // in a shell's foreground job.
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        // The slave's copies held by `cmd` must go, or the master would
        // never see the terminal closed.
        drop(cmd);
        let keyboard = File::from(master);
        let screen = Arc::new((Mutex::new(Screen::default()), Condvar::new()));
        let reader = {
            let screen = screen.clone();
            let mut display = keyboard.try_clone().unwrap();
            let mut answer = keyboard.try_clone().unwrap();
            std::thread::spawn(move || {
                let mut answered = 0;
                let mut chunk = [0u8; 4096];
                loop {
                    // EIO once the REPL has exited and the slave is closed.
                    let n = display.read(&mut chunk).unwrap_or(0);
                    let (lock, changed) = &*screen;
                    // A failed wait panics holding the lock; the screen is
                    // still good for the transcript.
                    let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
                    if n == 0 {
                        s.closed = true;
                        changed.notify_all();
                        return;
                    }
                    s.bytes.extend_from_slice(&chunk[..n]);
                    let queries = s
                        .bytes
                        .windows(CURSOR_QUERY.len())
                        .filter(|w| *w == CURSOR_QUERY)
                        .count();
                    while answered < queries {
                        answer.write_all(CURSOR_AT_COLUMN_ONE).unwrap();
                        answered += 1;
                    }
                    changed.notify_all();
                }
            })
        };
        Terminal {
            keyboard,
            screen,
            child,
            reader: Some(reader),
            history,
        }
    }

    /// Types `keys` at once, as a paste or a fast typist would.
    fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).unwrap();
    }

    /// Waits until the screen shows `text` after byte `from`; returns where
    /// it ends. Fails at once on an error message.
    fn wait_for(&self, text: &str, from: usize) -> usize {
        let deadline = Instant::now() + PATIENCE;
        let (lock, changed) = &*self.screen;
        let mut s = lock.lock().unwrap();
        loop {
            let shown = String::from_utf8_lossy(&s.bytes[from.min(s.bytes.len())..]).into_owned();
            assert!(
                !shown.contains("Error"),
                "an error while waiting for {text:?}:\n{}",
                self.transcript(&s.bytes)
            );
            if let Some(at) = shown.find(text) {
                // `shown` is lossy only where the bytes are not UTF-8,
                // which the REPL never writes.
                return from + at + text.len();
            }
            let now = Instant::now();
            assert!(
                now < deadline && !s.closed,
                "{text:?} never came:\n{}",
                self.transcript(&s.bytes)
            );
            s = changed.wait_timeout(s, deadline - now).unwrap().0;
        }
    }

    /// The screen's bytes without terminal escapes, for failure messages.
    fn transcript(&self, bytes: &[u8]) -> String {
        let text = String::from_utf8_lossy(bytes);
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                // CSI: ESC [ parameters, then a final letter (or ~).
                if chars.peek() == Some(&'[') {
                    for d in chars.by_ref().skip(1) {
                        if d.is_ascii_alphabetic() || d == '~' {
                            break;
                        }
                    }
                }
            } else if c != '\r' {
                out.push(c);
            }
        }
        out
    }

    /// Leaves with `:quit` and waits for the REPL to exit.
    fn quit(mut self) {
        self.type_keys(":quit\r");
        let deadline = Instant::now() + PATIENCE;
        while self.child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the REPL did not quit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // A failed test must not leave the REPL running.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        let _ = std::fs::remove_file(&self.history);
    }
}

/// Several lines arriving at once (typed ahead, or pasted where the terminal
/// has no bracketed paste) all run, in order, a multi-line `fn` entry
/// among them. The editor used to drop, with its read buffer, every line of
/// the burst after the first.
#[test]
fn lines_arriving_at_once_all_run_in_order() {
    let mut t = Terminal::start("burst");
    let at = t.wait_for("yose> ", 0);
    t.type_keys("let A = 1\rlet B = 2\rlet C = 3\rfn f(x) = {\r  x + 1\r}\r");
    t.type_keys("[A, B, C, f(41)]\r");
    t.wait_for("[1, 2, 3, 42]", at);
    t.quit();
}

/// Lines typed while a computation runs, and the unfinished line after them,
/// survive the Ctrl-C that stops it: the finished lines run in order, the
/// unfinished one waits at the prompt. The terminal used to throw all of it
/// away at the interrupt.
#[test]
fn lines_typed_during_a_computation_survive_ctrl_c() {
    let mut t = Terminal::start("interrupt");
    let at = t.wait_for("yose> ", 0);
    t.type_keys("print \"busy\"; for i in 0..1000000000 { let x = i }\r");
    // The echo of the entry shows `"busy";`; the print, `busy` on its own.
    let at = t.wait_for("busy\r\n", at);
    t.type_keys("let D = 4\rlet E = 5\r[D, E");
    // The terminal echoes it, as it does the keys typed during a computation.
    let at = t.wait_for("[D, E", at);
    t.type_keys("\x03");
    let at = t.wait_for("interrupted", at);
    t.type_keys("]\r");
    t.wait_for("[4, 5]", at);
    t.quit();
}
