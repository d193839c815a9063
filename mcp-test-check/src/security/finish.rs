//! The security section of a whole check, once its sessions ended: the other era's findings
//! brought up beside the first's, the first session's definitions held to a fresh session's
//! (`rug/changed-between-sessions`) and to a pin (`rug/pin-changed`).

use super::rules::PIN_CHANGED;
use super::watch::{BETWEEN, compare, surface_of};
use crate::{CheckOptions, CheckReport};
use mcp_test::surface::Surface;
use std::collections::HashSet;

/// Completes `report`'s security section: call once the check (both eras) ended.
pub(crate) async fn after_check(
    report: &mut CheckReport,
    options: &CheckOptions,
    progress: &mut (dyn FnMut(&str) + Send),
) {
    if let Some(other) = report.other_era.as_mut() {
        let moved = std::mem::take(&mut other.security);
        report.security.extend(moved);
    }
    let first = report.listed.as_ref().and_then(surface_of);
    if let (Some(first), Some(reconnect), None) = (&first, &options.reconnect, report.cut_short())
        && !first.is_empty()
    {
        let era = report.era.unwrap_or(mcp_test::cases::Era::Current);
        progress("security: do the definitions hold in a fresh session?");
        if let Ok(fresh) = reconnect.open(era).await {
            let fetched = Surface::fetch_within(&fresh, options.timeout).await;
            let _ = fresh.client.close_within(options.close_grace).await;
            if let Ok(fresh) = fetched {
                report.security.extend(compare(
                    first,
                    &fresh,
                    BETWEEN,
                    "a fresh session's lists",
                    Some(era),
                ));
            }
        }
    }
    if let (Some(pin), Some(first)) = (&options.pin, &first) {
        report
            .security
            .extend(compare(pin, first, &PIN_CHANGED, "--pin", report.era));
    }
    let mut seen = HashSet::new();
    report.security.retain(|f| {
        seen.insert((
            f.rule.id,
            f.subject.clone(),
            f.pointer.clone(),
            f.excerpt.clone(),
        ))
    });
    report.security.sort_by_key(|f| f.rule.risk);
}
