//! `tools/name-case`: a tool called by its name in another case (`add` as `ADD`).
//!
//! The first tool with a valid case, whose other-case name matches no other listed tool, is
//! called by that name with the case's arguments; a success means the server does not treat
//! tool names as case-sensitive (server/tools.mdx §Tool Names).
//!
//! Clauses quoted (`mcp_test::spec::clauses`): [`TOOL_NAME_CASE`](clauses::TOOL_NAME_CASE).

use crate::checker::{Checker, brief};
use crate::run::Run;
use futures_util::future::LocalBoxFuture;
use mcp_test::cases::{Case, Expectation, Happened};
use mcp_test::spec::clauses;
use serde_json::json;

/// The probe's id.
pub(crate) const ID: &str = "tools/name-case";

/// The row: [`name_case`] over the tools listed and the cases derived.
pub(crate) fn run<'r>(r: &'r mut Run<'_>) -> LocalBoxFuture<'r, ()> {
    Box::pin(name_case(&mut r.c, &r.listed, &r.cases))
}

/// `tools/name-case`: the first tool with a valid case, called by its name in another
/// case (`add` as `ADD`) with that case's arguments; a success means the server does not
/// consider names case-sensitive (server/tools.mdx §Tool Names). `listed` are the names
/// of every listed tool: a tool whose other-case name matches another listed tool,
/// ignoring case, is not tried, so the call can only reach the tool the check may call.
pub(crate) async fn name_case(c: &mut Checker<'_>, listed: &[String], cases: &[Case]) {
    let mut out = Vec::new();
    let candidate = cases.iter().find_map(|case| {
        if case.expectation != Expectation::Success {
            return None;
        }
        let variant = other_case(&case.tool)?;
        let clash = listed
            .iter()
            .filter(|n| n.eq_ignore_ascii_case(&case.tool))
            .count();
        (clash == 1).then_some((case, variant))
    });
    let Some((case, variant)) = candidate else {
        return c.skip_probe(
            ID,
            "no tool the check may call has a valid case and a name with letters",
        );
    };
    let params = json!({"name": variant, "arguments": case.args});
    if let Some(r) = c.req("tools/call", params, &mut out).await
        && matches!(
            Happened::from_response(&r),
            Happened::Success { .. } | Happened::InputRequired
        )
    {
        out.push(c.broke(
            &clauses::TOOL_NAME_CASE,
            format!(
                "calling {variant:?}, a tool it does not list, ran its tool {:?} ({}): the name was not considered case-sensitive",
                case.tool,
                brief(&r)
            ),
        ));
    }
    c.push_probe(ID, out);
}

/// `name` in another case: upper case, or lower case if it is all upper case already;
/// `None` when it has no ASCII letter.
fn other_case(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let variant = if upper == name {
        name.to_ascii_lowercase()
    } else {
        upper
    };
    (variant != name).then_some(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_case_of_a_name() {
        assert_eq!(other_case("add").as_deref(), Some("ADD"));
        assert_eq!(other_case("getUser").as_deref(), Some("GETUSER"));
        assert_eq!(other_case("ADD").as_deref(), Some("add"));
        assert_eq!(other_case("1-2"), None);
    }
}
