//! `mcp_request!`: every request builder as one JSON-literal macro.

/// Builds a JSON-RPC request body, as [`build_request`](crate::testing::build_request),
/// [`build_call_request`](crate::testing::build_call_request) and
/// [`build_action_request`](crate::testing::build_action_request) do, with JSON written as for
/// `serde_json::json!`.
///
/// # Grammar
///
/// ```text
/// mcp_request!( <form> [; <modifier>, <modifier>...] )
///
/// <form>     := "method"                       build_request(method, null)
///             | "method" {params}              build_request(method, {params})
///             | call <name>                    build_call_request(name, {})
///             | call <name> {arguments}        build_call_request(name, {arguments})
///             | action <tool> <action>         build_action_request(tool, action, null)
///             | action <tool> <action> {data}  build_action_request(tool, action, {data})
/// <modifier> := id = <json>                    replaces the id (any JSON, even a malformed one)
///             | meta = {..}                    merges into params._meta like build_request
/// ```
///
/// The method is a string literal; `<name>`, `<tool>` and `<action>` are a string literal or a
/// variable; `{..}` is any JSON literal (`{..}`, `[..]`, or a variable to serialize); an id is
/// one token of JSON (`7`, `"a"`, `null`, a variable, or a parenthesized expression such as
/// `(-1)`). Anything else is a compile error that shows this grammar.
///
/// ```
/// use mcp_test::mcp_request;
/// use mcp_test::testing::{build_action_request, build_call_request, build_request};
/// use serde_json::{json, Value};
///
/// assert_eq!(mcp_request!("tools/list"), build_request("tools/list", Value::Null));
/// assert_eq!(mcp_request!("tools/list" {"cursor": "abc"})["params"]["cursor"], "abc");
/// assert_eq!(
///     mcp_request!(call "tasks" {"action": "get", "data": {"id": "7"}}),
///     build_call_request("tasks", json!({"action": "get", "data": {"id": "7"}})),
/// );
/// let id = "7";
/// assert_eq!(
///     mcp_request!(action "tasks" "get" {"id": id}),
///     build_action_request("tasks", "get", json!({"id": "7"})),
/// );
///
/// assert_eq!(mcp_request!("tools/list"; id = null)["id"], Value::Null);
/// assert_eq!(mcp_request!("tools/list"; id = (-1))["id"], -1);
/// let body = mcp_request!(call "tasks"; id = "call-2",
///     meta = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
/// assert_eq!(body["id"], "call-2");
/// assert_eq!(body["params"]["arguments"], json!({}));
/// assert_eq!(body["params"]["_meta"], json!({
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
/// }));
/// ```
///
/// Misuse does not compile:
///
/// ```compile_fail
/// // `cal` is not a form: error: mcp_request! expects ...
/// let body = mcp_test::mcp_request!(cal "tasks");
/// ```
#[macro_export]
macro_rules! mcp_request {
    // call <name> [{arguments}] [; modifiers]
    (call $name:tt) => {
        $crate::testing::build_call_request(
            ::core::convert::AsRef::<str>::as_ref(&$name),
            $crate::__private::serde_json::json!({}),
        )
    };
    (call $name:tt ; $($mods:tt)*) => {
        $crate::mcp_request!(@mods ($crate::mcp_request!(call $name)) $($mods)*)
    };
    (call $name:tt $args:tt $(; $($mods:tt)*)?) => {
        $crate::mcp_request!(@mods (
            $crate::testing::build_call_request(
                ::core::convert::AsRef::<str>::as_ref(&$name),
                $crate::__private::serde_json::json!($args),
            )
        ) $($($mods)*)?)
    };
    // action <tool> <action> [{data}] [; modifiers]
    (action $tool:tt $action:tt) => {
        $crate::testing::build_action_request(
            ::core::convert::AsRef::<str>::as_ref(&$tool),
            ::core::convert::AsRef::<str>::as_ref(&$action),
            $crate::__private::serde_json::Value::Null,
        )
    };
    (action $tool:tt $action:tt ; $($mods:tt)*) => {
        $crate::mcp_request!(@mods ($crate::mcp_request!(action $tool $action)) $($mods)*)
    };
    (action $tool:tt $action:tt $data:tt $(; $($mods:tt)*)?) => {
        $crate::mcp_request!(@mods (
            $crate::testing::build_action_request(
                ::core::convert::AsRef::<str>::as_ref(&$tool),
                ::core::convert::AsRef::<str>::as_ref(&$action),
                $crate::__private::serde_json::json!($data),
            )
        ) $($($mods)*)?)
    };
    // "method" [{params}] [; modifiers]
    ($method:literal) => {
        $crate::testing::build_request($method, $crate::__private::serde_json::Value::Null)
    };
    ($method:literal ; $($mods:tt)*) => {
        $crate::mcp_request!(@mods ($crate::mcp_request!($method)) $($mods)*)
    };
    ($method:literal $params:tt $(; $($mods:tt)*)?) => {
        $crate::mcp_request!(@mods (
            $crate::testing::build_request($method, $crate::__private::serde_json::json!($params))
        ) $($($mods)*)?)
    };
    // modifiers
    (@mods ($($body:tt)*)) => { $($body)* };
    (@mods ($($body:tt)*) id = $id:tt $(, $($rest:tt)*)?) => {
        $crate::mcp_request!(@mods (
            $crate::testing::__with_id($($body)*, $crate::__private::serde_json::json!($id))
        ) $($($rest)*)?)
    };
    (@mods ($($body:tt)*) meta = $meta:tt $(, $($rest:tt)*)?) => {
        $crate::mcp_request!(@mods (
            $crate::testing::__with_meta($($body)*, $crate::__private::serde_json::json!($meta))
        ) $($($rest)*)?)
    };
    (@mods ($($body:tt)*) $($bad:tt)+) => {
        ::core::compile_error!(
            "mcp_request!: unknown modifier; after `;` write `id = <json>` or `meta = {..}`, separated by commas"
        )
    };
    ($($bad:tt)*) => {
        ::core::compile_error!(concat!(
            "mcp_request! expects one of:\n",
            "    mcp_request!(\"method\")            mcp_request!(\"method\" {params})\n",
            "    mcp_request!(call <name>)          mcp_request!(call <name> {arguments})\n",
            "    mcp_request!(action <tool> <action>)  mcp_request!(action <tool> <action> {data})\n",
            "optionally followed by `; id = <json>, meta = {..}`"
        ))
    };
}
