//! Per-definition authorization: who may see and use a tool, resource, resource template or
//! prompt.
//!
//! An [`Access`] rule is attached to a definition when it is registered. It is checked against
//! the request's [`Identity`] (principal, tenant, scopes, host context), which the transport or
//! the test supplies: never against anything in the request body. For one caller a rule
//! decides one of three things ([`Access::decide`], a [`Decision`]):
//!
//! | the caller | lists | `tools/call`, `resources/read`, `prompts/get`, `completion/complete` |
//! |---|---|---|
//! | is allowed | listed | served |
//! | passes every [`authorize`](Access::authorize) callback but lacks a scope | **listed** | refused naming the scopes it needs ([`Decision::StepUp`]): over HTTP behind an [`Authenticator`](crate::transport::http::Authenticator), **403** with `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`; in band (in process, stdio, HTTP without an authenticator) the JSON-RPC error below |
//! | is refused by a callback, or lacks a scope of a rule made [`hidden_without_scope`](Access::hidden_without_scope) | left out | answered exactly as a name or URI never registered: -32602 `Unknown tool: x`, -32602 `Resource not found` with `data.uri`, -32602 `Unknown prompt: x` ([`Decision::Hide`]) |
//!
//! # Why a definition behind a scope is listed
//!
//! The authorization spec's step-up flow (`basic/authorization/index.mdx` §Scope Challenge
//! Handling) has a client start with the scopes of the 401 challenge or `scopes_supported`,
//! "the minimal set of scopes necessary for basic functionality", and ask for more when an
//! operation answers 403 `insufficient_scope` naming them. A client can only reach that
//! answer for a tool it knows exists: hide the write tool from a read-only token and the
//! client never calls it, never sees the challenge, and never steps up; a model choosing
//! tools does not know the tool is there to ask the user for. Scopes are no secret either:
//! the server publishes them in its protected-resource metadata and in every challenge. So a
//! scope alone does not hide a definition; its name and schema are listed to everyone the
//! callbacks allow, and only its use is refused, with what it needs.
//!
//! A callback ([`authorize`](Access::authorize): a tenant, a role, a host's own rule) is
//! different: what it guards is usually that the thing exists at all (another tenant's
//! files), and no token a client could ask for would change the answer. A definition a
//! callback refuses **does not exist** for that caller, and so does one whose rule is
//! [`hidden_without_scope`](Access::hidden_without_scope), for names that are themselves
//! confidential. A distinct "forbidden" error there would tell any caller which names exist.
//!
//! # The in-band error
//!
//! A caller that lacks a scope gets -32602 (the code MCP 2026-07-28 uses for a request it
//! cannot serve as asked, as for an unknown tool: codes -32020 to -32099 are reserved for the
//! spec and -32000 to -32019 are legacy) whose `data` carries the RFC 6750 parameters of the
//! challenge an HTTP client gets:
//!
//! ```json
//! {"code": -32602,
//!  "message": "Insufficient scope: tool delete_note needs scope notes.write (the caller lacks notes.write)",
//!  "data": {"error": "insufficient_scope", "scope": "notes.write", "name": "delete_note"}}
//! ```
//!
//! `scope` is every scope of the rule's scope set the caller came closest to (the one with
//! the fewest scopes missing, the first given on a tie), space-separated as in a challenge;
//! `name` (tools and prompts) or `uri` (resources and templates) names what was asked for.
//! Over HTTP with an authenticator the transport answers that error with 403 and the
//! authenticator's challenge ([`Authenticator::insufficient_scope`](crate::transport::http::Authenticator::insufficient_scope)),
//! the JSON-RPC error as the body.
//!
//! Lists vary only by authorization: the same identity always sees the same list, whatever it
//! requested before. Their pages are paginated over the caller's view, and a cursor minted for
//! one view is rejected in another.
//!
//! ```
//! use mcp_test::authorization::Decision;
//! use mcp_test::{Access, Identity};
//!
//! // items.read and items.list, or both admin and audit.
//! let rule = Access::scopes(["items.read", "items.list"]).or_scopes(["admin", "audit"]);
//! assert!(rule.allows(&Identity::principal("a").with_scopes(["items.list", "items.read"])));
//! assert!(rule.allows(&Identity::principal("b").with_scopes(["audit", "admin"])));
//! assert!(!rule.allows(&Identity::principal("c").with_scopes(["admin"])));
//! // c is one scope away from admin + audit (two from the other set): the set it is told
//! // to ask for.
//! let Decision::StepUp(challenge) = rule.decide(&Identity::principal("c").with_scopes(["admin"]))
//! else {
//!     panic!("c lacks a scope")
//! };
//! assert_eq!(challenge.scope(), "admin audit");
//! assert_eq!(challenge.missing, ["audit"]);
//!
//! // Scopes and a callback must both agree; the callback's refusal hides.
//! let acme_only = Access::scopes(["items.read"])
//!     .authorize(|who: &Identity| who.tenant.as_deref() == Some("acme"));
//! let alice = Identity::principal("alice").with_scopes(["items.read"]);
//! assert!(acme_only.allows(&alice.clone().with_tenant("acme")));
//! assert_eq!(acme_only.decide(&alice.with_tenant("globex")), Decision::Hide);
//!
//! // A rule whose names are confidential hides from a caller without the scope.
//! let secret = Access::scopes(["ops.admin"]).hidden_without_scope();
//! assert_eq!(secret.decide(&Identity::anonymous()), Decision::Hide);
//!
//! assert!(Access::public().allows(&Identity::anonymous()));
//! ```

use crate::context::Identity;
use crate::wire::{ErrorObject, error_codes};
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;

type Predicate = Arc<dyn Fn(&Identity) -> bool + Send + Sync>;

/// Who may see and use a definition: alternative scope sets and/or a callback on the caller's
/// [`Identity`]. See the [module docs](self).
///
/// A caller is allowed when
/// - no scope set was given, or it holds **every** scope of **at least one** set; and
/// - every [`authorize`](Access::authorize) callback returns `true`.
///
/// A caller the callbacks allow but who lacks a scope still sees the definition listed, and
/// is told which scopes to ask for when it uses it ([`Decision::StepUp`]), unless the rule is
/// [`hidden_without_scope`](Access::hidden_without_scope).
#[derive(Clone, Default)]
pub struct Access {
    scope_sets: Vec<Vec<String>>,
    predicates: Vec<Predicate>,
    hidden: bool,
}

/// What an [`Access`] rule decides for one caller ([`Access::decide`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decision {
    /// Listed and served.
    Allow,
    /// Listed, but its use is refused until the caller holds more scopes: over HTTP a 403
    /// `insufficient_scope` challenge naming them, in band a JSON-RPC error (see the
    /// [module docs](self)).
    StepUp(ScopeChallenge),
    /// For this caller it does not exist: left out of lists, and answered as a name never
    /// registered.
    Hide,
}

/// The scopes a caller must ask for to use a definition it may see (RFC 6750 §3.1
/// `insufficient_scope`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScopeChallenge {
    /// Every scope of the rule's scope set the caller came closest to, in the order given:
    /// what the challenge's `scope` names.
    pub scopes: Vec<String>,
    /// Those of `scopes` the caller lacks (never empty).
    pub missing: Vec<String>,
}

impl ScopeChallenge {
    /// [`scopes`](Self::scopes) space-separated, as a challenge's `scope` parameter.
    pub fn scope(&self) -> String {
        self.scopes.join(" ")
    }

    /// The in-band error for using `what` (`"tool x"`, `"resource a://b"`), whose `data`
    /// names it under `key` (`name` or `uri`): -32602 with `data.error`
    /// `"insufficient_scope"` and `data.scope`.
    pub(crate) fn error(&self, what: &str, key: &str, value: &str) -> ErrorObject {
        let plural = |n: usize| if n == 1 { "scope" } else { "scopes" };
        let mut data = json!({ "error": INSUFFICIENT_SCOPE, "scope": self.scope() });
        data[key] = Value::from(value);
        ErrorObject::invalid_params(format!(
            "Insufficient scope: {what} needs {} {} (the caller lacks {})",
            plural(self.scopes.len()),
            self.scope(),
            self.missing.join(" ")
        ))
        .with_data(data)
    }

    /// The scopes an in-band insufficient-scope error names: `Some` for -32602 whose `data`
    /// has `error: "insufficient_scope"` and a non-empty string `scope`.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn named_by(error: &ErrorObject) -> Option<Vec<String>> {
        if error.code != error_codes::INVALID_PARAMS {
            return None;
        }
        let data = error.data.as_ref()?;
        if data.get("error").and_then(Value::as_str) != Some(INSUFFICIENT_SCOPE) {
            return None;
        }
        let scopes: Vec<String> = data
            .get("scope")
            .and_then(Value::as_str)?
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        (!scopes.is_empty()).then_some(scopes)
    }
}

/// The RFC 6750 error code of a token without the scope a request needs.
pub(crate) const INSUFFICIENT_SCOPE: &str = "insufficient_scope";

impl Access {
    /// Everyone, anonymous callers included (the default).
    pub fn public() -> Self {
        Access::default()
    }

    /// Callers holding every one of `scopes`; others see the definition listed and are told
    /// to ask for them when they use it (see the [module docs](self)).
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

    /// A caller without the scopes sees the definition as not existing (left out of lists,
    /// answered as a name never registered) rather than listed and challenged for the scopes:
    /// for definitions whose very names are confidential. The client cannot then step up to
    /// it (see the [module docs](self) for why that is not the default).
    ///
    /// ```
    /// use mcp_test::authorization::Decision;
    /// use mcp_test::{Access, Identity};
    /// let rule = Access::scopes(["ops.admin"]).hidden_without_scope();
    /// assert_eq!(rule.decide(&Identity::principal("a")), Decision::Hide);
    /// let admin = Identity::principal("root").with_scopes(["ops.admin"]);
    /// assert_eq!(rule.decide(&admin), Decision::Allow);
    /// ```
    #[must_use]
    pub fn hidden_without_scope(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// Adds a callback that must also allow the caller. It sees the whole [`Identity`]:
    /// principal, tenant, scopes and host context. It must be a pure function of the identity
    /// (lists may not vary by anything else). A caller it refuses sees the definition as not
    /// existing.
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
        self.decide(identity) == Decision::Allow
    }

    /// Whether `identity` sees the definition listed (allowed, or challenged for a scope).
    pub fn lists_for(&self, identity: &Identity) -> bool {
        self.decide(identity) != Decision::Hide
    }

    /// What the rule decides for `identity`: the callbacks first (a refusal hides), then the
    /// scope sets (none held: a step-up naming the set with the fewest scopes missing, the
    /// first given on a tie, or a hiding for a rule made
    /// [`hidden_without_scope`](Self::hidden_without_scope)).
    pub fn decide(&self, identity: &Identity) -> Decision {
        if !self.predicates.iter().all(|allow| allow(identity)) {
            return Decision::Hide;
        }
        let mut closest: Option<(&Vec<String>, Vec<String>)> = None;
        for set in &self.scope_sets {
            let missing: Vec<String> = set
                .iter()
                .filter(|s| !identity.has_scope(s))
                .cloned()
                .collect();
            if missing.is_empty() {
                return Decision::Allow;
            }
            if closest
                .as_ref()
                .is_none_or(|(_, fewest)| missing.len() < fewest.len())
            {
                closest = Some((set, missing));
            }
        }
        match closest {
            None => Decision::Allow,
            Some(_) if self.hidden => Decision::Hide,
            Some((set, missing)) => Decision::StepUp(ScopeChallenge {
                scopes: set.clone(),
                missing,
            }),
        }
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
            .field("hidden_without_scope", &self.hidden)
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

    #[test]
    fn a_step_up_names_the_closest_set_and_round_trips_through_its_error() {
        let rule = Access::scopes(["a", "b", "c"]).or_scopes(["d", "e"]);
        let who = Identity::principal("p").with_scopes(["a", "d"]);
        let Decision::StepUp(challenge) = rule.decide(&who) else {
            panic!("a step-up")
        };
        assert_eq!(challenge.scopes, ["d", "e"]);
        assert_eq!(challenge.missing, ["e"]);
        // A tie goes to the first set given.
        let tie = Access::scopes(["x"]).or_scopes(["y"]);
        let Decision::StepUp(first) = tie.decide(&Identity::anonymous()) else {
            panic!("a step-up")
        };
        assert_eq!(first.scope(), "x");

        let error = challenge.error("tool t", "name", "t");
        assert_eq!(error.code, -32602);
        assert_eq!(
            error.message,
            "Insufficient scope: tool t needs scopes d e (the caller lacks e)"
        );
        assert_eq!(error.data.as_ref().unwrap()["name"], "t");
        assert_eq!(ScopeChallenge::named_by(&error).unwrap(), ["d", "e"]);
        // Only that shape names scopes.
        let mut other = error.clone();
        other.code = -32603;
        assert_eq!(ScopeChallenge::named_by(&other), None);
        let blank = ErrorObject::invalid_params("x")
            .with_data(json!({"error": "insufficient_scope", "scope": " "}));
        assert_eq!(ScopeChallenge::named_by(&blank), None);
        assert_eq!(
            ScopeChallenge::named_by(&ErrorObject::invalid_params("Unknown tool: t")),
            None
        );
    }

    #[test]
    fn a_callback_refusal_hides_even_with_the_scopes() {
        let rule = Access::scopes(["s"]).authorize(|_: &Identity| false);
        assert_eq!(rule.decide(&Identity::anonymous()), Decision::Hide);
        assert!(!rule.lists_for(&Identity::principal("p").with_scopes(["s"])));
        let listed = Access::scopes(["s"]);
        assert!(listed.lists_for(&Identity::anonymous()));
        assert!(!listed.allows(&Identity::anonymous()));
    }
}
