//! The one shape every listed kind (tools, resources, resource templates, prompts) is
//! registered in: the definitions in list order, each beside who may see it and what serves it.

use super::serving::{optional_string, with_cache_hint};
use crate::authorization::{Access, Decision, ScopeChallenge};
use crate::context::Identity;
use crate::pagination;
use crate::prompts::PromptDefinition;
use crate::resources::{ResourceDefinition, ResourceTemplateDefinition};
use crate::wire::{CacheHint, ErrorObject, ToolDefinition};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// A definition with the unique key it is listed, looked up and paged by.
pub(crate) trait Keyed {
    /// The name, URI or URI template.
    fn key(&self) -> &str;
}

/// Each definition is keyed by the field named.
macro_rules! keyed_by {
    ($($definition:ty => $field:ident),* $(,)?) => {$(
        impl Keyed for $definition {
            fn key(&self) -> &str {
                &self.$field
            }
        }
    )*};
}

keyed_by!(
    ToolDefinition => name,
    ResourceDefinition => uri,
    ResourceTemplateDefinition => uri_template,
    PromptDefinition => name,
);

/// How one kind is listed: `{<field>: page, nextCursor?, ttlMs, cacheScope}` answering `method`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Listing {
    /// The list method, e.g. `tools/list` (named in cursor errors).
    pub(crate) method: &'static str,
    /// The result's array field, e.g. `tools`.
    pub(crate) field: &'static str,
    /// The cache hints of every page.
    pub(crate) cache: CacheHint,
}

/// What a caller finds under a key.
pub(crate) enum Found<'a, D, E> {
    /// The definition, which the caller may use.
    Usable(&'a D, &'a E),
    /// The definition is listed for the caller, who lacks a scope to use it.
    NeedsScope(ScopeChallenge),
    /// Nothing the caller may know of: unknown or hidden, exactly alike.
    Absent,
}

/// What serves one definition, and who may see it.
pub(crate) struct Entry<E> {
    /// Who may see and use the definition (see [`Decision`]).
    pub(crate) access: Access,
    /// The handler and whatever else serving it needs.
    pub(crate) served: E,
}

/// The registered definitions of one kind, in list order, each with its [`Entry`].
pub(crate) struct Registry<D, E> {
    definitions: Arc<[D]>,
    /// Parallel to `definitions`.
    entries: Vec<Entry<E>>,
    index: HashMap<String, usize>,
    fingerprint: u64,
    listing: Listing,
}

impl<D: Keyed + Serialize, E> Registry<D, E> {
    /// A registry of `items`, already in list order with unique keys (the builder checks both,
    /// naming the offender in its own words).
    pub(crate) fn new(items: Vec<(D, Entry<E>)>, listing: Listing) -> Self {
        let (definitions, entries): (Vec<D>, Vec<Entry<E>>) = items.into_iter().unzip();
        let index = definitions
            .iter()
            .enumerate()
            .map(|(i, d)| (d.key().to_owned(), i))
            .collect();
        let fingerprint = pagination::fingerprint(definitions.iter().map(Keyed::key));
        Registry {
            definitions: definitions.into(),
            entries,
            index,
            fingerprint,
            listing,
        }
    }

    /// Every definition, in list order, whoever may see it.
    pub(crate) fn definitions(&self) -> &Arc<[D]> {
        &self.definitions
    }

    /// Whether nothing of this kind is registered.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in list order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry<E>> {
        self.entries.iter()
    }

    /// Every definition with its entry, in list order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&D, &Entry<E>)> {
        self.definitions.iter().zip(self.entries.iter())
    }

    /// The definition and entry at `index` (list order).
    pub(crate) fn get(&self, index: usize) -> (&D, &Entry<E>) {
        (&self.definitions[index], &self.entries[index])
    }

    /// The definition under `key` as `identity` may use it: `None` when it is unknown,
    /// hidden or needs a scope the caller lacks.
    pub(crate) fn visible(&self, key: &str, identity: &Identity) -> Option<(&D, &E)> {
        match self.find(key, identity) {
            Found::Usable(definition, served) => Some((definition, served)),
            _ => None,
        }
    }

    /// What `identity` finds under `key`.
    pub(crate) fn find(&self, key: &str, identity: &Identity) -> Found<'_, D, E> {
        let Some(&i) = self.index.get(key) else {
            return Found::Absent;
        };
        let entry = &self.entries[i];
        match entry.access.decide(identity) {
            Decision::Allow => Found::Usable(&self.definitions[i], &entry.served),
            Decision::StepUp(challenge) => Found::NeedsScope(challenge),
            _ => Found::Absent,
        }
    }

    /// One page of the list as `identity` may see it, as the list method's result. The
    /// cursor's fingerprint covers the caller's view, so a cursor from another view is
    /// rejected.
    pub(crate) fn list(
        &self,
        identity: &Identity,
        params: &Map<String, Value>,
        page_size: usize,
    ) -> Result<Value, ErrorObject> {
        let cursor = optional_string(params, "cursor")?;
        let visible: Vec<&D> = self
            .definitions
            .iter()
            .zip(&self.entries)
            .filter(|(_, entry)| entry.access.lists_for(identity))
            .map(|(d, _)| d)
            .collect();
        let fingerprint = if visible.len() == self.definitions.len() {
            self.fingerprint
        } else {
            pagination::fingerprint(visible.iter().map(|d| d.key()))
        };
        let (page, next) = pagination::page(
            &visible,
            cursor,
            page_size,
            self.listing.method,
            fingerprint,
        )?;
        let mut result = json!({ self.listing.field: page });
        if let Some(next) = next {
            result["nextCursor"] = Value::from(next);
        }
        Ok(with_cache_hint(result, self.listing.cache))
    }
}
