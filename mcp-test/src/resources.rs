//! Declaring resources and resource templates: [`Resource`], [`ResourceTemplate`], what a read
//! handler may return ([`IntoContents`]), and their wire definitions.
//!
//! # Why typed builders
//!
//! A tool is a type (its values are its arguments), so it is a trait with a derive. A resource
//! is an *address*, often computed at startup (a base URI, a directory), and a template's typed
//! part is its variables, not the resource itself. So both are declared with builders that
//! read like the definition `resources/list` publishes, with the handler last:
//!
//! - a read handler is any `Fn(Context) -> impl Future` (an `async fn` or a closure returning
//!   an `async` block); a template's handler also gets its variables, deserialized into the
//!   type the handler names (`T: DeserializeOwned`: numbers, booleans and enums parse from the
//!   text);
//! - handlers take the request's [`Context`] by value (a cheap clone: identity, state,
//!   assigns, and the round of a multi-round request, so `ctx.elicit(..)` works as in tools);
//! - errors are [`ToolError`]s, so `?` works on any error, answered as [`ToolError`]'s table
//!   says for every kind of handler: [`ToolError::new`] (the handler's own words: "no such
//!   item", "ids start at 1") is -32602 with that message and `data.uri`, [`NotFound`] is
//!   -32602 *Resource not found*, an [`ErrorObject`] is answered as it is, and any other error
//!   `?` converts (a failed query) is -32603 naming the URI;
//! - every mistake a builder can make (a malformed URI or template, a missing handler, a
//!   completion for a variable the template does not have) is a [`BuildError`](crate::BuildError)
//!   from [`ServerBuilder::build`](crate::ServerBuilder::build), never a panic.
//!
//! ```
//! use mcp_test::{Context, Server, ToolError};
//! use mcp_test::resources::{Resource, ResourceTemplate};
//!
//! #[derive(serde::Deserialize)]
//! struct Item { id: u32 }
//!
//! async fn read_item(_ctx: Context, Item { id }: Item) -> Result<String, ToolError> {
//!     Ok(format!(r#"{{"id":{id}}}"#))
//! }
//!
//! let server = Server::builder("shop", "1.0.0")
//!     .resource(
//!         Resource::new("shop://catalog", "catalog")
//!             .description("Every item on sale")
//!             .mime_type("text/plain")
//!             .text("apples, pears"),
//!     )
//!     .resource_template(
//!         ResourceTemplate::new("shop://items/{id}", "item")
//!             .mime_type("application/json")
//!             .read(read_item)
//!             .complete_from("id", ["1", "2", "10"]),
//!     )
//!     .build()
//!     .unwrap();
//! assert!(server.capabilities().resources.is_some());
//! assert!(server.capabilities().completions.is_some());
//! ```

pub use crate::returns::IntoContents;
pub use crate::wire::ResourceTemplateDefinition;

use crate::authorization::Access;
use crate::completion::{Completer, IntoCompletion, completer, static_completer};
use crate::context::Context;
use crate::setters;
use crate::string_args::StringArgsError;
use crate::tool::ToolError;
use crate::uri_template::{UriTemplate, UriTemplateError, Variables};
use crate::wire::{Annotations, CacheHint, ErrorObject, ResourceContents};
use futures_util::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// A resource as `resources/list` publishes it: the wire's `Resource`, which is also the body
/// of a `resource_link` content block.
pub type ResourceDefinition = crate::wire::Resource;

/// A read handler with the variables still to deserialize: `Err` when they do not fit.
pub(crate) type ReadFn = Arc<
    dyn Fn(
            Context,
            &Variables,
            &str,
            Option<&str>,
        )
            -> Result<BoxFuture<'static, Result<Vec<ResourceContents>, ToolError>>, StringArgsError>
        + Send
        + Sync,
>;

fn read_fn<V, F, Fut, R>(handler: F) -> ReadFn
where
    V: DeserializeOwned + Send + 'static,
    F: Fn(Context, V) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
    R: IntoContents,
{
    Arc::new(move |ctx, vars, uri, mime| {
        let vars: V = vars.deserialize()?;
        let fut = handler(ctx, vars);
        let (uri, mime) = (uri.to_owned(), mime.map(str::to_owned));
        Ok(Box::pin(async move {
            Ok(fut.await?.into_contents(&uri, mime.as_deref()))
        }))
    })
}

/// A `-32602 Resource not found` error for a read handler to return (with `?` or `.into()`)
/// when the URI matched but names nothing, e.g. an id missing from the database. The server
/// adds the requested URI as `data.uri`.
///
/// ```
/// use mcp_test::ToolError;
/// let e: ToolError = mcp_test::resources::NotFound.into();
/// assert_eq!(e.protocol_error().unwrap().code, -32602);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NotFound;

impl From<NotFound> for ToolError {
    fn from(_: NotFound) -> Self {
        ToolError::protocol(ErrorObject::invalid_params("Resource not found"))
    }
}

/// A resource with a fixed URI.
///
/// ```
/// use mcp_test::{Access, Context, ToolError};
/// use mcp_test::resources::Resource;
/// use mcp_test::wire::{CacheHint, CacheScope};
///
/// let text = Resource::new("test://static-text", "static-text")
///     .description("A static text resource")
///     .mime_type("text/plain")
///     .text("This is the content of the static text resource.");
///
/// let logo = Resource::new("test://static-binary", "static-binary")
///     .mime_type("image/png")
///     .blob(vec![0x89, b'P', b'N', b'G'])
///     .cache(CacheHint::new(86_400_000, CacheScope::Public));
///
/// let secrets = Resource::new("vault://keys", "keys")
///     .access(Access::scopes(["vault.read"]))
///     .read(|ctx: Context| async move {
///         Ok::<_, ToolError>(format!("keys of {}", ctx.principal().unwrap_or("nobody")))
///     });
/// # let _ = (text, logo, secrets);
/// ```
#[must_use]
#[derive(Debug)]
pub struct Resource {
    pub(crate) definition: ResourceDefinition,
    pub(crate) reading: Reading,
}

/// How a resource or a template is read: who may, the cache hints of its results, and its
/// handler (none until `.read(..)` or the like).
#[derive(Default)]
pub(crate) struct Reading {
    /// Who may read it (default: [`Access::public`]).
    pub(crate) access: Access,
    pub(crate) cache: Option<CacheHint>,
    pub(crate) handler: Option<ReadFn>,
}

impl fmt::Debug for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reading")
            .field("access", &self.access)
            .field("cache", &self.cache)
            .field("has_handler", &self.handler.is_some())
            .finish()
    }
}

macro_rules! definition_setters {
    () => {
        setters! {
            /// Sets the display title.
            title(title: impl Into<String>) => definition.title = Some(title.into());

            /// Sets the description, for the model.
            description(description: impl Into<String>)
                => definition.description = Some(description.into());

            /// Sets the MIME type; a handler returning a `String` or bytes gets it on its contents.
            mime_type(mime_type: impl Into<String>)
                => definition.mime_type = Some(mime_type.into());

            /// Sets the icons (the spec's `Icon` objects).
            icons(icons: Vec<Value>) => definition.icons = Some(icons);
            /// Sets the annotations.
            annotations(annotations: Annotations) => definition.annotations = Some(annotations);
            /// Sets the definition's `_meta`.
            meta(meta: Map<String, Value>) => definition.meta = Some(meta);

            /// Who may see and read it (default: everyone). A denied caller gets the answer of an
            /// unknown URI; see [`authorization`](crate::authorization).
            access(access: Access) => reading.access = access;

            /// The cache hints of its `resources/read` results (default: the server's
            /// [`read_cache`](crate::ServerBuilder::read_cache)). A restricted definition may not
            /// be cached `public`.
            cache(hint: CacheHint) => reading.cache = Some(hint);
        }
    };
}

impl Resource {
    /// A resource at `uri` named `name`, with no handler yet.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Resource {
            definition: ResourceDefinition::new(uri, name),
            reading: Reading::default(),
        }
    }

    definition_setters!();

    setters! {
        /// Sets the size of the raw content, in bytes.
        size(size: u64) => definition.size = Some(size);
    }

    /// Reads it with `handler`.
    pub fn read<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: IntoContents,
    {
        self.reading.handler = Some(read_fn(move |ctx, ()| handler(ctx)));
        self
    }

    /// Serves fixed text.
    pub fn text(self, text: impl Into<String>) -> Self {
        let text: Arc<str> = text.into().into();
        self.read(move |_| {
            let text = text.to_string();
            async move { Ok(text) }
        })
    }

    /// Serves fixed bytes, as a base64 blob.
    pub fn blob(self, bytes: impl Into<Vec<u8>>) -> Self {
        let bytes: Arc<[u8]> = bytes.into().into();
        self.read(move |_| {
            let bytes = bytes.to_vec();
            async move { Ok(bytes) }
        })
    }

    /// The definition `resources/list` publishes.
    pub fn definition(&self) -> &ResourceDefinition {
        &self.definition
    }
}

/// A family of resources whose URIs match an RFC 6570 template (see
/// [`uri_template`](crate::uri_template) for what is matched).
///
/// The handler receives the variables deserialized into the type it names. A URI whose
/// variables do not deserialize (`items/abc` for a `u32` id) is not a resource of this
/// template: the read tries the next template, and ends in -32602 *Resource not found*, whose
/// message says why each template did not fit.
///
/// ```
/// use mcp_test::{Context, ToolError};
/// use mcp_test::resources::{NotFound, ResourceTemplate};
///
/// #[derive(serde::Deserialize)]
/// struct Data { id: String }
///
/// let data = ResourceTemplate::new("test://template/{id}/data", "template-data")
///     .mime_type("application/json")
///     .read(|_ctx: Context, Data { id }: Data| async move {
///         if id == "0" {
///             return Err(NotFound.into());
///         }
///         Ok::<_, ToolError>(format!(
///             r#"{{"id":"{id}","templateTest":true,"data":"Data for ID: {id}"}}"#
///         ))
///     })
///     .complete_from("id", ["123", "456"]);
/// # let _ = data;
/// ```
#[must_use]
pub struct ResourceTemplate {
    pub(crate) template: Result<UriTemplate, UriTemplateError>,
    pub(crate) definition: ResourceTemplateDefinition,
    pub(crate) reading: Reading,
    pub(crate) completers: Vec<(String, Completer)>,
}

impl fmt::Debug for ResourceTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceTemplate")
            .field("definition", &self.definition)
            .field("reading", &self.reading)
            .field(
                "completions",
                &self.completers.iter().map(|c| &c.0).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl ResourceTemplate {
    /// A template named `name`. A malformed template is reported by
    /// [`ServerBuilder::build`](crate::ServerBuilder::build).
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        let source = uri_template.into();
        ResourceTemplate {
            template: UriTemplate::parse(&source),
            definition: ResourceTemplateDefinition {
                uri_template: source,
                name: name.into(),
                title: None,
                description: None,
                mime_type: None,
                icons: None,
                annotations: None,
                meta: None,
            },
            reading: Reading::default(),
            completers: Vec::new(),
        }
    }

    definition_setters!();

    /// Reads a matching URI with `handler`, which receives the template's variables as a `V`.
    pub fn read<V, F, Fut, R>(mut self, handler: F) -> Self
    where
        V: DeserializeOwned + Send + 'static,
        F: Fn(Context, V) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: IntoContents,
    {
        self.reading.handler = Some(read_fn(handler));
        self
    }

    /// Completes the template variable `variable` with `handler` (`completion/complete` with
    /// `ref/resource`). See [`completion`](crate::completion).
    pub fn complete<F, Fut, R>(mut self, variable: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Context, crate::completion::CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: IntoCompletion,
    {
        self.completers.push((variable.into(), completer(handler)));
        self
    }

    /// Completes `variable` from a fixed list: the values starting with what the client typed
    /// (ignoring case), in the given order.
    pub fn complete_from(
        mut self,
        variable: impl Into<String>,
        values: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.completers
            .push((variable.into(), static_completer(values)));
        self
    }

    /// The definition `resources/templates/list` publishes.
    pub fn definition(&self) -> &ResourceTemplateDefinition {
        &self.definition
    }
}
