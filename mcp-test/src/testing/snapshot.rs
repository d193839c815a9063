//! Normalized responses for snapshots: the volatile fields redacted so a snapshot only changes
//! when behaviour does, with redactions of a test's own added or defaults removed per
//! assertion and per test.

use super::accepts::AsResponse;
use super::response::received;
use crate::wire::meta_keys;
use serde_json::Value;
use std::cell::RefCell;

/// One redaction of the default set: where (an [insta selector](https://insta.rs/docs/redactions/))
/// and what replaces the value there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefaultRedaction {
    /// The selector, in insta's syntax, from the top of a JSON-RPC message: `.id`,
    /// `.result.taskId`, `.result._meta["io.modelcontextprotocol/serverInfo"]`. A bare result
    /// (no `jsonrpc`, `result` or `error`) is matched by the `.result` ones.
    pub selector: &'static str,
    /// The placeholder the value becomes, e.g. `"[taskId]"`.
    pub placeholder: &'static str,
    path: &'static [&'static str],
}

const fn rule(
    selector: &'static str,
    placeholder: &'static str,
    path: &'static [&'static str],
) -> DefaultRedaction {
    DefaultRedaction {
        selector,
        placeholder,
        path,
    }
}

/// The redaction of a plain path of keys (`.result.taskId`): its selector is the keys joined
/// with dots, its placeholder the last key in brackets (`"[taskId]"`).
macro_rules! plain {
    ($key:ident) => {
        rule(
            concat!(".", stringify!($key)),
            concat!("[", stringify!($key), "]"),
            &[stringify!($key)],
        )
    };
    ($parent:ident . $key:ident) => {
        rule(
            concat!(".", stringify!($parent), ".", stringify!($key)),
            concat!("[", stringify!($key), "]"),
            &[stringify!($parent), stringify!($key)],
        )
    };
}

/// Every value of a 2026-07-28 message (core and the tasks extension,
/// `io.modelcontextprotocol/tasks`) that differs between two runs of the same test, and the
/// placeholder [`normalize`] (and so `assert_response_snapshot!`) puts in its place:
///
/// | selector | placeholder | why it changes |
/// |---|---|---|
/// | `.id` | `"[id]"` | chosen by the client |
/// | `.result.requestState` | `"[requestState]"` | opaque, usually signed or encrypted |
/// | `.result._meta["io.modelcontextprotocol/serverInfo"]` | `"[serverInfo]"` | the server's version |
/// | `.result.serverInfo` | `"[serverInfo]"` | `server/discover`'s, the same |
/// | `.result.taskId` | `"[taskId]"` | a task's id (a random UUID on most servers) |
/// | `.result.createdAt` | `"[createdAt]"` | a task's creation time |
/// | `.result.lastUpdatedAt` | `"[lastUpdatedAt]"` | a task's last change |
/// | `.params.taskId` | `"[taskId]"` | the same, in `notifications/tasks` |
/// | `.params.createdAt` | `"[createdAt]"` | |
/// | `.params.lastUpdatedAt` | `"[lastUpdatedAt]"` | |
/// | `.params._meta["io.modelcontextprotocol/subscriptionId"]` | `"[subscriptionId]"` | the id of the `subscriptions/listen` request |
///
/// A field that is absent stays absent: a placeholder never adds a field. A completed task's
/// `result` and everything else (content, `structuredContent`, status, `ttlMs`,
/// `pollIntervalMs`, error codes and messages) is kept as received.
///
/// [`Redactions`] removes one of these for a test or an assertion, or adds one of the test's
/// own.
///
/// ```
/// use mcp_test::testing::DEFAULT_REDACTIONS;
/// assert!(DEFAULT_REDACTIONS.iter().any(|r| r.selector == ".result.taskId" && r.placeholder == "[taskId]"));
/// ```
pub const DEFAULT_REDACTIONS: &[DefaultRedaction] = &[
    plain!(id),
    plain!(result.requestState),
    rule(
        r#".result._meta["io.modelcontextprotocol/serverInfo"]"#,
        "[serverInfo]",
        &["result", "_meta", meta_keys::SERVER_INFO],
    ),
    plain!(result.serverInfo),
    plain!(result.taskId),
    plain!(result.createdAt),
    plain!(result.lastUpdatedAt),
    plain!(params.taskId),
    plain!(params.createdAt),
    plain!(params.lastUpdatedAt),
    rule(
        r#".params._meta["io.modelcontextprotocol/subscriptionId"]"#,
        "[subscriptionId]",
        &["params", "_meta", meta_keys::SUBSCRIPTION_ID],
    ),
];

thread_local! {
    /// The selectors of the default set the current scope keeps (per test or assertion,
    /// [`Redactions::bind_to_scope`]).
    static KEPT: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// A response with its volatile fields replaced by placeholders, for snapshot tests: every
/// redaction of [`DEFAULT_REDACTIONS`] (ids, `requestState`, server info, task ids and
/// timestamps), except those a [`Redactions`] bound to the current scope removes.
///
/// Everything else is kept as received. With the `insta` feature,
/// `assert_response_snapshot!` snapshots this.
///
/// ```
/// use mcp_test::testing::normalize;
/// use serde_json::json;
/// let response = json!({"jsonrpc": "2.0", "id": 42, "result": {
///     "resultType": "input_required", "requestState": "c2lnbmVk",
///     "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "demo", "version": "1.2.3"}}}});
/// assert_eq!(normalize(&response), json!({"jsonrpc": "2.0", "id": "[id]", "result": {
///     "resultType": "input_required", "requestState": "[requestState]",
///     "_meta": {"io.modelcontextprotocol/serverInfo": "[serverInfo]"}}}));
///
/// // A task handle: its id and timestamps.
/// let task = json!({"jsonrpc": "2.0", "id": 7, "result": {"resultType": "task",
///     "taskId": "0b7d5c1e-3f7a-4c1b-9a52-1d2c3e4f5a6b", "status": "working",
///     "createdAt": "2026-08-01T10:00:00.000Z", "lastUpdatedAt": "2026-08-01T10:00:00.000Z",
///     "ttlMs": 60000}});
/// assert_eq!(normalize(&task)["result"], json!({"resultType": "task", "taskId": "[taskId]",
///     "status": "working", "createdAt": "[createdAt]", "lastUpdatedAt": "[lastUpdatedAt]",
///     "ttlMs": 60000}));
/// ```
#[track_caller]
pub fn normalize(response: impl AsResponse) -> Value {
    let mut whole = received(&response);
    let is_rpc = ["jsonrpc", "result", "error", "method"]
        .iter()
        .any(|key| whole.get(key).is_some());
    KEPT.with(|kept| {
        let kept = kept.borrow();
        for rule in DEFAULT_REDACTIONS {
            if kept.contains(&rule.selector) {
                continue;
            }
            let path = match (is_rpc, rule.path) {
                (true, path) => path,
                (false, ["result", rest @ ..]) => rest,
                (false, _) => continue,
            };
            if let Some(value) = at_path(&mut whole, path) {
                *value = Value::from(rule.placeholder);
            }
        }
    });
    whole
}

impl DefaultRedaction {
    /// The object keys from the top of a JSON-RPC message to the redacted value (what the
    /// selector names): the cassettes mark the same places volatile.
    pub(crate) fn keys(&self) -> &'static [&'static str] {
        self.path
    }
}

fn at_path<'v>(value: &'v mut Value, path: &[&str]) -> Option<&'v mut Value> {
    path.iter()
        .try_fold(value, |value, key| value.get_mut(*key))
}

/// Redactions of a test's own: defaults of [`DEFAULT_REDACTIONS`] removed (the value kept as
/// received) and, with the `insta` feature, redactions added (an
/// [insta selector](https://insta.rs/docs/redactions/) and its replacement, applied by insta
/// itself after the defaults). For a whole test, [`bind_to_scope`](Self::bind_to_scope) at its
/// top; for one assertion, [`bind`](Self::bind) around it, or the `{ selector => replacement }`
/// block of `assert_response_snapshot!`. Like insta's settings, a binding holds for the
/// thread it is made on (an `#[mcp_test]` or `#[tokio::test]` body runs on one), until its
/// guard drops.
///
/// ```
/// use mcp_test::testing::{Redactions, normalize};
/// use serde_json::json;
///
/// let task = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "task",
///     "taskId": "t-1", "status": "working", "createdAt": "2026-08-01T10:00:00.000Z",
///     "lastUpdatedAt": "2026-08-01T10:00:00.000Z", "ttlMs": null}});
/// {
///     // This test's task ids are deterministic: keep them in its snapshots.
///     let _redactions = Redactions::new().remove(".result.taskId").bind_to_scope();
///     assert_eq!(normalize(&task)["result"]["taskId"], "t-1");
///     assert_eq!(normalize(&task)["result"]["createdAt"], "[createdAt]");
/// }
/// // The guard dropped: the default set again.
/// assert_eq!(normalize(&task)["result"]["taskId"], "[taskId]");
/// ```
///
/// Adding one (feature `insta`), for a test and for one assertion:
///
/// ```ignore
/// #[mcp_test(server = weather)]
/// async fn forecasts_carry_a_fresh_seed(mcp: TestContext) {
///     let _redactions = Redactions::new()
///         .add(".result.structuredContent.seed", "[seed]")
///         .bind_to_scope();
///     assert_response_snapshot!(mcp.call_tool("forecast", json!({"city": "Paris"})).await);
///     // One assertion: insta's own block, as in `assert_json_snapshot!`.
///     assert_response_snapshot!(mcp.call_tool("forecast", json!({"city": "Oslo"})).await, {
///         ".result.structuredContent.issued" => "[issued]",
///     });
/// }
/// ```
#[must_use = "a Redactions does nothing until bound: `let _redactions = ….bind_to_scope();`"]
pub struct Redactions {
    kept: Vec<&'static str>,
    #[cfg(feature = "insta")]
    settings: Option<insta::Settings>,
}

impl Default for Redactions {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Redactions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redactions")
            .field("removed", &self.kept)
            .finish_non_exhaustive()
    }
}

impl Redactions {
    /// No change: the defaults of the current scope, nothing added.
    pub fn new() -> Self {
        Redactions {
            kept: Vec::new(),
            #[cfg(feature = "insta")]
            settings: None,
        }
    }

    /// Removes the default redaction at `selector` (one of [`DEFAULT_REDACTIONS`], written as
    /// there): its value is kept as received.
    ///
    /// # Panics
    ///
    /// When `selector` names no default redaction; the message lists them.
    ///
    /// ```should_panic
    /// // A typo: the message lists the selectors there are.
    /// let _ = mcp_test::testing::Redactions::new().remove(".result.taskid");
    /// ```
    #[track_caller]
    pub fn remove(mut self, selector: &str) -> Self {
        let selector = selector.trim();
        match DEFAULT_REDACTIONS.iter().find(|r| r.selector == selector) {
            Some(rule) => self.kept.push(rule.selector),
            None => {
                let known: Vec<&str> = DEFAULT_REDACTIONS.iter().map(|r| r.selector).collect();
                panic!(
                    "Redactions::remove({selector:?}): no default redaction has this selector; \
                     the default ones are {}",
                    known.join(", ")
                );
            }
        }
        self
    }

    /// Removes every default redaction: responses are snapshotted as received (plus what
    /// `add` adds, with feature `insta`).
    pub fn remove_all(mut self) -> Self {
        self.kept = DEFAULT_REDACTIONS.iter().map(|r| r.selector).collect();
        self
    }

    /// Adds a redaction: the values `selector` (insta's selector syntax: `.key`, `["key"]`,
    /// `[]` for every element, `.*`, `.**` at any depth) matches become `replacement` (a
    /// string, number, `()`, or `insta::dynamic_redaction` / `insta::sorted_redaction` /
    /// `insta::rounded_redaction`). Applied by insta to the snapshot of
    /// `assert_response_snapshot!` (not by [`normalize`]). Feature `insta`.
    ///
    /// # Panics
    ///
    /// When `selector` is not a valid insta selector (insta's parse error says where).
    #[cfg(feature = "insta")]
    #[cfg_attr(docsrs, doc(cfg(feature = "insta")))]
    #[track_caller]
    pub fn add(
        mut self,
        selector: &str,
        replacement: impl Into<insta::internals::Redaction>,
    ) -> Self {
        self.settings
            .get_or_insert_with(insta::Settings::clone_current)
            .add_redaction(selector, replacement);
        self
    }

    /// Binds these redactions to the current thread until the guard drops: for a whole test,
    /// `let _redactions = Redactions::new()….bind_to_scope();` at its top. Removals add to
    /// those of an enclosing binding.
    pub fn bind_to_scope(self) -> RedactionsGuard {
        let previous = KEPT.with(|kept| {
            let mut kept = kept.borrow_mut();
            let previous = kept.clone();
            kept.extend(self.kept.iter().copied());
            previous
        });
        RedactionsGuard {
            previous: Some(previous),
            #[cfg(feature = "insta")]
            _insta: self.settings.as_ref().map(insta::Settings::bind_to_scope),
        }
    }

    /// Runs `f` (an assertion, or a block of them) with these redactions.
    pub fn bind<R>(self, f: impl FnOnce() -> R) -> R {
        let _guard = self.bind_to_scope();
        f()
    }
}

/// Restores the redactions of before [`Redactions::bind_to_scope`] when dropped.
#[must_use = "the redactions hold until this guard drops: `let _redactions = ….bind_to_scope();`"]
pub struct RedactionsGuard {
    previous: Option<Vec<&'static str>>,
    #[cfg(feature = "insta")]
    _insta: Option<insta::internals::SettingsBindDropGuard>,
}

impl std::fmt::Debug for RedactionsGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedactionsGuard").finish_non_exhaustive()
    }
}

impl Drop for RedactionsGuard {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            KEPT.with(|kept| *kept.borrow_mut() = previous);
        }
    }
}

/// The case a parameterized test runs, when the function at `function` (a `type_name` path,
/// as `std::any::type_name_of_val` of an item defined in it gives) is the shared body of
/// rstest or test-case cases: the test's name (the thread libtest runs it on is named
/// after it) continues past the function's name, `adds::case_1_small` for `adds`. `None` for a
/// plain test (the name ends with the function's) or a helper the test called.
#[doc(hidden)]
pub fn __case_of(function: &str, thread: Option<&str>) -> Option<String> {
    let mut path = function;
    while let Some(rest) = path.strip_suffix("::{{closure}}") {
        path = rest;
    }
    let name = path.rsplit("::").next()?;
    let segments: Vec<&str> = thread?.split("::").collect();
    let (last, before) = segments.split_last()?;
    if *last == name {
        return None;
    }
    let at = before.iter().rposition(|segment| *segment == name)?;
    Some(segments[at + 1..].join("-"))
}

/// For an unnamed snapshot taken at `marker` (a `type_name` path of an item the macro defines
/// there), under an rstest or test-case case: the current insta settings with the case as
/// snapshot suffix (unless one is set), bound until the guard drops, so each case has its own
/// file (`<file>__<test>@<case>.snap`) whatever order the cases run in. Not public API.
#[cfg(feature = "insta")]
#[doc(hidden)]
pub fn __case_guard(marker: &str) -> Option<insta::internals::SettingsBindDropGuard> {
    let function = marker.strip_suffix("::__mcp_test_snapshot_site")?;
    let case = __case_of(function, std::thread::current().name())?;
    let mut settings = insta::Settings::clone_current();
    if settings.snapshot_suffix().is_some() {
        return None;
    }
    settings.set_snapshot_suffix(case);
    Some(settings.bind_to_scope())
}

/// Snapshots a response with [`insta`](https://docs.rs/insta) after [`normalize`]: every
/// redaction of [`DEFAULT_REDACTIONS`] (ids, server info, request state, task ids and
/// timestamps) except those removed with [`Redactions`], then insta's own (those a
/// [`Redactions::add`] or `insta::Settings` bound, and the optional `{ selector =>
/// replacement }` block, exactly as in `insta::assert_json_snapshot!`). Takes an optional
/// snapshot name first, like `insta::assert_json_snapshot!`. Needs the `insta` feature.
///
/// An unnamed snapshot is named the way insta names one: after the function it is taken in,
/// `-2`, `-3`.. for the second and later in the same function. In an
/// [`#[mcp_test]`](macro@crate::mcp_test) test that is the test's own name, so every test of a
/// file gets its own snapshot files. In a case of an rstest or test-case test, the case's name
/// follows as insta's snapshot suffix: `<test file>__adds@case_1_small.snap` (rstest's
/// `#[case::small]`), `<test file>__divides@test_case_1_exact.snap` (test-case's
/// `; "exact"`), `-2`.. after it for the second and later in the same case, so each case has
/// its own files whatever order the cases run in (a suffix the test set in insta's settings
/// is kept instead). The snapshot's `expression` header is the response expression
/// as written.
///
/// ```ignore
/// #[mcp_test(server = weather)]
/// async fn forecast_paris(mcp: TestContext) {
///     let response = mcp.call_tool("forecast", json!({"city": "Paris"})).await;
///     // snapshots/<test file>__forecast_paris.snap, expression: response
///     mcp_test::assert_response_snapshot!(response);
///     // snapshots/<test file>__paris_named.snap
///     mcp_test::assert_response_snapshot!("paris_named", response);
///     // a redaction of this assertion's own
///     mcp_test::assert_response_snapshot!("paris_issued", response, {
///         ".result.structuredContent.issued" => "[issued]",
///     });
/// }
/// ```
#[cfg(feature = "insta")]
#[macro_export]
macro_rules! assert_response_snapshot {
    // No name: insta names the snapshot after the enclosing function, and a case of an rstest
    // or test-case test adds its name as the snapshot's suffix.
    ($response:expr, { $($selector:expr => $replacement:expr),* $(,)? } $(,)?) => {{
        fn __mcp_test_snapshot_site() {}
        let _case_guard = $crate::testing::__case_guard(::core::any::type_name_of_val(
            &__mcp_test_snapshot_site,
        ));
        $crate::assert_response_snapshot!(
            ::core::option::Option::None::<&str>,
            $response,
            { $($selector => $replacement),* }
        )
    }};
    ($response:expr $(,)?) => {{
        fn __mcp_test_snapshot_site() {}
        let _case_guard = $crate::testing::__case_guard(::core::any::type_name_of_val(
            &__mcp_test_snapshot_site,
        ));
        $crate::assert_response_snapshot!(::core::option::Option::None::<&str>, $response)
    }};
    // The third argument of insta's macro is what the snapshot's header shows as its
    // expression.
    ($name:expr, $response:expr, { $($selector:expr => $replacement:expr),* $(,)? } $(,)?) => {{
        let normalized_response = $crate::testing::normalize(&$response);
        $crate::__private::insta::assert_json_snapshot!(
            $name,
            normalized_response,
            { $($selector => $replacement),* },
            ::core::stringify!($response)
        )
    }};
    ($name:expr, $response:expr $(,)?) => {{
        let normalized_response = $crate::testing::normalize(&$response);
        $crate::__private::insta::assert_json_snapshot!(
            $name,
            normalized_response,
            ::core::stringify!($response)
        )
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_default_selector_names_its_path() {
        for rule in DEFAULT_REDACTIONS {
            let mut written = String::new();
            for key in rule.path {
                if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    written.push('.');
                    written.push_str(key);
                } else {
                    written.push_str(&format!("[{key:?}]"));
                }
            }
            assert_eq!(written, rule.selector);
        }
    }

    #[test]
    fn a_task_notification_is_redacted() {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": {
            "taskId": "abc", "status": "completed", "createdAt": "x", "lastUpdatedAt": "y",
            "_meta": {"io.modelcontextprotocol/subscriptionId": 3}}});
        assert_eq!(
            normalize(&note)["params"],
            json!({"taskId": "[taskId]", "status": "completed", "createdAt": "[createdAt]",
                "lastUpdatedAt": "[lastUpdatedAt]",
                "_meta": {"io.modelcontextprotocol/subscriptionId": "[subscriptionId]"}})
        );
    }

    #[test]
    fn a_bare_result_takes_the_result_redactions() {
        let bare = json!({"taskId": "abc", "status": "working", "params": {"taskId": "kept"}});
        assert_eq!(
            normalize(&bare),
            json!({"taskId": "[taskId]", "status": "working", "params": {"taskId": "kept"}})
        );
    }

    #[test]
    fn nested_bindings_add_up_and_unwind() {
        let message = json!({"jsonrpc": "2.0", "id": 1, "result": {"requestState": "s"}});
        let outer = Redactions::new().remove(".id").bind_to_scope();
        Redactions::new().remove(".result.requestState").bind(|| {
            assert_eq!(normalize(&message), message);
        });
        assert_eq!(
            normalize(&message)["result"]["requestState"],
            "[requestState]"
        );
        assert_eq!(normalize(&message)["id"], 1);
        drop(outer);
        assert_eq!(normalize(&message)["id"], "[id]");
    }

    #[test]
    fn a_case_is_what_the_test_name_has_past_the_function() {
        // rstest: `mod adds { fn case_1_small() }` calls the shared body `adds`.
        assert_eq!(
            __case_of("t::adds", Some("adds::case_1_small")).as_deref(),
            Some("case_1_small")
        );
        // #[mcp_test] nests its body in a fn of the same name; in a module.
        assert_eq!(
            __case_of("t::m::adds::adds::{{closure}}", Some("m::adds::case_2")).as_deref(),
            Some("case_2")
        );
        // rstest's matrix: a module per value.
        assert_eq!(
            __case_of("t::adds", Some("adds::a_1::b_2")).as_deref(),
            Some("a_1-b_2")
        );
        // A plain test (even in a module of its name), a helper, no thread name.
        assert_eq!(__case_of("t::adds::adds", Some("adds::adds")), None);
        assert_eq!(__case_of("t::adds", Some("adds")), None);
        assert_eq!(__case_of("t::check", Some("adds::case_1")), None);
        assert_eq!(__case_of("t::adds", Some("main")), None);
        assert_eq!(__case_of("t::adds", None), None);
    }

    #[test]
    fn removing_an_unknown_selector_lists_the_known_ones() {
        let err =
            std::panic::catch_unwind(|| Redactions::new().remove(".result.taskid")).unwrap_err();
        let message = err.downcast_ref::<String>().unwrap();
        assert!(message.contains(".result.taskid"), "{message}");
        assert!(message.contains(".result.taskId,"), "{message}");
    }
}
