//! The registered tools, resources, resource templates and prompts, and the requests that
//! serve them: `tools/list`, `tools/call`, `resources/list`, `resources/templates/list`,
//! `resources/read`, `prompts/list`, `prompts/get` and `completion/complete`.
//!
//! Every kind is held in one [`Registry`](registry::Registry) shape: definitions in list order,
//! each beside its [`Access`] rule and what serves it. Lists are sorted (tools and prompts by
//! name, resources by URI, templates by template), filtered by the caller's authorization, and
//! paginated with the same cursors. A read tries the resource with that exact URI first, then
//! the templates in registration order.

mod build;
mod registry;
mod serving;
mod tools;

pub use build::BuildError;
pub(crate) use tools::{ToolRegistration, Tools};

use crate::authorization::{Access, Decision};
use crate::completion::{Completer, Completion, CompletionRequest};
use crate::context::Context;
use crate::prompts::{GetFn, Prompt, PromptDefinition};
use crate::resources::{
    ReadFn, Reading, Resource, ResourceDefinition, ResourceTemplate, ResourceTemplateDefinition,
};
use crate::rounds::{self, RoundResult};
use crate::tool::{ToolError, ToolErrorKind};
use crate::uri_template::{UriTemplate, Variables};
use crate::wire::{CacheHint, CacheScope, ErrorObject, ResourceContents};
use build::{check_cache_scope, invalid};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use registry::{Entry, Found, Listing, Registry};
use serde_json::{Map, Value, json};
use serving::{
    optional_object, panic_message, required_object, required_string, string_map, with_cache_hint,
};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::panic::AssertUnwindSafe;

/// A started read.
type ReadFuture = BoxFuture<'static, Result<Vec<ResourceContents>, ToolError>>;

/// The default cache hints of the lists and of reads: one minute, private (a list may depend
/// on the caller's authorization, and so may a resource).
pub(crate) const DEFAULT_CACHE: CacheHint = CacheHint::new(60_000, CacheScope::Private);

/// What the server builder collects.
pub(crate) struct CatalogBuilder {
    pub(crate) tools: Vec<ToolRegistration>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
    pub(crate) prompts: Vec<Prompt>,
    pub(crate) tools_cache: CacheHint,
    pub(crate) resources_cache: CacheHint,
    pub(crate) templates_cache: CacheHint,
    pub(crate) prompts_cache: CacheHint,
    pub(crate) read_cache: CacheHint,
}

impl Default for CatalogBuilder {
    fn default() -> Self {
        CatalogBuilder {
            tools: Vec::new(),
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            tools_cache: DEFAULT_CACHE,
            resources_cache: DEFAULT_CACHE,
            templates_cache: DEFAULT_CACHE,
            prompts_cache: DEFAULT_CACHE,
            read_cache: DEFAULT_CACHE,
        }
    }
}

struct Static {
    cache: CacheHint,
    handler: ReadFn,
}

struct Template {
    template: UriTemplate,
    cache: CacheHint,
    handler: ReadFn,
    completers: HashMap<String, Completer>,
}

struct RegisteredPrompt {
    handler: GetFn,
    completers: HashMap<String, Completer>,
}

/// The lists of the catalog a client pages through (`tools/list`, `resources/list`,
/// `resources/templates/list`, `prompts/list`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum List {
    Tools,
    Resources,
    Templates,
    Prompts,
}

/// The built, immutable catalog.
pub(crate) struct Catalog {
    tools: Tools,
    resources: Registry<ResourceDefinition, Static>,
    templates: Registry<ResourceTemplateDefinition, Template>,
    /// Indexes into `templates`, in registration order: the order reads try them.
    match_order: Vec<usize>,
    prompts: Registry<PromptDefinition, RegisteredPrompt>,
}

/// Why a resource URI (or the URI of a template) is not one.
#[derive(Debug, thiserror::Error)]
enum UriError {
    #[error("a URI needs a scheme, like `file:` or `test:`")]
    NoScheme,
    #[error("`{0}` is not a URI scheme")]
    BadScheme(String),
    #[error("{0:?} cannot appear in a URI")]
    BadChar(char),
}

/// Checks what a resource and a resource template must both be: a URI with a scheme, named,
/// the only one of its `kind` with its `key` (`seen` holds the keys so far), read by a
/// handler (`how_to_read` says how to give it one), and cached by its reads (`read_cache`
/// unless it set its own) and by its `list` method as its access allows. Returns who may read
/// it, its reads' cache hints and its handler.
fn readable(
    (kind, key): (&'static str, &str),
    name: &str,
    reading: Reading,
    (read_cache, list, list_cache): (CacheHint, &str, CacheHint),
    how_to_read: &str,
    seen: &mut HashSet<String>,
) -> Result<(Access, CacheHint, ReadFn), BuildError> {
    check_uri(key).map_err(|e| invalid(kind, key, e.to_string()))?;
    if name.is_empty() {
        return Err(invalid(kind, key, "its name is empty"));
    }
    if !seen.insert(key.to_owned()) {
        return Err(BuildError::DuplicateDefinition {
            kind,
            key: key.to_owned(),
        });
    }
    let cache = reading.cache.unwrap_or(read_cache);
    check_cache_scope(kind, key, "its contents", cache, &reading.access)?;
    check_cache_scope(kind, key, list, list_cache, &reading.access)?;
    let handler = reading
        .handler
        .ok_or_else(|| invalid(kind, key, format!("it has no read handler: {how_to_read}")))?;
    Ok((reading.access, cache, handler))
}

fn check_uri(uri: &str) -> Result<(), UriError> {
    let scheme_end = uri.find(':').ok_or(UriError::NoScheme)?;
    let scheme = &uri[..scheme_end];
    let valid = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !valid {
        return Err(UriError::BadScheme(scheme.to_owned()));
    }
    if let Some(c) = uri.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Err(UriError::BadChar(c));
    }
    Ok(())
}

fn completers(
    kind: &'static str,
    key: &str,
    list: Vec<(String, Completer)>,
    has: impl Fn(&str) -> bool,
) -> Result<HashMap<String, Completer>, BuildError> {
    let mut map = HashMap::new();
    for (name, completer) in list {
        if !has(&name) {
            return Err(invalid(
                kind,
                key,
                format!("a completion is attached to `{name}`, which it does not have"),
            ));
        }
        if map.insert(name.clone(), completer).is_some() {
            return Err(invalid(
                kind,
                key,
                format!("two completions are attached to `{name}`"),
            ));
        }
    }
    Ok(map)
}

impl CatalogBuilder {
    /// Checks every definition; see [`BuildError`].
    pub(crate) fn build(self) -> Result<Catalog, BuildError> {
        let tools = tools::build(self.tools, self.tools_cache)?;

        let mut resources = self.resources;
        resources.sort_by(|a, b| a.definition.uri.cmp(&b.definition.uri));
        let mut seen = HashSet::new();
        let mut statics = Vec::with_capacity(resources.len());
        for r in resources {
            let (access, cache, handler) = readable(
                ("resource", &r.definition.uri),
                &r.definition.name,
                r.reading,
                (self.read_cache, "resources/list", self.resources_cache),
                "call .read(..), .text(..) or .blob(..)",
                &mut seen,
            )?;
            let served = Static { cache, handler };
            statics.push((r.definition, Entry { access, served }));
        }

        let mut indexed: Vec<(usize, ResourceTemplate)> =
            self.templates.into_iter().enumerate().collect();
        indexed.sort_by(|a, b| {
            a.1.definition
                .uri_template
                .cmp(&b.1.definition.uri_template)
        });
        let mut match_order = vec![0; indexed.len()];
        let mut templates = Vec::with_capacity(indexed.len());
        seen.clear();
        for (position, (registered, t)) in indexed.into_iter().enumerate() {
            let key = t.definition.uri_template.clone();
            let template = t
                .template
                .map_err(|e| invalid("resource template", &key, e.to_string()))?;
            let (access, cache, handler) = readable(
                ("resource template", &key),
                &t.definition.name,
                t.reading,
                (
                    self.read_cache,
                    "resources/templates/list",
                    self.templates_cache,
                ),
                "call .read(..)",
                &mut seen,
            )?;
            let completers = completers("resource template", &key, t.completers, |v| {
                template.has_variable(v)
            })?;
            match_order[registered] = position;
            let served = Template {
                template,
                cache,
                handler,
                completers,
            };
            templates.push((t.definition, Entry { access, served }));
        }

        let mut prompts_in = self.prompts;
        prompts_in.sort_by(|a, b| a.definition.name.cmp(&b.definition.name));
        let mut prompts = Vec::with_capacity(prompts_in.len());
        seen.clear();
        for p in prompts_in {
            let name = p.definition.name.clone();
            if name.is_empty() {
                return Err(invalid("prompt", "", "its name is empty"));
            }
            if !seen.insert(name.clone()) {
                return Err(BuildError::DuplicateDefinition {
                    kind: "prompt",
                    key: name,
                });
            }
            check_cache_scope(
                "prompt",
                &name,
                "prompts/list",
                self.prompts_cache,
                &p.access,
            )?;
            let Some(handler) = p.handler else {
                return Err(invalid(
                    "prompt",
                    &name,
                    "it has no get handler: call .get(..) or .text(..)",
                ));
            };
            let definition = p.definition;
            let completers = completers("prompt", &name, p.completers, |a| {
                definition.argument_named(a).is_some()
            })?;
            let served = RegisteredPrompt {
                handler,
                completers,
            };
            prompts.push((
                definition,
                Entry {
                    access: p.access,
                    served,
                },
            ));
        }

        let listing = |method, field, cache| Listing {
            method,
            field,
            cache,
        };
        Ok(Catalog {
            tools,
            resources: Registry::new(
                statics,
                listing("resources/list", "resources", self.resources_cache),
            ),
            templates: Registry::new(
                templates,
                listing(
                    "resources/templates/list",
                    "resourceTemplates",
                    self.templates_cache,
                ),
            ),
            match_order,
            prompts: Registry::new(
                prompts,
                listing("prompts/list", "prompts", self.prompts_cache),
            ),
        })
    }
}

fn not_found(uri: &str, why: Option<String>) -> ErrorObject {
    let message = match why {
        None => "Resource not found".to_owned(),
        Some(why) => format!("Resource not found: {why}"),
    };
    ErrorObject::invalid_params(message).with_data(json!({ "uri": uri }))
}

fn unknown_prompt(name: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("Unknown prompt: {name}"))
}

/// Runs the future of a handler that is not a tool (a read, a prompt's get, a completion), and
/// answers its error as [`ToolError`]'s table says: the handler's own words
/// ([`ToolError::new`]) are -32602 with that message, another error converted by `?` or a
/// panic is -32603 naming `what`, a protocol error passes through. `data` (what was asked
/// for) goes with the first two.
async fn run_handler<T>(
    fut: BoxFuture<'static, Result<T, ToolError>>,
    what: &str,
    data: Value,
) -> Result<T, ErrorObject> {
    match AssertUnwindSafe(fut).catch_unwind().await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => {
            let text = error.to_string();
            match error.into_kind() {
                ToolErrorKind::Protocol(error) => Err(error),
                ToolErrorKind::Rejected(_) => {
                    Err(ErrorObject::invalid_params(text).with_data(data))
                }
                ToolErrorKind::Failed(_) => Err(ErrorObject::internal(format!(
                    "Internal error: {what} failed: {text}"
                ))
                .with_data(data)),
            }
        }
        Err(panic) => {
            let mut data = data;
            data["panic"] = Value::from(panic_message(panic.as_ref()));
            Err(ErrorObject::internal(format!("Internal error: {what} panicked")).with_data(data))
        }
    }
}

impl Catalog {
    pub(crate) fn tools(&self) -> &Tools {
        &self.tools
    }

    pub(crate) fn resource_definitions(&self) -> &[ResourceDefinition] {
        self.resources.definitions()
    }

    pub(crate) fn template_definitions(&self) -> &[ResourceTemplateDefinition] {
        self.templates.definitions()
    }

    pub(crate) fn prompt_definitions(&self) -> &[PromptDefinition] {
        self.prompts.definitions()
    }

    /// Every argument a completion handler is registered for, as `(reference type, prompt
    /// name or template, argument)`, sorted: `("ref/prompt", name, argument)` and
    /// `("ref/resource", template, variable)`.
    pub(crate) fn completion_references(&self) -> Vec<(&'static str, String, String)> {
        let variables = self.templates.iter().flat_map(|(template, entry)| {
            (entry.served.completers.keys())
                .map(move |v| ("ref/resource", template.uri_template.clone(), v.clone()))
        });
        let arguments = self.prompts.iter().flat_map(|(prompt, entry)| {
            (entry.served.completers.keys())
                .map(move |a| ("ref/prompt", prompt.name.clone(), a.clone()))
        });
        let mut out: Vec<_> = variables.chain(arguments).collect();
        out.sort();
        out
    }

    /// Whether any tool is registered (the `tools` capability).
    pub(crate) fn has_tools(&self) -> bool {
        !self.tools.is_empty()
    }

    /// Whether any resource or template is registered (the `resources` capability).
    pub(crate) fn has_resources(&self) -> bool {
        !self.resources.is_empty() || !self.templates.is_empty()
    }

    /// Whether any prompt is registered (the `prompts` capability).
    pub(crate) fn has_prompts(&self) -> bool {
        !self.prompts.is_empty()
    }

    /// Whether any completion handler is registered (the `completions` capability).
    pub(crate) fn has_completions(&self) -> bool {
        self.templates
            .entries()
            .any(|t| !t.served.completers.is_empty())
            || self
                .prompts
                .entries()
                .any(|p| !p.served.completers.is_empty())
    }

    /// One page of `list` as the caller may see it, as the list method's result.
    pub(crate) fn list(
        &self,
        list: List,
        ctx: &Context,
        params: &Map<String, Value>,
        page_size: usize,
    ) -> Result<Value, ErrorObject> {
        let identity = ctx.identity();
        match list {
            List::Tools => self.tools.list(identity, params, page_size),
            List::Resources => self.resources.list(identity, params, page_size),
            List::Templates => self.templates.list(identity, params, page_size),
            List::Prompts => self.prompts.list(identity, params, page_size),
        }
    }

    pub(crate) async fn call_tool(
        &self,
        tasks: Option<&std::sync::Arc<crate::tasks::Tasks>>,
        ctx: &Context,
        params: Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        tools::call(&self.tools, tasks, ctx, params).await
    }

    /// Whether any tool may run as a task (the tasks extension is advertised).
    pub(crate) fn has_task_tools(&self) -> bool {
        self.tools
            .entries()
            .any(|t| t.served.task_support != crate::tasks::TaskSupport::Forbidden)
    }

    /// Starts reading `uri` as `identity` may: the resource with that exact URI, else the first
    /// template (in registration order) that matches and whose variables fit its handler.
    fn start_read(&self, ctx: Context, uri: &str) -> Result<(ReadFuture, CacheHint), ErrorObject> {
        let identity = ctx.identity().clone();
        match self.resources.find(uri, &identity) {
            Found::Usable(definition, r) => {
                let mime = definition.mime_type.as_deref();
                let fut = (r.handler)(ctx, &Variables::default(), uri, mime)
                    .map_err(|e| ErrorObject::internal(format!("Internal error: {e}")))?;
                return Ok((fut, r.cache));
            }
            Found::NeedsScope(challenge) => {
                return Err(challenge.error(&format!("resource {uri}"), "uri", uri));
            }
            Found::Absent => {}
        }
        let mut misfits = Vec::new();
        // The first template that matches but needs a scope the caller lacks: its challenge,
        // when no template the caller may use serves the URI.
        let mut needs_scope = None;
        for &i in &self.match_order {
            let (definition, entry) = self.templates.get(i);
            let t = &entry.served;
            match entry.access.decide(&identity) {
                Decision::Allow => {}
                Decision::StepUp(challenge) => {
                    if needs_scope.is_none() && t.template.match_uri(uri).is_some() {
                        needs_scope = Some((challenge, t.template.to_string()));
                    }
                    continue;
                }
                _ => continue,
            }
            let Some(vars) = t.template.match_uri(uri) else {
                continue;
            };
            let mime = definition.mime_type.as_deref();
            match (t.handler)(ctx.clone(), &vars, uri, mime) {
                Ok(fut) => return Ok((fut, t.cache)),
                Err(why) => misfits.push(format!("it matches {} but {why}", t.template)),
            }
        }
        if let Some((challenge, template)) = needs_scope {
            return Err(challenge.error(&format!("resource template {template}"), "uri", uri));
        }
        Err(not_found(
            uri,
            (!misfits.is_empty()).then(|| misfits.join("; ")),
        ))
    }

    pub(crate) async fn read_resource(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let uri = required_string(params, "uri", "the URI of the resource to read")?;
        let outcome = rounds::serve_round(ctx, uri, &Value::Null, params, |ctx| async move {
            let (fut, cache) = self.start_read(ctx, uri)?;
            let contents = run_handler(fut, &format!("reading {uri}"), json!({ "uri": uri }))
                .await
                .map_err(|mut e| {
                    if e.code == crate::wire::error_codes::INVALID_PARAMS && e.data.is_none() {
                        e.data = Some(json!({ "uri": uri }));
                    }
                    e
                })?;
            if contents.is_empty() {
                return Err(not_found(
                    uri,
                    Some("its handler returned no contents".into()),
                ));
            }
            Ok((contents, cache))
        })
        .await?;
        Ok(match outcome {
            RoundResult::Complete((contents, cache)) => {
                with_cache_hint(json!({ "contents": contents }), cache)
            }
            RoundResult::InputRequired(result) => result,
        })
    }

    /// The prompt `name` as `identity` may use it, or the error its absence (or a scope the
    /// caller lacks) is answered with.
    fn usable_prompt(
        &self,
        name: &str,
        identity: &crate::context::Identity,
    ) -> Result<(&PromptDefinition, &RegisteredPrompt), ErrorObject> {
        match self.prompts.find(name, identity) {
            Found::Usable(definition, prompt) => Ok((definition, prompt)),
            Found::NeedsScope(challenge) => {
                Err(challenge.error(&format!("prompt {name}"), "name", name))
            }
            Found::Absent => Err(unknown_prompt(name)),
        }
    }

    pub(crate) async fn get_prompt(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let name = required_string(params, "name", "the prompt to get")?;
        let (definition, registered) = self.usable_prompt(name, ctx.identity())?;
        let pairs = string_map(params.get("arguments"), "arguments")?;
        definition
            .check_arguments(&pairs)
            .map_err(|e| ErrorObject::invalid_params(format!("Invalid params: {e}")))?;
        let handler = &registered.handler;
        let arguments = Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                .collect(),
        );
        let outcome = rounds::serve_round(ctx, name, &arguments, params, |ctx| async move {
            let fut = handler(ctx, &pairs).map_err(|e| {
                ErrorObject::invalid_params(format!("Invalid params: prompt {name}: argument {e}"))
            })?;
            run_handler(fut, &format!("prompt {name}"), json!({ "prompt": name })).await
        })
        .await?;
        Ok(match outcome {
            RoundResult::Complete(result) => {
                serde_json::to_value(result).expect("a prompt result serializes")
            }
            RoundResult::InputRequired(result) => result,
        })
    }

    pub(crate) async fn complete(
        &self,
        ctx: &Context,
        params: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let reference = required_object(
            params,
            "ref",
            "a {\"type\": \"ref/prompt\", \"name\"} or {\"type\": \"ref/resource\", \"uri\"}",
        )?;
        let argument = required_object(params, "argument", "the {name, value} to complete")?;
        let arg_name = required_string(argument, "argument.name", "the argument to complete")?;
        let value = required_string(argument, "argument.value", "what the user typed so far")?;
        let context = match optional_object(params, "context")? {
            None => Vec::new(),
            Some(c) => string_map(c.get("arguments"), "context.arguments")?,
        };
        let kind = required_string(reference, "ref.type", "ref/prompt or ref/resource")?;
        let identity = ctx.identity();
        let (completer, what): (Option<&Completer>, String) = match kind {
            "ref/prompt" => {
                let name = required_string(reference, "ref.name", "the prompt")?;
                let (definition, p) = self.usable_prompt(name, identity)?;
                if definition.argument_named(arg_name).is_none() {
                    return Err(ErrorObject::invalid_params(format!(
                        "Invalid params: prompt {name} has no argument `{arg_name}`"
                    )));
                }
                (
                    p.completers.get(arg_name),
                    format!("completing prompt {name}"),
                )
            }
            "ref/resource" => {
                let uri = required_string(reference, "ref.uri", "the resource template")?;
                let template = match self.templates.find(uri, identity) {
                    Found::Usable(_, t) => Some(t),
                    Found::NeedsScope(challenge) => {
                        return Err(challenge.error(
                            &format!("resource template {uri}"),
                            "uri",
                            uri,
                        ));
                    }
                    Found::Absent => None,
                };
                match template {
                    Some(t) if t.template.has_variable(arg_name) => {
                        (t.completers.get(arg_name), format!("completing {uri}"))
                    }
                    Some(_) => {
                        return Err(ErrorObject::invalid_params(format!(
                            "Invalid params: the resource template {uri} has no variable `{arg_name}`"
                        )));
                    }
                    None => {
                        if !matches!(self.resources.find(uri, identity), Found::Absent) {
                            return Err(ErrorObject::invalid_params(format!(
                                "Invalid params: the resource {uri} has no variables to complete (only resource templates do)"
                            )));
                        }
                        return Err(not_found(uri, None));
                    }
                }
            }
            other => {
                return Err(ErrorObject::invalid_params(format!(
                    "Invalid params: ref.type must be \"ref/prompt\" or \"ref/resource\", got {other:?}"
                )));
            }
        };
        let completion = match completer {
            None => Completion::empty(),
            Some(complete) => {
                let request = CompletionRequest {
                    argument: arg_name.to_owned(),
                    value: value.to_owned(),
                    context: context.into_iter().collect::<BTreeMap<_, _>>(),
                };
                run_handler(
                    complete(ctx.clone(), request),
                    &what,
                    json!({ "argument": arg_name }),
                )
                .await?
            }
        };
        Ok(json!({ "completion": completion }))
    }
}
