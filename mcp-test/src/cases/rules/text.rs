//! [`text!`]: the titles and rationales of cases, written without `format!`'s machinery.

use serde_json::Value;
use std::fmt;

/// The text `format!` would make of `pieces` (each a [`Piece`]: text, a number, a JSON value or
/// a [`Debugged`] one) at a fraction of its cost: every case has a title and a rationale, and
/// `format!`'s general machinery was a tenth of the time of deriving a large server's cases.
macro_rules! text {
    ($($piece:expr),+ $(,)?) => {{
        let mut out = String::with_capacity(0 $(+ Piece::size(&$piece))+);
        $(Piece::put(&$piece, &mut out);)+
        out
    }};
}

/// One piece of a [`text!`], written as `{}` writes it.
pub(super) trait Piece {
    /// About how many bytes it takes.
    fn size(&self) -> usize;
    /// Appends it to `out`.
    fn put(&self, out: &mut String);
}

impl Piece for str {
    fn size(&self) -> usize {
        self.len()
    }
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn size(&self) -> usize {
        self.len()
    }
    fn put(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn size(&self) -> usize {
        (**self).size()
    }
    fn put(&self, out: &mut String) {
        (**self).put(out);
    }
}

impl Piece for usize {
    fn size(&self) -> usize {
        4
    }
    fn put(&self, out: &mut String) {
        out.push_str(itoa::Buffer::new().format(*self));
    }
}

impl Piece for f64 {
    fn size(&self) -> usize {
        8
    }
    fn put(&self, out: &mut String) {
        // Whole numbers print as `{}` prints them (no fraction, no exponent); `-0` and the
        // rest go through `Display`.
        if self.fract() == 0.0 && self.abs() < 1e15 && !(*self == 0.0 && self.is_sign_negative()) {
            if *self < 0.0 {
                out.push('-');
            }
            (self.abs() as usize).put(out);
        } else {
            use std::fmt::Write;
            let _ = write!(out, "{self}");
        }
    }
}

impl Piece for Value {
    fn size(&self) -> usize {
        16
    }
    fn put(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{self}");
    }
}

/// Words with a separator between each two, as `[&str]::join` writes them.
pub(super) struct Joined<'a>(pub(super) &'a [&'a str], pub(super) &'a str);

impl Piece for Joined<'_> {
    fn size(&self) -> usize {
        self.0.iter().map(|w| w.len()).sum::<usize>()
            + self.1.len() * self.0.len().saturating_sub(1)
    }
    fn put(&self, out: &mut String) {
        for (i, word) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(self.1);
            }
            out.push_str(word);
        }
    }
}

/// A piece written as `{:?}` writes it.
pub(super) struct Debugged<'a, T: fmt::Debug + ?Sized>(pub(super) &'a T);

impl<T: fmt::Debug + ?Sized> Piece for Debugged<'_, T> {
    fn size(&self) -> usize {
        16
    }
    fn put(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{:?}", self.0);
    }
}
