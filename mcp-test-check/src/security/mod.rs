//! Security findings with evidence: the rules ([`RULES`]), the scanners of text
//! ([`scan_text`]), the walkers over definitions and results ([`scan_definition`],
//! [`scan_returned`], [`scan_response`]), annotations held to the tool's own words
//! ([`read_only_contradicted`]), and the rug-pull comparisons of a check (a definition that
//! changes within a session, between two fresh sessions, or against a pin).
//!
//! Every rule is deterministic and offline: fixed character classes and regular expressions
//! from published attacks, no model and no network. The findings go in
//! [`CheckReport::security`](crate::CheckReport::security), apart from the spec's findings.

pub(crate) mod exposure;
mod finish;
mod rules;
mod text;
mod walk;
pub(crate) mod watch;

pub use crate::annotations::read_only_contradicted;
pub(crate) use finish::after_check;
pub use rules::*;
pub(crate) use text::warm;
pub use text::{Hit, Place, escape, scan_text};
pub use walk::{At, scan_definition, scan_response, scan_returned};
