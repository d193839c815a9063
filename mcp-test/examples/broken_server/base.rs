//! The base protocol, lifecycle and versioning, errors, pagination, cache hints and multi-round requests.

use super::{Hooks, Switch};

pub struct Base;

impl Hooks for Base {
    fn switches(&self) -> &'static [Switch] {
        &[]
    }
}
