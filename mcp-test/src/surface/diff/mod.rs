//! Drift between two [`Surface`]s, classed: [`diff`] lists every change with where it is,
//! its [`Class`] and why.
//!
//! Items are matched by name (`name`, `uri`, `uriTemplate`); schemas are compared by what
//! they accept, not by their text. The rules:
//!
//! - **breaking** (a client that worked can now fail or be harmed): a tool, prompt,
//!   resource or template removed or renamed (a rename is a removal and an addition, the
//!   reason says "renamed?" when the two look alike); a new required input; an input type
//!   narrowed or a constraint tightened (bounds, lengths, counts, `enum` members removed, a
//!   `pattern` or `format` added, `multipleOf` added, `uniqueItems` added,
//!   `additionalProperties` closed); an input removed; an output property removed, retyped,
//!   or no longer required; an output widened; `outputSchema` removed; a prompt argument
//!   made required or removed; a capability or flag withdrawn; an annotation that withdraws
//!   a safety promise (`readOnlyHint` true → false, `destructiveHint` false → true,
//!   `idempotentHint` true → false, `openWorldHint` false → true, each hint compared by
//!   its value or, when absent, the spec's default: readOnly false, destructive true,
//!   idempotent false, openWorld true); an `x-mcp-header` added or renamed; a resource's
//!   `mimeType` changed.
//! - **additive**: new tools, prompts, resources, templates and capabilities; new optional
//!   inputs and prompt arguments; loosened input constraints; new `enum` members in inputs;
//!   new optional outputs and outputs narrowed (a tightened output constraint stays within
//!   the promise); `outputSchema` added; a safety promise added.
//! - **cosmetic**: titles, descriptions, icons, examples and other annotations; the order
//!   of tools, properties, `required`, `enum` members and prompt arguments; and schema
//!   rewrites that accept exactly the same values: a `$ref` into `$defs`/`definitions`
//!   inlined, `type: ["string"]` for `"string"`, an `allOf` of one schema, `anyOf` of a type
//!   and `null` for a type array, `exclusiveMaximum: 10` for `maximum: 9` on integers.
//!
//! **Tagged unions** are compared variant by variant: the `allOf` of `if`/`then` an action
//! tool of `#[derive(Tool)]` publishes (one `if` per action on the tag `action`), and a
//! `oneOf` or `anyOf` whose alternatives are objects that each require one property to be one
//! constant string (`const`, or an `enum` of one), as schemars and rmcp publish internally and
//! adjacently tagged enums (through a `$ref` too). What the variants share is compared once;
//! each variant with the variant of the same tag value in the other schema, by the rules
//! above: a description reworded inside an action is cosmetic, a new optional field additive,
//! a new required field or a tightened bound breaking. A variant removed is a narrowing (in
//! an input breaking), one added a widening (in an input additive; in an output breaking).
//! A change inside a variant names it in its [`Location::variants`] (`action=post`, shown
//! before the pointer: `tool "ledger" action=post /inputSchema/allOf/0/then/...`).
//!
//! Inputs are contravariant: the new input schema must accept everything the old accepted,
//! else the change is breaking. Outputs are covariant: the new output must stay within what
//! the old promised, else breaking.
//!
//! The keywords read: `type` (with arrays of types, `integer` inside `number`, OpenAPI's
//! `nullable`), `properties`/`required`/`additionalProperties`, `items`, `enum`/`const`,
//! `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` (draft 4's boolean form too),
//! `multipleOf`, `minLength`/`maxLength`, `minItems`/`maxItems`/`uniqueItems`,
//! `minProperties`/`maxProperties`, `pattern`, `format`, `allOf` (merged), `anyOf`/`oneOf`
//! (alternatives of distinct types merged into one; others matched alternative by
//! alternative, each that must be covered against one that covers it; a `oneOf` is read as
//! an `anyOf`), and `$ref` to a JSON pointer in the same schema, followed with cycle
//! protection (a pair of references compared once; 32 references deep at most).
//!
//! **Judgements**, each said in the change's reason:
//!
//! - a new `enum` member in an **output** is breaking: a client that matches on every
//!   member may not handle it;
//! - a changed or removed `default` of an input is breaking (a client that omits the
//!   argument may get other behaviour); one added is cosmetic; in an output any `default`
//!   change is cosmetic;
//! - a removed input is breaking even when `additionalProperties` still lets it through:
//!   the server no longer understands it; a new optional input is additive even though,
//!   strictly, it limits the values an open schema accepted under that name;
//! - a new output property when the old output schema closed `additionalProperties` is
//!   breaking (a client validating with the old schema rejects it);
//! - a `format` added narrows (validators may assert it); a `format` or `pattern` changed
//!   (regular expressions are not compared), a keyword this comparison does not read
//!   (`not`, `if`, `patternProperties`, `prefixItems`, ...) changed, a `$ref` that resolves
//!   nowhere, and alternatives that cannot be matched are all **unknown**, classed
//!   breaking with a reason that says the change could not be proven compatible;
//! - a tool's `execution.taskSupport` (absent means `forbidden`): a change to `optional` is
//!   additive (plain and task callers both still work), any other change is breaking;
//! - a member of a tool, prompt or resource this comparison does not know (`_meta`, ...)
//!   changed is breaking for the same reason as an unknown keyword; `title`, `description`,
//!   `icons` and `size` are cosmetic, a resource's `annotations` are cosmetic (hints to a
//!   reader);
//! - a removed prompt argument is breaking; an `x-mcp-header` removed is additive.
//!
//! ```
//! use mcp_test::surface::{diff, Class, Surface};
//! use serde_json::json;
//!
//! let old = Surface::from_json(&json!({"tools": [{"name": "forecast", "inputSchema": {
//!     "type": "object",
//!     "properties": {"city": {"type": "string", "description": "The city"}},
//!     "required": ["city"]}}]})).unwrap();
//! let new = Surface::from_json(&json!({"tools": [{"name": "forecast", "inputSchema": {
//!     "type": "object",
//!     "properties": {"city": {"type": "string", "description": "A city name", "maxLength": 64},
//!                    "days": {"type": "integer"}},
//!     "required": ["city"]}}]})).unwrap();
//!
//! let drift = diff(&old, &new);
//! assert_eq!(drift.worst(), Some(Class::Breaking));
//! let breaking: Vec<String> = drift.of(Class::Breaking).map(|c| c.location.pointer.clone()).collect();
//! assert_eq!(breaking, ["/inputSchema/properties/city/maxLength"]);
//! assert_eq!(drift.count(Class::Additive), 1); // the new optional input `days`
//! assert_eq!(drift.count(Class::Cosmetic), 1); // the reworded description
//! ```

mod change;
mod items;
mod node;
mod render;
mod schema;
mod tagged;

pub use change::{Change, Class, Drift, ItemKind, Location, Variant};

use super::document::Surface;

/// Every change from `old` to `new`, classed: see the [module docs](self) for the rules.
/// The changes come in order of item kind (tools, prompts, resources, resource templates,
/// capabilities), item name, then place.
pub fn diff(old: &Surface, new: &Surface) -> Drift {
    Drift {
        changes: items::changes(old, new),
    }
}

#[cfg(test)]
mod tests;
