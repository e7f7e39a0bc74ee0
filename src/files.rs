//! Reading and writing files with care: the one home of the rules every
//! file yose touches follows (scripts for `run`, `check`, `use` and
//! `:load`; SGF files; SVG pictures; the REPL history).
//!
//! * Reading: only a regular file is read (a device, a FIFO or a directory
//!   is refused before anything blocks on it: the file is opened with
//!   `O_NONBLOCK` and checked with `fstat`), at most a size limit, and it
//!   must be UTF-8 text. Links are followed or refused as the caller asks.
//! * Writing: to a new temporary file beside the target, created
//!   exclusively (never through a link planted at its name, never over an
//!   existing file), then renamed over the target; a target that is not a
//!   regular file (a device, a FIFO, a directory, a link) is refused, and a
//!   failure leaves the target as it was and no temporary file behind.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The largest script read (`run`, `check`, `use`, `:load`): 16 MiB.
pub const MAX_SCRIPT_BYTES: u64 = 16 << 20;

/// Why a file could not be read or written, in words for a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// An error of the operating system, or a refused kind of file.
    Refused(String),
    /// Not UTF-8: the offset of the first bad byte.
    NotUtf8(usize),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Refused(why) => write!(f, "{why}"),
            FileError::NotUtf8(at) => {
                write!(f, "not valid UTF-8 text (bad byte at offset {at})")
            }
        }
    }
}

fn io(e: std::io::Error) -> FileError {
    FileError::Refused(e.to_string())
}

/// Whether a link in place of the file is followed when reading.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Links {
    Follow,
    Refuse,
}

/// Reads a regular file of at most `max` bytes as raw bytes.
pub fn read_bytes(path: &Path, max: u64, links: Links) -> Result<Vec<u8>, FileError> {
    let meta = std::fs::symlink_metadata(path).map_err(io)?;
    if meta.file_type().is_symlink() && links == Links::Refuse {
        return Err(FileError::Refused(
            "it is a symbolic link (yose does not follow links to files it reads)".into(),
        ));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking: opening a FIFO must not wait for a writer.
        let mut flags = libc::O_NONBLOCK;
        if links == Links::Refuse {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::Refused(format!(
            "not a regular file (a {})",
            kind_of(&meta)
        )));
    }
    if meta.len() > max {
        return Err(FileError::Refused(format!(
            "{} bytes, more than the {} yose reads",
            meta.len(),
            crate::limits::human(max as usize)
        )));
    }
    let mut bytes = Vec::new();
    // A file that grows while it is read still stops at the limit.
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(FileError::Refused(format!(
            "more than the {} yose reads",
            crate::limits::human(max as usize)
        )));
    }
    Ok(bytes)
}

/// Reads a regular file of at most `max` bytes of UTF-8 text.
pub fn read_text(path: &Path, max: u64, links: Links) -> Result<String, FileError> {
    let bytes = read_bytes(path, max, links)?;
    String::from_utf8(bytes).map_err(|e| FileError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// Reads a script for `run`, `check`, `use` or `:load`: a `.cgt` file (so
/// that an error, which quotes the script, never quotes some other file),
/// regular, UTF-8, at most [`MAX_SCRIPT_BYTES`].
pub fn read_script(path: &Path) -> Result<String, FileError> {
    let not_a_script = || {
        FileError::Refused(
            "not a `.cgt` script (yose reads scripts only from files named `*.cgt`)".into(),
        )
    };
    // A missing file is said to be missing, whatever its name (the link
    // itself, not its target, is looked at: nothing is followed yet).
    std::fs::symlink_metadata(path).map_err(io)?;
    if path.extension().is_none_or(|e| e != "cgt") {
        return Err(not_a_script());
    }
    // The name that counts is the file's own, after every link: `x.cgt`
    // linked to a file of another name is not a script either. The file
    // read is the one whose name was checked.
    let real = std::fs::canonicalize(path).map_err(io)?;
    if real.extension().is_none_or(|e| e != "cgt") {
        return Err(FileError::Refused(format!(
            "not a `.cgt` script: it links to {} (yose reads scripts only from files named `*.cgt`)",
            real.display()
        )));
    }
    read_text(&real, MAX_SCRIPT_BYTES, Links::Follow)
}

/// What a non-regular file is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    "special file"
}

/// Refuses a target that exists and is not a regular file.
pub fn check_target(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(FileError::Refused(
            "a symbolic link stands there (yose does not write through links)".into(),
        )),
        Ok(meta) if !meta.is_file() => Err(FileError::Refused(format!(
            "not a regular file (a {})",
            kind_of(&meta)
        ))),
        _ => Ok(()),
    }
}

/// Creates a new, empty temporary file beside `path`, exclusively (never
/// through a link, never over an existing file); its name and the file.
pub fn create_temp_beside(path: &Path) -> Result<(PathBuf, std::fs::File), FileError> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let Some(file_name) = path.file_name() else {
        return Err(FileError::Refused("not a file name".into()));
    };
    let mut last = None;
    // A name taken by someone else is skipped, never reused.
    for _ in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        tmp_name.push(format!(".yose-{}-{n}-{nanos:x}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW);
            options.mode(0o644);
        }
        match options.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(io(e)),
        }
    }
    Err(io(
        last.unwrap_or_else(|| std::io::Error::other("no free name"))
    ))
}

/// Writes `bytes` to `path` atomically (see the module docs).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    check_target(path)?;
    let (tmp, mut file) = create_temp_beside(path)?;
    let result = file
        .write_all(bytes)
        .and_then(|_| file.sync_all())
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        // The temporary file is ours: created exclusively above.
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("yose-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reading_refuses_what_is_not_a_small_regular_text_file() {
        let dir = scratch("read");
        let ok = dir.join("a.cgt");
        std::fs::write(&ok, "let x = 1\n").unwrap();
        assert_eq!(read_text(&ok, 100, Links::Follow).unwrap(), "let x = 1\n");
        assert!(
            matches!(read_text(&ok, 4, Links::Follow), Err(FileError::Refused(m)) if m.contains("more than"))
        );
        let bad = dir.join("b.cgt");
        std::fs::write(&bad, b"ab\xffcd").unwrap();
        assert_eq!(
            read_text(&bad, 100, Links::Follow),
            Err(FileError::NotUtf8(2))
        );
        let e = read_text(&dir, 100, Links::Follow).unwrap_err().to_string();
        assert!(e.contains("directory"), "{e}");
        let e = read_text(Path::new("/dev/zero"), 100, Links::Follow)
            .unwrap_err()
            .to_string();
        assert!(e.contains("device"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.join("link.cgt");
            std::os::unix::fs::symlink(&ok, &link).unwrap();
            assert!(read_text(&link, 100, Links::Follow).is_ok());
            assert!(read_text(&link, 100, Links::Refuse).is_err());
            // A FIFO is refused at once: nothing blocks waiting for a writer.
            let fifo = dir.join("fifo.cgt");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid C string.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let e = read_text(&fifo, 100, Links::Follow)
                .unwrap_err()
                .to_string();
            assert!(e.contains("FIFO"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writing_is_atomic_and_trusts_no_name_in_the_directory() {
        let dir = scratch("write");
        let target = dir.join("out.svg");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        // Only the target is left: no temporary file.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // Not a regular file: refused, nothing changed.
        assert!(write_atomic(&dir, b"x").is_err());
        assert!(write_atomic(Path::new("/dev/null"), b"x")
            .unwrap_err()
            .to_string()
            .contains("device"));
        #[cfg(unix)]
        {
            let precious = dir.join("precious");
            std::fs::write(&precious, "keep").unwrap();
            let link = dir.join("link.svg");
            std::os::unix::fs::symlink(&precious, &link).unwrap();
            assert!(write_atomic(&link, b"x").is_err());
            assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
