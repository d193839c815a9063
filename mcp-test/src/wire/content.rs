//! The content blocks of results and messages: text, image, audio, resource links and embedded
//! resources, with their annotations.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Who a content block is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Optional hints on a content block or resource.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the content is for.
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (least) to 1 (most).
    pub priority: Option<f64>,
    /// ISO 8601 timestamp of the last modification.
    pub last_modified: Option<String>,
}

/// `{"type":"text","text":..}`
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

impl TextContent {
    /// A text block.
    pub fn new(text: impl Into<String>) -> Self {
        TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// `{"type":"image"|"audio","data":<base64>,"mimeType":..}`
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaContent {
    /// Base64-encoded bytes.
    pub data: String,
    /// MIME type, e.g. `image/png`.
    pub mime_type: String,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

impl MediaContent {
    /// A media block from already base64-encoded data.
    pub fn new(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        MediaContent {
            data: data_base64.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }

    /// A media block from raw bytes, base64-encoding them.
    pub fn from_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        use base64::Engine as _;
        Self::new(
            base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type,
        )
    }
}

/// A resource as `resources/list` publishes it; as a content block it is a `resource_link`
/// (`{"type":"resource_link","uri":..,"name":..}`), which the spec defines as a `Resource`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Size in bytes.
    pub size: Option<u64>,
    /// Icons.
    pub icons: Option<Vec<Value>>,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

/// A link to a resource: the `resource_link` content block's body, a [`Resource`].
pub type ResourceLink = Resource;

impl Resource {
    /// A resource (or link) with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        }
    }
}

/// A resource template as `resources/templates/list` publishes it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplateDefinition {
    /// The RFC 6570 template.
    pub uri_template: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// What the template is for, for the model.
    pub description: Option<String>,
    /// The MIME type of every resource it matches.
    pub mime_type: Option<String>,
    /// Icons.
    pub icons: Option<Vec<Value>>,
    /// Annotations for the client.
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

/// The contents of a resource: text or base64 blob.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// `{uri, mimeType?, text}`
    Text {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Optional `_meta`.
        #[serde(rename = "_meta")]
        meta: Option<Map<String, Value>>,
    },
    /// `{uri, mimeType?, blob}`
    Blob {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: Option<String>,
        /// Base64-encoded bytes.
        blob: String,
        /// Optional `_meta`.
        #[serde(rename = "_meta")]
        meta: Option<Map<String, Value>>,
    },
}

impl ResourceContents {
    /// Text contents.
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        ResourceContents::Text {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            text: text.into(),
            meta: None,
        }
    }

    /// Blob contents from raw bytes (base64-encoded here).
    pub fn blob(uri: impl Into<String>, mime_type: Option<&str>, bytes: &[u8]) -> Self {
        use base64::Engine as _;
        ResourceContents::Blob {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            blob: base64::engine::general_purpose::STANDARD.encode(bytes),
            meta: None,
        }
    }

    /// The URI of these contents.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }
}

/// A resource embedded in a content block: `{"type":"resource","resource":{..}}`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The embedded contents.
    pub resource: ResourceContents,
    /// Optional annotations (on the block, as the schema places them).
    pub annotations: Option<Annotations>,
    /// Optional `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Option<Map<String, Value>>,
}

/// One of the five content block kinds.
///
/// ```
/// use mcp_test::wire::Content;
/// let img = Content::image_bytes(&[0x89, 0x50], "image/png");
/// assert_eq!(
///     serde_json::to_value(&img).unwrap(),
///     serde_json::json!({"type": "image", "data": "iVA=", "mimeType": "image/png"}),
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// `type: text`
    Text(TextContent),
    /// `type: image`
    Image(MediaContent),
    /// `type: audio`
    Audio(MediaContent),
    /// `type: resource_link`
    ResourceLink(ResourceLink),
    /// `type: resource`
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent::new(text))
    }

    /// An image block from raw bytes.
    pub fn image_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image(MediaContent::from_bytes(bytes, mime_type))
    }

    /// An audio block from raw bytes.
    pub fn audio_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio(MediaContent::from_bytes(bytes, mime_type))
    }

    /// A resource link block.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink(ResourceLink::new(uri, name))
    }

    /// An embedded resource block.
    pub fn embedded(resource: ResourceContents) -> Self {
        Content::Resource(EmbeddedResource {
            resource,
            annotations: None,
            meta: None,
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(t) => Some(&t.text),
            _ => None,
        }
    }

    /// The wire `type` tag of this block.
    pub fn kind(&self) -> &'static str {
        match self {
            Content::Text(_) => "text",
            Content::Image(_) => "image",
            Content::Audio(_) => "audio",
            Content::ResourceLink(_) => "resource_link",
            Content::Resource(_) => "resource",
        }
    }

    /// Sets the block's annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Content::Text(c) => &mut c.annotations,
            Content::Image(c) | Content::Audio(c) => &mut c.annotations,
            Content::ResourceLink(c) => &mut c.annotations,
            Content::Resource(c) => &mut c.annotations,
        };
        *slot = Some(annotations);
        self
    }
}
