//! The [`Surface`] document: a server's tools, resources, resource templates, prompts and
//! capabilities as one normalized value, read from JSON with errors that name where.

use crate::schema::{kind_of, sorted};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a server offers its clients, as one document: every tool, resource, resource template
/// and prompt as its list result carries it (all pages), sorted by its key, and the
/// server's capabilities. Its JSON form is an object with `tools`, `resources`,
/// `resourceTemplates`, `prompts` and `capabilities`; a section left out is empty, so a
/// surface written by hand or dumped by another tool reads too.
///
/// [`Surface::normalized`] sorts the items (tools and prompts by `name`, resources by `uri`,
/// templates by `uriTemplate`) and every object's keys, so two fetches of one server give
/// the same text. Arrays inside items (`required`, `enum`) keep their order: the snapshot
/// shows what the server sent, and [`diff`](super::diff()) judges order as cosmetic.
///
/// ```
/// use mcp_test::surface::Surface;
/// use serde_json::json;
///
/// let surface = Surface::from_json(&json!({
///     "tools": [{"name": "b", "inputSchema": {"type": "object"}},
///               {"name": "a", "inputSchema": {"type": "object"}}],
/// })).unwrap();
/// assert_eq!(surface.tools[0]["name"], "a");
/// assert!(surface.prompts.is_empty());
/// assert_eq!(surface.capabilities, json!({}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Surface {
    /// The server's capabilities: the `capabilities` of `server/discover` (2026-07-28) or of
    /// the `initialize` result (2025-11-25); `{}` when none were known.
    pub capabilities: Value,
    /// The prompts of `prompts/list`, sorted by `name`.
    pub prompts: Vec<Value>,
    /// The resource templates of `resources/templates/list`, sorted by `uriTemplate`.
    #[serde(rename = "resourceTemplates")]
    pub resource_templates: Vec<Value>,
    /// The resources of `resources/list`, sorted by `uri`.
    pub resources: Vec<Value>,
    /// The tools of `tools/list`, sorted by `name`.
    pub tools: Vec<Value>,
}

/// Why a value is no [`Surface`]: what was wrong and where (a JSON pointer into the
/// document, or a line and column of its text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SurfaceError {
    /// The text is not JSON.
    #[error("not JSON at line {line}, column {column}: {reason}")]
    NotJson {
        /// The line (from 1).
        line: usize,
        /// The column (from 1).
        column: usize,
        /// What the parser said.
        reason: String,
    },
    /// A value has the wrong shape.
    #[error("at {pointer}: {reason}")]
    Shape {
        /// A JSON pointer into the document (`""` for the whole document).
        pointer: String,
        /// What was expected there.
        reason: String,
    },
}

impl SurfaceError {
    fn shape(pointer: impl Into<String>, reason: impl Into<String>) -> Self {
        SurfaceError::Shape {
            pointer: pointer.into(),
            reason: reason.into(),
        }
    }
}

/// One kind of item of a surface: its section's name, what names an item, and what to call one.
pub(crate) struct Section {
    /// The key of the section in the document (`resourceTemplates`).
    pub(crate) key: &'static str,
    /// The member that names an item (`uriTemplate`).
    pub(crate) id: &'static str,
    /// An item, in words ("resource template").
    pub(crate) noun: &'static str,
}

/// The four sections, in the order a diff reports them.
pub(crate) const SECTIONS: [Section; 4] = [
    Section {
        key: "tools",
        id: "name",
        noun: "tool",
    },
    Section {
        key: "prompts",
        id: "name",
        noun: "prompt",
    },
    Section {
        key: "resources",
        id: "uri",
        noun: "resource",
    },
    Section {
        key: "resourceTemplates",
        id: "uriTemplate",
        noun: "resource template",
    },
];

impl Surface {
    /// Whether the server listed nothing: no tool, resource, template or prompt (to the
    /// caller that fetched it: a definition behind a scope may be listed only to one that
    /// holds it).
    ///
    /// ```
    /// use mcp_test::surface::Surface;
    /// assert!(Surface::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.resources.is_empty()
            && self.resource_templates.is_empty()
            && self.prompts.is_empty()
    }

    /// An empty surface: nothing offered, no capabilities.
    pub fn new() -> Self {
        Surface {
            capabilities: Value::Object(Map::new()),
            ..Surface::default()
        }
    }

    /// The items of the section keyed `key` (`tools`, `prompts`, `resources`,
    /// `resourceTemplates`).
    pub(crate) fn section(&self, key: &str) -> &[Value] {
        match key {
            "tools" => &self.tools,
            "prompts" => &self.prompts,
            "resources" => &self.resources,
            "resourceTemplates" => &self.resource_templates,
            _ => &[],
        }
    }

    fn section_mut(&mut self, key: &str) -> Option<&mut Vec<Value>> {
        match key {
            "tools" => Some(&mut self.tools),
            "prompts" => Some(&mut self.prompts),
            "resources" => Some(&mut self.resources),
            "resourceTemplates" => Some(&mut self.resource_templates),
            _ => None,
        }
    }

    /// Reads a surface from its JSON form, checked and [normalized](Surface::normalized):
    /// the document must be an object; each section present an array of objects, each
    /// naming itself with a string (`name`, `uri` or `uriTemplate`) no other item of its
    /// section has; `capabilities` an object; `inputSchema`/`outputSchema` objects or
    /// booleans. Other members (a `serverInfo` another tool wrote) are ignored.
    ///
    /// ```
    /// use mcp_test::surface::{Surface, SurfaceError};
    /// use serde_json::json;
    ///
    /// let err = Surface::from_json(&json!({"tools": [{"name": "a"}, {"title": "b"}]})).unwrap_err();
    /// assert_eq!(err, SurfaceError::Shape {
    ///     pointer: "/tools/1".into(),
    ///     reason: "a tool needs a string `name`".into(),
    /// });
    /// ```
    pub fn from_json(document: &Value) -> Result<Surface, SurfaceError> {
        let Some(object) = document.as_object() else {
            return Err(SurfaceError::shape(
                "",
                format!(
                    "a surface is an object with tools, resources, resourceTemplates, prompts and capabilities, not {}",
                    kind_of(document)
                ),
            ));
        };
        let mut surface = Surface::new();
        for section in &SECTIONS {
            let Some(items) = object.get(section.key) else {
                continue;
            };
            let pointer = format!("/{}", section.key);
            let Some(items) = items.as_array() else {
                return Err(SurfaceError::shape(
                    pointer,
                    format!(
                        "expected an array of {}s, got {}",
                        section.noun,
                        kind_of(items)
                    ),
                ));
            };
            let mut seen = std::collections::BTreeMap::new();
            for (index, item) in items.iter().enumerate() {
                let at = format!("{pointer}/{index}");
                check_item(item, section, &at)?;
                let id = item[section.id].as_str().unwrap_or_default().to_owned();
                if let Some(first) = seen.insert(id.clone(), index) {
                    return Err(SurfaceError::shape(
                        at,
                        format!(
                            "a second {} with {} {id:?} (the first is at {pointer}/{first})",
                            section.noun, section.id
                        ),
                    ));
                }
            }
            if let Some(slot) = surface.section_mut(section.key) {
                slot.clone_from(items);
            }
        }
        if let Some(capabilities) = object.get("capabilities") {
            if !capabilities.is_object() {
                return Err(SurfaceError::shape(
                    "/capabilities",
                    format!("expected an object, got {}", kind_of(capabilities)),
                ));
            }
            surface.capabilities = capabilities.clone();
        }
        Ok(surface.normalized())
    }

    /// Reads a surface from JSON text: [`Surface::from_json`], with a syntax error located
    /// by line and column.
    ///
    /// ```
    /// use mcp_test::surface::Surface;
    /// let err = Surface::from_text("{\"tools\": [}").unwrap_err();
    /// assert!(err.to_string().starts_with("not JSON at line 1, column 12"), "{err}");
    /// ```
    pub fn from_text(text: &str) -> Result<Surface, SurfaceError> {
        let document: Value = serde_json::from_str(text).map_err(|e| SurfaceError::NotJson {
            line: e.line(),
            column: e.column(),
            reason: e.to_string(),
        })?;
        Surface::from_json(&document)
    }

    /// The surface with every section sorted by its items' keys and every object's keys in
    /// order: two fetches of the same server give equal surfaces and the same text.
    #[must_use]
    pub fn normalized(mut self) -> Surface {
        for section in &SECTIONS {
            if let Some(items) = self.section_mut(section.key) {
                for item in items.iter_mut() {
                    *item = sorted(std::mem::take(item));
                }
                items.sort_by(|a, b| {
                    a[section.id]
                        .as_str()
                        .unwrap_or_default()
                        .cmp(b[section.id].as_str().unwrap_or_default())
                });
            }
        }
        if self.capabilities.is_null() {
            self.capabilities = Value::Object(Map::new());
        }
        self.capabilities = sorted(std::mem::take(&mut self.capabilities));
        self
    }

    /// The JSON form: an object with `capabilities`, `prompts`, `resourceTemplates`,
    /// `resources` and `tools`, keys sorted.
    ///
    /// ```
    /// use mcp_test::surface::Surface;
    /// use serde_json::json;
    /// assert_eq!(Surface::new().to_json(), json!({"capabilities": {}, "prompts": [],
    ///     "resourceTemplates": [], "resources": [], "tools": []}));
    /// ```
    pub fn to_json(&self) -> Value {
        sorted(serde_json::to_value(self).expect("a surface always encodes"))
    }

    /// The JSON form as pretty text, ending in a newline: what `mcp-test surface` prints.
    pub fn to_text(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.to_json()).expect("a surface always encodes");
        text.push('\n');
        text
    }
}

/// Checks one item of a section.
fn check_item(item: &Value, section: &Section, at: &str) -> Result<(), SurfaceError> {
    let Some(object) = item.as_object() else {
        return Err(SurfaceError::shape(
            at,
            format!("a {} is an object, not {}", section.noun, kind_of(item)),
        ));
    };
    if !object.get(section.id).is_some_and(Value::is_string) {
        return Err(SurfaceError::shape(
            at,
            format!("a {} needs a string `{}`", section.noun, section.id),
        ));
    }
    for key in ["inputSchema", "outputSchema"] {
        if let Some(schema) = object.get(key)
            && !(schema.is_object() || schema.is_boolean())
        {
            return Err(SurfaceError::shape(
                format!("{at}/{key}"),
                format!(
                    "a JSON Schema is an object or a boolean, not {}",
                    kind_of(schema)
                ),
            ));
        }
    }
    if let Some(arguments) = object.get("arguments") {
        let Some(arguments) = arguments.as_array() else {
            return Err(SurfaceError::shape(
                format!("{at}/arguments"),
                format!("expected an array of arguments, got {}", kind_of(arguments)),
            ));
        };
        for (index, argument) in arguments.iter().enumerate() {
            if !argument.get("name").is_some_and(Value::is_string) {
                return Err(SurfaceError::shape(
                    format!("{at}/arguments/{index}"),
                    "a prompt argument needs a string `name`",
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sections_are_sorted_and_keys_ordered() {
        let surface = Surface::from_json(&json!({
            "resources": [{"uri": "b://x", "name": "b"}, {"uri": "a://x", "name": "a"}],
            "resourceTemplates": [{"uriTemplate": "z/{x}", "name": "z"}, {"uriTemplate": "a/{x}", "name": "a"}],
            "prompts": [{"name": "q"}, {"name": "p"}],
            "capabilities": {"tools": {"listChanged": true}, "prompts": {}},
            "serverInfo": {"name": "ignored"}
        }))
        .unwrap();
        assert_eq!(surface.resources[0]["uri"], "a://x");
        assert_eq!(surface.resource_templates[0]["uriTemplate"], "a/{x}");
        assert_eq!(surface.prompts[0]["name"], "p");
        let text = surface.to_text();
        assert!(
            text.find("\"capabilities\"") < text.find("\"tools\""),
            "{text}"
        );
        assert_eq!(Surface::from_text(&text).unwrap(), surface);
    }

    #[test]
    fn each_wrong_shape_is_named_by_its_pointer() {
        let cases = [
            (json!([]), "", "not an array"),
            (json!({"tools": {}}), "/tools", "expected an array of tools"),
            (json!({"tools": [1]}), "/tools/0", "a tool is an object"),
            (
                json!({"resources": [{"name": "r"}]}),
                "/resources/0",
                "string `uri`",
            ),
            (
                json!({"tools": [{"name": "t", "inputSchema": "object"}]}),
                "/tools/0/inputSchema",
                "a JSON Schema",
            ),
            (
                json!({"capabilities": []}),
                "/capabilities",
                "expected an object",
            ),
            (
                json!({"prompts": [{"name": "p", "arguments": [{"title": "x"}]}]}),
                "/prompts/0/arguments/0",
                "string `name`",
            ),
            (
                json!({"tools": [{"name": "t"}, {"name": "t"}]}),
                "/tools/1",
                "the first is at /tools/0",
            ),
        ];
        for (document, pointer, words) in cases {
            match Surface::from_json(&document) {
                Err(SurfaceError::Shape {
                    pointer: at,
                    reason,
                }) => {
                    assert_eq!(at, pointer, "{document}");
                    assert!(reason.contains(words), "{document}: {reason}");
                }
                other => panic!("{document}: {other:?}"),
            }
        }
    }
}
