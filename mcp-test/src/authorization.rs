//! Per-definition authorization: who may see and use a tool, resource, resource template or
//! prompt.
//!
//! An [`Access`] rule is attached to a definition when it is registered. It is checked against
//! the request's [`Identity`] (principal, tenant, scopes, host context), which the transport or
//! the test supplies: never against anything in the request body.
//!
//! # What a denied caller sees
//!
//! A definition the caller may not use **does not exist** for that caller:
//!
//! - the lists (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`)
//!   leave it out;
//! - `tools/call`, `resources/read`, `prompts/get` and `completion/complete` answer exactly as
//!   for a name or URI that was never registered: -32602 `Unknown tool: x`, -32602
//!   `Resource not found` with `data.uri`, -32602 `Unknown prompt: x`.
//!
//! Why not a distinct "forbidden" error: MCP 2026-07-28 defines no such code (codes -32020 to
//! -32099 are reserved for the spec, -32000 to -32019 are legacy), and a distinct answer would
//! tell any caller which names exist, so a denied caller could enumerate them. Authentication
//! failures (no or bad credentials) belong to the transport (HTTP 401/403 before any JSON-RPC),
//! not to this per-definition layer.
//!
//! Lists vary only by authorization: the same identity always sees the same list, whatever it
//! requested before. Their pages are paginated over the caller's view, and a cursor minted for
//! one view is rejected in another.
//!
//! ```
//! use mcp_test::{Access, Identity};
//!
//! // items.read, or both admin and audit.
//! let rule = Access::scopes(["items.read"]).or_scopes(["admin", "audit"]);
//! assert!(rule.allows(&Identity::principal("a").with_scopes(["items.read"])));
//! assert!(rule.allows(&Identity::principal("b").with_scopes(["audit", "admin"])));
//! assert!(!rule.allows(&Identity::principal("c").with_scopes(["admin"])));
//!
//! // Scopes and a callback must both agree.
//! let acme_only = Access::scopes(["items.read"])
//!     .authorize(|who: &Identity| who.tenant.as_deref() == Some("acme"));
//! let alice = Identity::principal("alice").with_scopes(["items.read"]);
//! assert!(acme_only.allows(&alice.clone().with_tenant("acme")));
//! assert!(!acme_only.allows(&alice.with_tenant("globex")));
//!
//! assert!(Access::public().allows(&Identity::anonymous()));
//! ```

use crate::context::Identity;
use std::fmt;
use std::sync::Arc;

type Predicate = Arc<dyn Fn(&Identity) -> bool + Send + Sync>;

/// Who may see and use a definition: alternative scope sets and/or a callback on the caller's
/// [`Identity`]. See the [module docs](self).
///
/// A caller is allowed when
/// - no scope set was given, or it holds **every** scope of **at least one** set; and
/// - every [`authorize`](Access::authorize) callback returns `true`.
#[derive(Clone, Default)]
pub struct Access {
    scope_sets: Vec<Vec<String>>,
    predicates: Vec<Predicate>,
}

impl Access {
    /// Everyone, anonymous callers included (the default).
    pub fn public() -> Self {
        Access::default()
    }

    /// Callers holding every one of `scopes`.
    pub fn scopes(scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Access::public().or_scopes(scopes)
    }

    /// Adds an alternative scope set: callers holding every one of `scopes` are also allowed.
    #[must_use]
    pub fn or_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scope_sets
            .push(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Adds a callback that must also allow the caller. It sees the whole [`Identity`]:
    /// principal, tenant, scopes and host context. It must be a pure function of the identity
    /// (lists may not vary by anything else).
    ///
    /// ```
    /// use mcp_test::{Access, Identity};
    /// let staff = Access::public().authorize(|who: &Identity| {
    ///     who.host_context.get("role").and_then(|r| r.as_str()) == Some("staff")
    /// });
    /// let mut ctx = serde_json::Map::new();
    /// ctx.insert("role".into(), "staff".into());
    /// assert!(staff.allows(&Identity::principal("s").with_host_context(ctx)));
    /// assert!(!staff.allows(&Identity::anonymous()));
    /// ```
    #[must_use]
    pub fn authorize(mut self, allow: impl Fn(&Identity) -> bool + Send + Sync + 'static) -> Self {
        self.predicates.push(Arc::new(allow));
        self
    }

    /// Whether `identity` may see and use the definition.
    pub fn allows(&self, identity: &Identity) -> bool {
        let scopes_ok = self.scope_sets.is_empty()
            || self
                .scope_sets
                .iter()
                .any(|set| set.iter().all(|s| identity.has_scope(s)));
        scopes_ok && self.predicates.iter().all(|allow| allow(identity))
    }

    /// Whether everyone is allowed (no scope set and no callback).
    pub fn is_public(&self) -> bool {
        self.scope_sets.is_empty() && self.predicates.is_empty()
    }
}

impl fmt::Debug for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Access")
            .field("scope_sets", &self.scope_sets)
            .field("callbacks", &self.predicates.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_scope_set_allows_everyone_but_callbacks_still_apply() {
        let empty = Access::scopes(Vec::<String>::new());
        assert!(empty.allows(&Identity::anonymous()));
        assert!(!empty.is_public());
        let never = Access::public().authorize(|_: &Identity| false);
        assert!(!never.allows(&Identity::principal("root").with_scopes(["*"])));
    }

    #[test]
    fn every_callback_must_agree() {
        let rule = Access::public()
            .authorize(|w: &Identity| w.principal.is_some())
            .authorize(|w: &Identity| w.tenant.is_some());
        assert!(!rule.allows(&Identity::principal("a")));
        assert!(rule.allows(&Identity::principal("a").with_tenant("t")));
    }
}
