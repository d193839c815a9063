//! Intentionally empty: see `tests/ui.rs`.
