//! Which listed tools `check` may call: each tool's [`ToolClass`], read from its annotations by
//! the defaults of server/tools.mdx (`ToolAnnotations`), the consent the [`CheckOptions`] give,
//! and the record of the tool names `check` actually sent in `tools/call` ([`Called`], filled
//! by the [`Recording`] target every session request goes through, and by the raw HTTP probes).
//!
//! The ladder, least to most: `--no-open-world` calls only read-only tools; the default also
//! calls open-world ones (read-only, but they may reach outside the machine, so the report marks
//! them); `--allow-writes` adds additive writes; `--allow-destructive` calls everything; `--tool
//! NAME` calls one named tool whatever its class. The annotations are hints a server gives about
//! itself: they decide what `check` holds back, and a server whose tool says it is read-only
//! when it writes is called as read-only.

use crate::CheckOptions;
use mcp_test::Caller;
use mcp_test::target::{Connection, Target, TargetFuture};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex};

/// What calling a tool may do, by its annotations read with the defaults of server/tools.mdx
/// (`readOnlyHint` false, `destructiveHint` true and meaningful only when not read-only,
/// `openWorldHint` true). A hint that is absent or not a boolean takes its default.
///
/// ```
/// use mcp_test_check::ToolClass;
/// use serde_json::json;
/// let read_only = json!({"name": "status", "annotations": {"readOnlyHint": true, "openWorldHint": false}});
/// assert_eq!(ToolClass::of(&read_only), ToolClass::ReadOnly);
/// let fetch = json!({"name": "fetch", "annotations": {"readOnlyHint": true}});
/// assert_eq!(ToolClass::of(&fetch), ToolClass::OpenWorld);
/// let commit = json!({"name": "commit", "annotations": {"destructiveHint": false}});
/// assert_eq!(ToolClass::of(&commit), ToolClass::AdditiveWrite);
/// assert_eq!(ToolClass::of(&json!({"name": "reset_hard"})), ToolClass::Destructive);
/// assert_eq!(ToolClass::AdditiveWrite.to_string(), "additive write");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolClass {
    /// `readOnlyHint: true` and `openWorldHint: false`: it changes nothing and stays on the
    /// machine. Called by default.
    ReadOnly,
    /// `readOnlyHint: true` with `openWorldHint` true or absent: it changes nothing here but
    /// may reach outside (the web, a paid API). Called by default and marked in the report;
    /// not called under `--no-open-world` ([`CheckOptions::open_world`]).
    OpenWorld,
    /// Not read-only, with `destructiveHint: false`: it writes, but only adds (server/tools.mdx:
    /// "If false, the tool performs only additive updates"). Called only under
    /// `--allow-writes` ([`CheckOptions::allow_writes`]).
    AdditiveWrite,
    /// Any other tool: by the spec's defaults it may destroy. Called only under
    /// `--allow-destructive` ([`CheckOptions::allow_destructive`]).
    Destructive,
}

impl ToolClass {
    /// The class of `tool`, a definition as `tools/list` gave it.
    pub fn of(tool: &Value) -> ToolClass {
        let hint = |key: &str| {
            tool.get("annotations")
                .and_then(|a| a.get(key))
                .and_then(Value::as_bool)
        };
        if hint("readOnlyHint") == Some(true) {
            if open_world(tool) {
                ToolClass::OpenWorld
            } else {
                ToolClass::ReadOnly
            }
        } else if hint("destructiveHint") == Some(false) {
            ToolClass::AdditiveWrite
        } else {
            ToolClass::Destructive
        }
    }

    /// Whether a call of it may change state (it is not `readOnlyHint: true`): the class of
    /// a tool whose outcome may depend on what an earlier call did.
    ///
    /// ```
    /// use mcp_test_check::ToolClass;
    /// use serde_json::json;
    /// let claim = json!({"name": "claim", "annotations": {"destructiveHint": false}});
    /// assert!(ToolClass::of(&claim).may_write());
    /// let read = json!({"name": "read", "annotations": {"readOnlyHint": true}});
    /// assert!(!ToolClass::of(&read).may_write());
    /// ```
    pub fn may_write(self) -> bool {
        matches!(self, ToolClass::AdditiveWrite | ToolClass::Destructive)
    }

    /// How the report names it: `read-only`, `open world`, `additive write`, `destructive`.
    pub fn name(self) -> &'static str {
        match self {
            ToolClass::ReadOnly => "read-only",
            ToolClass::OpenWorld => "open world",
            ToolClass::AdditiveWrite => "additive write",
            ToolClass::Destructive => "destructive",
        }
    }
}

impl fmt::Display for ToolClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `tool` may reach outside the machine: `openWorldHint` true or absent (its default
/// is true, server/tools.mdx).
pub(crate) fn open_world(tool: &Value) -> bool {
    tool.get("annotations")
        .and_then(|a| a.get("openWorldHint"))
        .and_then(Value::as_bool)
        != Some(false)
}

/// The consent a user gives to call tools, by class: what `check` calls, and what
/// `generate --verify` verifies. The default calls read-only tools, open-world ones included.
///
/// ```
/// use mcp_test_check::{CheckOptions, Consent};
/// let consent = Consent::default();
/// assert!(consent.open_world && !consent.allow_writes && !consent.allow_destructive);
/// let writes = Consent::from(&CheckOptions::default().allow_writes(true));
/// assert!(writes.allow_writes);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Consent {
    /// Call open-world tools (`--no-open-world` is `false`).
    pub open_world: bool,
    /// Also call additive writes (`--allow-writes`).
    pub allow_writes: bool,
    /// Call every tool (`--allow-destructive`).
    pub allow_destructive: bool,
    /// Tools to call whatever their class (`--tool NAME`).
    pub allow_tools: Vec<String>,
}

impl Default for Consent {
    fn default() -> Self {
        Consent {
            open_world: true,
            allow_writes: false,
            allow_destructive: false,
            allow_tools: Vec::new(),
        }
    }
}

impl From<&CheckOptions> for Consent {
    fn from(options: &CheckOptions) -> Self {
        Consent {
            open_world: options.open_world,
            allow_writes: options.allow_writes,
            allow_destructive: options.allow_destructive,
            allow_tools: options.allow_tools.clone(),
        }
    }
}

impl Consent {
    /// Whether this consent lets a tool be called: `Err` says why not and which flags would.
    ///
    /// ```
    /// use mcp_test_check::Consent;
    /// use serde_json::json;
    /// let commit = json!({"name": "commit", "annotations": {"destructiveHint": false}});
    /// let held = Consent::default().allows(&commit).unwrap_err();
    /// assert!(held.contains("--allow-writes"), "{held}");
    /// let status = json!({"name": "status", "annotations": {"readOnlyHint": true}});
    /// assert!(Consent::default().allows(&status).is_ok());
    /// ```
    pub fn allows(&self, tool: &Value) -> Result<(), String> {
        consent_for(tool, self)
            .map_err(|held| format!("{}; {} would allow it", held.why, held.allow_with))
    }
}

/// Whether `options` let `check` call `tool`, a definition as listed: [`consent`] by its
/// class, except that a tool annotated read-only whose name or description says it deletes,
/// writes, sends or executes (`annotations/read-only-contradicted`) is held back as a
/// potentially destructive write (`--allow-destructive` or `--tool NAME` call it): its hints
/// are not to be trusted.
///
/// ```text
/// delete_everything, readOnlyHint: true  ->  not called: "its annotations say read-only,
/// but its name "delete_everything" begins with "delete" ..."
/// ```
pub(crate) fn consent_for(tool: &Value, options: &Consent) -> Result<(), Held> {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
    if let Some(why) = crate::annotations::read_only_contradicted(tool) {
        // Its hints are not to be trusted: a write that may destroy, by the spec's defaults.
        return consent(name, ToolClass::Destructive, open_world(tool), options).map_err(|held| {
            Held {
                why: format!(
                    "its annotations say read-only (readOnlyHint: true), but {why}, so check treats it as a write (security rule annotations/read-only-contradicted); {}",
                    held.why
                ),
                allow_with: held.allow_with,
            }
        });
    }
    consent(name, ToolClass::of(tool), open_world(tool), options)
}

/// Why consent held a tool back, and what would let `check` call it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Held {
    /// Why it is not called.
    pub(crate) why: String,
    /// The flags that would call it, as the command line spells them.
    pub(crate) allow_with: String,
}

/// Whether `options` let `check` call the tool `name` of class `class` (reaching outside the
/// machine or not): `Ok(())`, or why not and what would.
pub(crate) fn consent(
    name: &str,
    class: ToolClass,
    open_world: bool,
    options: &Consent,
) -> Result<(), Held> {
    if options.allow_tools.iter().any(|t| t == name) {
        return Ok(());
    }
    let by_class = match class {
        ToolClass::ReadOnly | ToolClass::OpenWorld => None,
        ToolClass::AdditiveWrite if options.allow_writes || options.allow_destructive => None,
        ToolClass::AdditiveWrite => Some((
            "--allow-writes",
            "it writes (destructiveHint: false: only additive updates, server/tools.mdx)",
        )),
        ToolClass::Destructive if options.allow_destructive => None,
        ToolClass::Destructive => Some((
            "--allow-destructive",
            "potentially destructive (neither readOnlyHint: true nor destructiveHint: false; by the defaults of server/tools.mdx a tool is)",
        )),
    };
    let outside = "it may reach outside this machine (openWorldHint true or absent) and --no-open-world was given";
    let (why, allow_with) = match (by_class, open_world && !options.open_world) {
        (None, false) => return Ok(()),
        (Some((flag, why)), false) => (why.to_owned(), format!("{flag} or --tool {name}")),
        (None, true) => (
            outside.to_owned(),
            format!("dropping --no-open-world, or --tool {name}"),
        ),
        (Some((flag, why)), true) => (
            format!("{why}; and {outside}"),
            format!("{flag} without --no-open-world, or --tool {name}"),
        ),
    };
    Err(Held { why, allow_with })
}

/// The tool names `check` sent in `tools/call` requests, shared by every sender of a check.
#[derive(Clone, Debug, Default)]
pub(crate) struct Called(Arc<Mutex<BTreeSet<String>>>);

impl Called {
    /// Records the tool named by `message` when it is a `tools/call` request (or a batch
    /// holding some).
    pub(crate) fn record(&self, message: &Value) {
        let mut names = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let one = |m: &Value| {
            (m.get("method").and_then(Value::as_str) == Some("tools/call"))
                .then(|| m.pointer("/params/name").and_then(Value::as_str))
                .flatten()
                .map(str::to_owned)
        };
        match message {
            Value::Array(batch) => names.extend(batch.iter().filter_map(one)),
            m => names.extend(one(m)),
        }
    }

    /// Records a `tools/call` of `name` sent outside the session (the raw HTTP probes).
    pub(crate) fn record_name(&self, name: &str) {
        let mut names = self.0.lock().unwrap_or_else(|e| e.into_inner());
        names.insert(name.to_owned());
    }

    /// Whether a `tools/call` of `name` was sent.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(name)
    }
}

/// A target that records, in [`Called`], the tool of every `tools/call` sent through it,
/// shows every exchange to `watch` (the session's security watcher, `security::watch`), and
/// forwards everything to the target it wraps.
pub(crate) struct Recording<'a> {
    pub(crate) inner: &'a dyn Target,
    pub(crate) called: Called,
    pub(crate) watch: Option<Observer>,
}

/// Told each message sent, its response and the notifications that came with it.
pub(crate) type Observer = Arc<dyn Fn(&Value, Option<&Value>, &[Value]) + Send + Sync>;

impl Target for Recording<'_> {
    fn label(&self) -> String {
        self.inner.label()
    }

    fn send<'a>(&'a self, message: &'a Value, caller: &'a Caller) -> TargetFuture<'a> {
        self.called.record(message);
        let Some(watch) = &self.watch else {
            return self.inner.send(message, caller);
        };
        Box::pin(async move {
            let exchange = self.inner.send(message, caller).await?;
            watch(message, exchange.response.as_ref(), &exchange.notifications);
            Ok(exchange)
        })
    }

    fn send_text<'a>(&'a self, text: &'a str, caller: &'a Caller) -> TargetFuture<'a> {
        self.inner.send_text(text, caller)
    }

    fn connection(&self) -> Connection {
        self.inner.connection()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_read_only_tool_that_says_it_deletes_is_called_only_when_named() {
        let lying = json!({"name": "delete_everything", "annotations": {"readOnlyHint": true}});
        let held = consent_for(&lying, &Consent::default()).unwrap_err();
        assert!(held.why.contains("read-only-contradicted"), "{}", held.why);
        assert_eq!(
            held.allow_with,
            "--allow-destructive or --tool delete_everything"
        );
        let writes = Consent {
            allow_writes: true,
            ..Consent::default()
        };
        assert!(consent_for(&lying, &writes).is_err());
        let named = Consent {
            allow_tools: vec!["delete_everything".into()],
            ..Consent::default()
        };
        assert!(consent_for(&lying, &named).is_ok());
        let honest = json!({"name": "status", "annotations": {"readOnlyHint": true}});
        assert!(consent_for(&honest, &Consent::default()).is_ok());
    }

    fn tool(annotations: Value) -> Value {
        json!({"name": "t", "annotations": annotations})
    }

    #[test]
    fn classes_follow_the_defaults_of_the_spec() {
        use ToolClass::*;
        let cases = [
            (
                json!({"readOnlyHint": true, "openWorldHint": false}),
                ReadOnly,
            ),
            (json!({"readOnlyHint": true}), OpenWorld),
            (
                json!({"readOnlyHint": true, "openWorldHint": true}),
                OpenWorld,
            ),
            // destructiveHint means nothing on a read-only tool.
            (
                json!({"readOnlyHint": true, "destructiveHint": true, "openWorldHint": false}),
                ReadOnly,
            ),
            (json!({"destructiveHint": false}), AdditiveWrite),
            (
                json!({"readOnlyHint": false, "destructiveHint": false}),
                AdditiveWrite,
            ),
            (json!({}), Destructive),
            (json!({"destructiveHint": true}), Destructive),
            (
                json!({"idempotentHint": true, "openWorldHint": false}),
                Destructive,
            ),
            // A hint that is not a boolean takes its default.
            (
                json!({"readOnlyHint": "true", "destructiveHint": 0}),
                Destructive,
            ),
        ];
        for (annotations, class) in cases {
            assert_eq!(
                ToolClass::of(&tool(annotations.clone())),
                class,
                "{annotations}"
            );
        }
        assert_eq!(ToolClass::of(&json!({"name": "bare"})), Destructive);
        assert_eq!(ToolClass::of(&json!({"annotations": null})), Destructive);
    }

    #[test]
    fn each_flag_adds_its_class_and_a_named_tool_is_always_allowed() {
        use ToolClass::*;
        let default = CheckOptions::default();
        let closed = CheckOptions::default().open_world(false);
        let writes = CheckOptions::default().allow_writes(true);
        let all = CheckOptions::default().allow_destructive(true);
        let named = CheckOptions::default().allow_tools(["t"]);
        let ok = |class, world, o: &CheckOptions| consent("t", class, world, &o.into()).is_ok();
        assert!(ok(ReadOnly, false, &closed));
        assert!(ok(OpenWorld, true, &default) && !ok(OpenWorld, true, &closed));
        assert!(!ok(AdditiveWrite, false, &default) && ok(AdditiveWrite, false, &writes));
        assert!(ok(AdditiveWrite, false, &all));
        assert!(!ok(Destructive, false, &writes) && ok(Destructive, false, &all));
        // --no-open-world holds back a write that reaches outside too.
        let closed_writes = CheckOptions::default().allow_writes(true).open_world(false);
        assert!(!ok(AdditiveWrite, true, &closed_writes));
        assert!(ok(AdditiveWrite, false, &closed_writes));
        for class in [ReadOnly, OpenWorld, AdditiveWrite, Destructive] {
            assert!(ok(class, true, &named.clone().open_world(false)));
        }
        let flags = |name, class, world, o: &CheckOptions| {
            consent(name, class, world, &o.into())
                .unwrap_err()
                .allow_with
        };
        assert_eq!(
            flags("commit", AdditiveWrite, false, &default),
            "--allow-writes or --tool commit"
        );
        assert_eq!(
            flags("reset", Destructive, true, &closed),
            "--allow-destructive without --no-open-world, or --tool reset"
        );
        assert_eq!(
            flags("fetch", OpenWorld, true, &closed),
            "dropping --no-open-world, or --tool fetch"
        );
    }

    #[test]
    fn only_tools_call_requests_are_recorded() {
        let called = Called::default();
        called.record(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                              "params": {"name": "status", "arguments": {}}}));
        called.record(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
                              "params": {"name": "listed"}}));
        called.record(
            &json!([{"method": "tools/call", "params": {"name": "batched"}},
                              {"method": "ping"}]),
        );
        called.record(&json!({"method": "tools/call", "params": {}}));
        assert!(called.contains("status") && called.contains("batched"));
        assert!(!called.contains("listed"));
    }
}
