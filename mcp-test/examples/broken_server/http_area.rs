//! The Streamable HTTP transport and its header rules.

use super::{Hooks, Switch};

pub struct Http;

impl Hooks for Http {
    fn switches(&self) -> &'static [Switch] {
        &[]
    }
}
