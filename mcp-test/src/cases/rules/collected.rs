//! The cases of one tool as they are derived: de-duplicated, each title made unique.

use serde_json::Value;
use std::collections::HashMap;

use crate::cases::hash::{BuildFx, str_hash};
use crate::cases::{Case, Expectation};

/// The cases of one tool as they are derived: each one kept only if no earlier case has the
/// same arguments and expectation (the tool is the same for all), with its title made unique.
///
/// Cases are told apart by a structural hash of their arguments, compared for equality only
/// on a collision: serializing every case's arguments to text for the key was a fifth of the
/// time of deriving the cases of a large server. The check runs before a case's arguments are
/// kept. Both indexes are chains through `cases` (a map from a hash to the last case with it,
/// and from each case to the one before it with the same hash), so keeping a case allocates
/// nothing beyond the amortized growth of three vectors and two maps.
pub(super) struct Collected<'a> {
    /// Every case derived so far; this tool's from `start`.
    cases: &'a mut Vec<Case>,
    start: usize,
    index: &'a mut Index,
}

/// The indexes of [`Collected`], by position in its cases from `start`.
#[derive(Default)]
pub(super) struct Index {
    /// The last case with each key (hash of the arguments, expectation).
    by_args: HashMap<(u64, Expectation), usize, BuildFx>,
    /// Per case, the case before it with the same key.
    same_args: Vec<Option<usize>>,
    /// The last case with each hash of a title.
    by_title: HashMap<u64, usize, BuildFx>,
    /// Per case, the case before it with the same title hash.
    same_title: Vec<Option<usize>>,
}

impl<'a> Collected<'a> {
    /// The cases of a tool, appended to `cases`, indexed by `index` (emptied first).
    pub(super) fn new(cases: &'a mut Vec<Case>, index: &'a mut Index) -> Self {
        index.by_args.clear();
        index.same_args.clear();
        index.by_title.clear();
        index.same_title.clear();
        Collected {
            start: cases.len(),
            cases,
            index,
        }
    }

    /// The tool's cases kept so far.
    pub(super) fn kept(&self) -> &[Case] {
        &self.cases[self.start..]
    }

    /// Room for `n` more cases (a tool's mutations are known before they are checked).
    pub(super) fn reserve(&mut self, n: usize) {
        self.cases.reserve(n);
        self.index.same_args.reserve(n);
        self.index.same_title.reserve(n);
        self.index.by_args.reserve(n);
        self.index.by_title.reserve(n);
    }

    /// The cases along one chain, from `head` back.
    fn chain(next: &[Option<usize>], head: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(head, move |&i| next[i])
    }

    /// Whether a case with these arguments and this expectation was kept already.
    pub(super) fn has(&self, key: (u64, Expectation), args: &Value) -> bool {
        let kept = self.kept();
        Self::chain(&self.index.same_args, self.index.by_args.get(&key).copied())
            .any(|i| kept[i].args.same_as(args))
    }

    /// Whether a case with this key may have been kept already (its hash was seen).
    pub(super) fn may_have(&self, key: (u64, Expectation)) -> bool {
        self.index.by_args.contains_key(&key)
    }

    /// Whether a case titled `title` was kept already.
    pub(super) fn has_title(&self, hash: u64, title: &str) -> bool {
        let kept = self.kept();
        Self::chain(
            &self.index.same_title,
            self.index.by_title.get(&hash).copied(),
        )
        .any(|i| kept[i].title == title)
    }

    /// Keeps `case` (no duplicate: see [`Collected::has`]), its title made unique.
    pub(super) fn keep(&mut self, key: (u64, Expectation), mut case: Case) {
        let mut title_hash = str_hash(&case.title);
        if self.has_title(title_hash, &case.title) {
            let base = std::mem::take(&mut case.title);
            let mut n = 2;
            loop {
                let title = format!("{base} ({n})");
                title_hash = str_hash(&title);
                if !self.has_title(title_hash, &title) {
                    case.title = title;
                    break;
                }
                n += 1;
            }
        }
        let i = self.cases.len() - self.start;
        let index = &mut *self.index;
        index.same_args.push(index.by_args.insert(key, i));
        index.same_title.push(index.by_title.insert(title_hash, i));
        self.cases.push(case);
    }
}
