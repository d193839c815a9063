//! What a diff finds: each [`Change`] with its [`Class`] and [`Location`], and the whole
//! [`Drift`].

use serde::Serialize;

/// How much a change can hurt a client that worked before it. Ordered: `Cosmetic <
/// Additive < Breaking`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Nothing a client can observe changes: a description, a title, the order of a list,
    /// a schema rewritten to accept exactly the same values.
    Cosmetic,
    /// Something new that no working client can trip over: a new tool, an optional input,
    /// a loosened input constraint, a safety promise added.
    Additive,
    /// A client that worked can now fail or be harmed: something removed or renamed, a new
    /// required input, an input narrowed, an output widened, a safety promise withdrawn;
    /// and any change that could not be proven compatible.
    Breaking,
}

impl Class {
    /// `"breaking"`, `"additive"` or `"cosmetic"`.
    ///
    /// ```
    /// use mcp_test::surface::Class;
    /// assert_eq!(Class::Breaking.as_str(), "breaking");
    /// assert!(Class::Breaking > Class::Additive && Class::Additive > Class::Cosmetic);
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Cosmetic => "cosmetic",
            Class::Additive => "additive",
            Class::Breaking => "breaking",
        }
    }

    /// Worst first: the order reports list the classes in.
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Additive, Class::Cosmetic];
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which kind of item a change is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ItemKind {
    /// A tool, named by `name`.
    Tool,
    /// A prompt, named by `name`.
    Prompt,
    /// A resource, named by `uri`.
    Resource,
    /// A resource template, named by `uriTemplate`.
    ResourceTemplate,
    /// The server's capabilities (the item's name is empty).
    Capabilities,
}

impl ItemKind {
    /// The kind in words: "tool", "resource template", "capabilities".
    pub fn noun(self) -> &'static str {
        match self {
            ItemKind::Tool => "tool",
            ItemKind::Prompt => "prompt",
            ItemKind::Resource => "resource",
            ItemKind::ResourceTemplate => "resource template",
            ItemKind::Capabilities => "capabilities",
        }
    }
}

/// One variant of a tagged union a change is inside: the tag property and the value that
/// selects the variant. An action tool of `#[derive(Tool)]` (`{"action": "post", "data":
/// {...}}`) has one variant per action, tag `action`; so do the `oneOf`s schemars and rmcp
/// publish for internally and adjacently tagged enums, tagged by their `tag` property.
///
/// ```
/// use mcp_test::surface::Variant;
/// assert_eq!(Variant::new("action", "post").to_string(), "action=post");
/// assert_eq!(Variant::new("kind", "two words").to_string(), r#"kind="two words""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[non_exhaustive]
pub struct Variant {
    /// The tag property's name, e.g. `action`.
    pub tag: String,
    /// The tag's value that selects the variant, e.g. `post`.
    pub value: String,
}

impl Variant {
    /// The variant selected by `tag` = `value`.
    pub fn new(tag: impl Into<String>, value: impl Into<String>) -> Self {
        Variant {
            tag: tag.into(),
            value: value.into(),
        }
    }
}

impl std::fmt::Display for Variant {
    /// `action=post`; a value that is empty or holds a space, `=` or `"` is quoted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plain = !self.value.is_empty()
            && !self
                .value
                .chars()
                .any(|c| c.is_whitespace() || c == '=' || c == '"');
        if plain {
            write!(f, "{}={}", self.tag, self.value)
        } else {
            write!(f, "{}={:?}", self.tag, self.value)
        }
    }
}

/// Where a change is: the item (its kind and name), a JSON pointer into it, e.g. tool
/// `forecast` at `/inputSchema/properties/city/maxLength`, and the variants of tagged unions
/// the place is inside, e.g. `action=post` for a change inside one action of an action tool.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[non_exhaustive]
pub struct Location {
    /// The kind of item.
    pub kind: ItemKind,
    /// Its name (`name`, `uri` or `uriTemplate`); empty for the capabilities.
    pub item: String,
    /// A JSON pointer into the item (into the old one when the place is gone from the new);
    /// `""` for the item itself.
    pub pointer: String,
    /// The variants the place is inside, outermost first: one for a change inside an action
    /// of an action tool (`action=post`), more for a tagged union inside a variant of
    /// another; empty outside any.
    pub variants: Vec<Variant>,
}

impl Location {
    /// The item `item` of `kind`, at `pointer`, inside no variant.
    pub fn new(kind: ItemKind, item: impl Into<String>, pointer: impl Into<String>) -> Self {
        Location {
            kind,
            item: item.into(),
            pointer: pointer.into(),
            variants: Vec::new(),
        }
    }

    /// The same place, inside `variants` (outermost first).
    ///
    /// ```
    /// use mcp_test::surface::{ItemKind, Location, Variant};
    /// let place = Location::new(ItemKind::Tool, "ledger", "/inputSchema/allOf/0/then")
    ///     .in_variants(vec![Variant::new("action", "post")]);
    /// assert_eq!(place.to_string(), r#"tool "ledger" action=post /inputSchema/allOf/0/then"#);
    /// ```
    pub fn in_variants(mut self, variants: Vec<Variant>) -> Self {
        self.variants = variants;
        self
    }
}

impl std::fmt::Display for Location {
    /// `tool "forecast" /inputSchema/properties/city`, `capabilities /tools/listChanged`,
    /// `tool "ledger" action=post /inputSchema/allOf/0/then/properties/data`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ItemKind::Capabilities => f.write_str("capabilities")?,
            kind => write!(f, "{} {:?}", kind.noun(), self.item)?,
        }
        for variant in &self.variants {
            write!(f, " {variant}")?;
        }
        if !self.pointer.is_empty() {
            write!(f, " {}", self.pointer)?;
        }
        Ok(())
    }
}

/// One difference between two surfaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Change {
    /// How much it can hurt a client.
    pub class: Class,
    /// Where it is.
    pub location: Location,
    /// Why it has its class, in a sentence: what changed, and for a judgement or a change
    /// that could not be proven compatible, that it is one.
    pub reason: String,
}

impl Change {
    /// A change of `class` at `location`, for `reason`.
    pub fn new(class: Class, location: Location, reason: impl Into<String>) -> Self {
        Change {
            class,
            location,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.class, self.location, self.reason)
    }
}

/// Every change from one surface to another, in order: by item kind, item, then place
/// (see [`diff`](super::diff())).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Drift {
    /// The changes.
    pub changes: Vec<Change>,
}

impl Drift {
    /// The worst class among the changes; `None` when the surfaces are the same.
    pub fn worst(&self) -> Option<Class> {
        self.changes.iter().map(|c| c.class).max()
    }

    /// How many changes are of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// The changes of `class`, in order.
    pub fn of(&self, class: Class) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(move |c| c.class == class)
    }

    /// Whether there is a change of `class` or worse: what `mcp-test diff --fail-on`
    /// exits 1 on.
    ///
    /// ```
    /// use mcp_test::surface::{diff, Class, Surface};
    /// use serde_json::json;
    /// let old = Surface::from_json(&json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]})).unwrap();
    /// let drift = diff(&old, &Surface::new());
    /// assert!(drift.fails_on(Class::Breaking));
    /// assert!(!diff(&old, &old).fails_on(Class::Additive));
    /// ```
    pub fn fails_on(&self, class: Class) -> bool {
        self.worst().is_some_and(|worst| worst >= class)
    }
}
