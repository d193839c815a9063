//! Tools: tools/call, tool definitions, names, schemas and `x-mcp-header`.

use super::{Hooks, Switch};

pub struct Tools;

impl Hooks for Tools {
    fn switches(&self) -> &'static [Switch] {
        &[]
    }
}
