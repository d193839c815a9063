//! How many schema cases are in flight at once: [`CheckOptions::jobs`](crate::CheckOptions::jobs)
//! to begin with, widened up to [`CheckOptions::max_jobs`](crate::CheckOptions::max_jobs) for a
//! server that is slow to answer each case but not slowed by more of them.
//!
//! A server that takes a second a request because it waits on something else (a backend, a
//! rate-limited API) answers as fast with sixteen requests in flight as with four; one that is
//! slow because it is busy answers more slowly the more it is sent. The window tells them
//! apart from what the server does, not from a guess: once the first `jobs` cases have come
//! back, their median round trip is the baseline. Below [`SLOW_CASE`] the window stays as it
//! is (a fast server gains nothing). Above it, every case that comes back within twice the
//! baseline (those first ones included) opens the window by one, up to `max_jobs`, and every case slower than that closes
//! it by one, down to `jobs` again: additive steps each way, so a server that is busy finds
//! the window back where it began within a few cases. A case cut short by the case time says
//! nothing of the load, and is not counted.

use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{Semaphore, SemaphorePermit};

/// The median round trip (a case and the liveness request after it) from which a server is
/// slow enough for more cases in flight to be worth it.
pub(crate) const SLOW_CASE: Duration = Duration::from_millis(250);

/// The cases in flight; see the [module docs](self).
pub(crate) struct Window {
    permits: Semaphore,
    start: usize,
    max: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// How many cases may be in flight now.
    open: usize,
    /// The first `start` round trips, until the baseline is known.
    first: Vec<Duration>,
    /// Their median, once known.
    baseline: Option<Duration>,
    /// The widest the window was.
    widest: usize,
}

impl Window {
    /// A window of `start` cases, which may widen to `max` (at least `start`). One case at a
    /// time stays one at a time (`--jobs 1` names the case after which a server stopped).
    pub(crate) fn new(start: usize, max: usize) -> Window {
        let start = start.max(1);
        Window {
            permits: Semaphore::new(start),
            start,
            max: if start == 1 { 1 } else { max.max(start) },
            state: Mutex::new(State {
                open: start,
                widest: start,
                ..State::default()
            }),
        }
    }

    /// The most cases that may ever be in flight: how many futures to poll at once.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// The widest the window was.
    pub(crate) fn widest(&self) -> usize {
        self.lock().widest
    }

    /// Whether the first cases found the server slow: a median round trip of [`SLOW_CASE`]
    /// or more.
    pub(crate) fn slow(&self) -> bool {
        self.lock().baseline.is_some_and(|b| b >= SLOW_CASE)
    }

    /// Waits for room for one more case; the room is given back when the permit drops.
    pub(crate) async fn enter(&self) -> Option<SemaphorePermit<'_>> {
        self.permits.acquire().await.ok()
    }

    /// Records how long one case took, there and back, and widens or narrows the window.
    pub(crate) fn record(&self, took: Duration) {
        let mut state = self.lock();
        let Some(baseline) = state.baseline else {
            state.first.push(took);
            if state.first.len() >= self.start {
                let mut first = std::mem::take(&mut state.first);
                first.sort();
                let baseline = first[first.len() / 2];
                state.baseline = Some(baseline);
                // The first cases came back together at their pace: each opens the window
                // by one, as every later case within twice the baseline does.
                if baseline >= SLOW_CASE {
                    let within = first.iter().filter(|t| **t <= baseline * 2).count();
                    let open = (state.open + within).min(self.max);
                    self.permits.add_permits(open - state.open);
                    state.open = open;
                    state.widest = state.widest.max(open);
                }
            }
            return;
        };
        if baseline < SLOW_CASE {
            return;
        }
        if took <= baseline * 2 {
            if state.open < self.max {
                self.permits.add_permits(1);
                state.open += 1;
                state.widest = state.widest.max(state.open);
            }
        } else if state.open > self.start && self.permits.forget_permits(1) == 1 {
            state.open -= 1;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_fast_server_keeps_the_window_it_began_with() {
        let w = Window::new(4, 16);
        for _ in 0..40 {
            w.record(Duration::from_millis(5));
        }
        assert_eq!((w.widest(), w.permits.available_permits()), (4, 4));
    }

    #[test]
    fn a_slow_server_that_keeps_its_pace_gets_up_to_max_in_flight() {
        let w = Window::new(4, 16);
        for _ in 0..3 {
            w.record(SECOND);
        }
        assert_eq!(w.widest(), 4, "no baseline before the first four are back");
        w.record(SECOND);
        assert_eq!(w.widest(), 8, "the first four, at one pace, open four more");
        for _ in 0..30 {
            w.record(SECOND + Duration::from_millis(300));
        }
        assert_eq!((w.widest(), w.permits.available_permits()), (16, 16));
    }

    #[test]
    fn a_server_slowed_by_the_load_narrows_the_window_back_to_its_start() {
        let w = Window::new(4, 16);
        for _ in 0..4 {
            w.record(SECOND);
        }
        for _ in 0..2 {
            w.record(SECOND);
        }
        assert_eq!(w.permits.available_permits(), 10);
        for _ in 0..20 {
            w.record(SECOND * 3);
        }
        assert_eq!(
            w.permits.available_permits(),
            4,
            "never below where it began"
        );
        assert_eq!(w.widest(), 10);
    }

    #[test]
    fn a_window_never_opens_past_max_nor_below_one() {
        let w = Window::new(0, 0);
        assert_eq!((w.start, w.max()), (1, 1));
        let w = Window::new(1, 16);
        assert_eq!(w.max(), 1, "one at a time stays one at a time");
        let w = Window::new(8, 2);
        assert_eq!((w.start, w.max()), (8, 8));
    }

    #[tokio::test]
    async fn permits_in_use_are_not_forgotten_until_given_back() {
        let w = Window::new(2, 4);
        w.record(SECOND);
        w.record(SECOND);
        assert_eq!(w.permits.available_permits(), 4);
        let held = (w.enter().await, w.enter().await, w.enter().await);
        w.record(SECOND * 5);
        assert_eq!(w.lock().open, 3, "the one free permit forgotten");
        assert_eq!(w.permits.available_permits(), 0, "all three in use");
        w.record(SECOND * 5);
        assert_eq!(w.lock().open, 3, "nothing free to forget: the window stays");
        drop(held);
        w.record(SECOND * 5);
        assert_eq!((w.lock().open, w.permits.available_permits()), (2, 2));
    }
}
