//! The sources an interpreter has seen (files, REPL entries, `yose eval`
//! questions), kept so that a diagnostic can point into them.

use std::borrow::Cow;
use std::path::PathBuf;
use std::rc::Rc;

/// Index into [`super::Interp::sources`].
pub type SourceId = usize;

/// A source file (or REPL entry) the interpreter has seen.
pub struct Source {
    /// A file's path, or a fixed name (`<eval>`, `<repl>`) kept without a copy.
    pub name: Cow<'static, str>,
    pub text: SourceText,
    /// Directory that `use "file.cgt"` paths are relative to.
    pub dir: Option<PathBuf>,
}

/// The longest text kept in place by [`SourceText`].
const SHORT: usize = 30;

/// A source's text, read as a `&str`. A short text (most questions typed
/// at the REPL or given to `yose eval`) is kept in place and a longer one
/// in a shared allocation, so recording a short question is a copy of its
/// bytes with no allocation: that allocation and its release were about a
/// fifth of the cost of a fresh interpreter answering `0` (BENCHMARKS.md,
/// issue 21). Cloning a long text shares it.
#[derive(Clone)]
pub struct SourceText(Repr);

#[derive(Clone)]
enum Repr {
    /// `bytes[..len]` is a copy of a `&str`.
    Short {
        len: u8,
        bytes: [u8; SHORT],
    },
    Long(Rc<str>),
}

impl SourceText {
    pub fn new(text: &str) -> SourceText {
        if text.len() > SHORT {
            return SourceText(Repr::Long(Rc::from(text)));
        }
        let mut bytes = [0; SHORT];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        SourceText(Repr::Short {
            len: text.len() as u8,
            bytes,
        })
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `bytes[..len]` was copied whole from a `&str`
            // (`SourceText::new`) and is never written again, so it is UTF-8.
            Repr::Short { len, bytes } => unsafe {
                std::str::from_utf8_unchecked(&bytes[..usize::from(*len)])
            },
            Repr::Long(text) => text,
        }
    }
}

impl std::ops::Deref for SourceText {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The sources an interpreter has seen, by [`SourceId`]. The first is kept
/// in place: a fresh interpreter that answers one question (`yose eval`)
/// allocates no list for it (BENCHMARKS.md, issue 21).
#[derive(Default)]
pub struct Sources {
    first: Option<Source>,
    rest: Vec<Source>,
}

impl Sources {
    pub fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }
    pub fn get(&self, id: SourceId) -> Option<&Source> {
        match id {
            0 => self.first.as_ref(),
            _ => self.rest.get(id - 1),
        }
    }
    /// Adds a source; its id.
    pub fn push(&mut self, source: Source) -> SourceId {
        if self.first.is_none() {
            self.first = Some(source);
            return 0;
        }
        self.rest.push(source);
        self.rest.len()
    }
}

impl std::ops::Index<SourceId> for Sources {
    type Output = Source;
    fn index(&self, id: SourceId) -> &Source {
        self.get(id).expect("a source id given by `Sources::push`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text reads back as itself, on both sides of the in-place
    /// limit (multi-byte characters at the limit included), and a clone
    /// reads the same.
    #[test]
    fn a_source_text_reads_back_as_written() {
        let long = "x".repeat(SHORT + 1);
        let texts = [
            "",
            "0",
            "thermograph({3|{2|1}})",
            &"y".repeat(SHORT),
            &long,
            // 29 bytes and a 2-byte character: 31 bytes, kept shared;
            // 28 and one: 30, kept in place.
            &format!("{}é", "a".repeat(SHORT - 1)),
            &format!("{}é", "a".repeat(SHORT - 2)),
            "↑ + * ≤ ⧾2",
        ];
        for t in texts {
            let s = SourceText::new(t);
            assert_eq!(s.as_str(), t);
            assert_eq!(&*s.clone(), t);
            assert_eq!(format!("{s:?}"), format!("{t:?}"));
            let in_place = matches!(s.0, Repr::Short { .. });
            assert_eq!(in_place, t.len() <= SHORT, "{t:?}");
        }
        // A long text's clone shares its allocation.
        let s = SourceText::new(&long);
        assert_eq!(s.as_str().as_ptr(), s.clone().as_str().as_ptr());
    }
}
