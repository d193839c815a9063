//! `#[mcp_test]`: an async test with a `TestContext` over a prebuilt target.
//!
//! ```text
//! #[mcp_test(server = calculator, principal = "alice", scopes = ["math"],
//!            capabilities(elicitation), protocol = "2026-07-28", timeout = 5000,
//!            flavor = "current_thread", start_paused = true, era = "2025-11-25")]
//! async fn adds(mcp: TestContext) { ... }
//!
//! #[mcp_test(http_command = ["my-server", "--http", "127.0.0.1:0"], bearer = "t",
//!            headers = [("X-Tenant", "acme")])]
//! async fn reads(mcp: TestContext) { ... }
//! ```
//!
//! expands to a `#[test]` fn that builds a tokio runtime, builds the target (an in-process
//! `server`, a `stdio` child process, or an `http` URL) and the context inside it, and runs the
//! body with the context both passed in (if the fn declares a `TestContext` parameter) and
//! installed as `TestContext::current()` for the body's task. The body becomes an inner
//! `async fn` of the test's own name, so `return` and `?` behave as written and anything that
//! names a snapshot after the enclosing function (insta) sees the test's name. Generated code
//! names mcp-test by the path `crate = ...` gives, `::mcp_test` by default.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, FnArg, ItemFn, Lit, LitBool, LitStr, ReturnType, Type};

use crate::common::{Errors, Keys, Slot, crate_path, default_crate_path, key_of, skip_value};

const OPTIONS: &str = "server, stdio, http, http_command, rmcp, principal, tenant, scopes, capabilities(..), \
protocol, timeout, flavor, start_paused, era, headers, bearer, crate";
/// The options that say where requests go; a test has exactly one.
const TARGETS: &str = "`server`, `stdio`, `http`, `http_command` or `rmcp`";
const CAPABILITIES: &[&str] = &["elicitation", "sampling", "roots"];

/// How `#[mcp_test(..)]` names its keys when one is given twice.
const KEYS: Keys = Keys {
    noun: "option",
    hint: ": give each #[mcp_test] option once",
};

/// A target option's value, the span of its key, and its place among the options.
struct Keyed {
    key: Span,
    expr: Expr,
    position: usize,
}

/// One slot per option.
struct Options<'e> {
    server: Slot<'e, Keyed>,
    stdio: Slot<'e, Keyed>,
    http: Slot<'e, Keyed>,
    http_command: Slot<'e, Keyed>,
    rmcp: Slot<'e, Keyed>,
    principal: Slot<'e, Expr>,
    tenant: Slot<'e, Expr>,
    scopes: Slot<'e, Expr>,
    capabilities: Slot<'e, Vec<LitStr>>,
    protocol: Slot<'e, Expr>,
    timeout: Slot<'e, Expr>,
    flavor: Slot<'e, LitStr>,
    start_paused: Slot<'e, LitBool>,
    era: Slot<'e, EraChoice>,
    headers: Slot<'e, Expr>,
    bearer: Slot<'e, Expr>,
    krate: Slot<'e, syn::Path>,
}

impl<'e> Options<'e> {
    fn new(errors: &'e Errors) -> Self {
        Options {
            server: Slot::new(errors, KEYS, "server"),
            stdio: Slot::new(errors, KEYS, "stdio"),
            http: Slot::new(errors, KEYS, "http"),
            http_command: Slot::new(errors, KEYS, "http_command"),
            rmcp: Slot::new(errors, KEYS, "rmcp"),
            principal: Slot::new(errors, KEYS, "principal"),
            tenant: Slot::new(errors, KEYS, "tenant"),
            scopes: Slot::new(errors, KEYS, "scopes"),
            capabilities: Slot::new(errors, KEYS, "capabilities"),
            protocol: Slot::new(errors, KEYS, "protocol"),
            timeout: Slot::new(errors, KEYS, "timeout"),
            flavor: Slot::new(errors, KEYS, "flavor"),
            start_paused: Slot::new(errors, KEYS, "start_paused"),
            era: Slot::new(errors, KEYS, "era"),
            headers: Slot::new(errors, KEYS, "headers"),
            bearer: Slot::new(errors, KEYS, "bearer"),
            krate: Slot::new(errors, KEYS, "crate"),
        }
    }
}

/// Parses the option at `position` (1 for the first written).
fn parse_option(
    meta: ParseNestedMeta,
    position: usize,
    options: &mut Options,
    errors: &Errors,
) -> syn::Result<()> {
    let span = meta.path.span();
    let name = key_of(&meta);
    let target_slot = match name.as_str() {
        "server" => Some(&mut options.server),
        "stdio" => Some(&mut options.stdio),
        "http" => Some(&mut options.http),
        "http_command" => Some(&mut options.http_command),
        "rmcp" => Some(&mut options.rmcp),
        _ => None,
    };
    if let Some(slot) = target_slot {
        let expr = meta.value()?.parse()?;
        slot.set(
            span,
            Some(Keyed {
                key: span,
                expr,
                position,
            }),
        );
        return Ok(());
    }
    let expr_slot = match name.as_str() {
        "principal" => Some(&mut options.principal),
        "tenant" => Some(&mut options.tenant),
        "scopes" => Some(&mut options.scopes),
        "protocol" => Some(&mut options.protocol),
        "timeout" => Some(&mut options.timeout),
        "headers" => Some(&mut options.headers),
        "bearer" => Some(&mut options.bearer),
        _ => None,
    };
    if let Some(slot) = expr_slot {
        slot.set(span, Some(meta.value()?.parse()?));
        return Ok(());
    }
    match name.as_str() {
        "crate" => options.krate.set(span, crate_path(errors, &meta)?),
        "flavor" => {
            let flavor: LitStr = meta.value()?.parse()?;
            if !matches!(flavor.value().as_str(), "current_thread" | "multi_thread") {
                errors.error_at(
                    flavor.span(),
                    "unknown runtime flavor: expected \"current_thread\" or \"multi_thread\"",
                );
            }
            options.flavor.set(span, Some(flavor));
        }
        "start_paused" => {
            let value: Expr = meta.value()?.parse()?;
            match value {
                Expr::Lit(ExprLit {
                    lit: Lit::Bool(paused),
                    ..
                }) => options.start_paused.set(span, Some(paused)),
                other => {
                    errors.error_at(
                        other.span(),
                        "`start_paused` takes `true` or `false`: `start_paused = true` starts the \
                         test's runtime with tokio's clock paused",
                    );
                    options.start_paused.set(span, None);
                }
            }
        }
        "era" => {
            let value: Expr = meta.value()?.parse()?;
            let choice = match &value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(era), ..
                }) => match era.value().as_str() {
                    "2026-07-28" => Some(EraChoice::Current(era.span())),
                    "2025-11-25" => Some(EraChoice::Legacy(era.span())),
                    other => {
                        errors.error_at(
                            era.span(),
                            format!(
                                "unknown era \"{other}\": expected \"2026-07-28\", \"2025-11-25\" \
                                 or `both` (each test run once per era)"
                            ),
                        );
                        None
                    }
                },
                Expr::Path(path) if path.path.is_ident("both") => {
                    Some(EraChoice::Both(path.span()))
                }
                other => {
                    errors.error_at(
                        other.span(),
                        "`era` takes \"2026-07-28\", \"2025-11-25\" or `both`: `era = both` runs \
                         the test once in each era",
                    );
                    None
                }
            };
            options.era.set(span, choice);
        }
        "capabilities" => {
            let mut list: Vec<LitStr> = Vec::new();
            meta.parse_nested_meta(|cap| {
                let ident = cap.path.get_ident().map(ToString::to_string);
                match ident.as_deref() {
                    Some(known) if CAPABILITIES.contains(&known) => {
                        if list.iter().any(|l| l.value() == known) {
                            errors.push(cap.error(format!(
                                "duplicate capability `{known}` in capabilities(..)"
                            )));
                        } else {
                            list.push(LitStr::new(known, cap.path.span()));
                        }
                    }
                    _ => {
                        errors.push(cap.error(format!(
                            "unknown client capability `{}`: expected one of {}",
                            key_of(&cap),
                            CAPABILITIES.join(", ")
                        )));
                        skip_value(&cap)?;
                    }
                }
                Ok(())
            })?;
            options.capabilities.set(span, Some(list));
        }
        _ => {
            errors.error_at(
                span,
                format!("unknown #[mcp_test] option `{name}`: expected one of {OPTIONS}"),
            );
            skip_value(&meta)?;
        }
    }
    Ok(())
}

/// The entry point: `#[mcp_test(..)]` on `item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            let message = syn::Error::new(
                error.span(),
                "#[mcp_test] goes on an `async fn`; this is not a function",
            )
            .into_compile_error();
            return quote! { #message #item };
        }
    };
    match expand_fn(args, &function) {
        Ok(tokens) => tokens,
        Err(error) => {
            // Keep the function so the only errors are ours, and IDEs still see it.
            let error = error.into_compile_error();
            quote! {
                #error
                #[allow(dead_code, unused_variables)]
                #function
            }
        }
    }
}

fn expand_fn(args: TokenStream, function: &ItemFn) -> syn::Result<TokenStream> {
    let errors = Errors::new();
    let mut options = Options::new(&errors);
    let mut position = 0;
    let parser = syn::meta::parser(|meta| {
        position += 1;
        parse_option(meta, position, &mut options, &errors)
    });
    if let Err(error) = parser.parse2(args) {
        errors.push(error);
    }

    let sig = &function.sig;
    if sig.asyncness.is_none() {
        errors.push(syn::Error::new(
            sig.fn_token.span,
            "#[mcp_test] tests must be `async fn`: the body runs on a tokio runtime",
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            sig.generics.span(),
            "#[mcp_test] tests cannot be generic",
        ));
    }
    let mut context_param = None;
    for input in &sig.inputs {
        match input {
            FnArg::Typed(typed) if is_test_context(&typed.ty) && context_param.is_none() => {
                context_param = Some(typed);
            }
            other => errors.push(syn::Error::new(
                other.span(),
                "#[mcp_test] provides one parameter, of type `TestContext`; to combine it with \
                 test-case or rstest, call `TestContext::current()` in the function instead",
            )),
        }
    }
    let target = target(
        &errors,
        [
            ("server", options.server),
            ("stdio", options.stdio),
            ("http", options.http),
            ("http_command", options.http_command),
            ("rmcp", options.rmcp),
        ],
    );
    let principal = options.principal.get();
    let tenant = options.tenant.get();
    let scopes = options.scopes.get();
    let capabilities = options.capabilities.get();
    let protocol = options.protocol.get();
    let timeout = options.timeout.get();
    let flavor = options.flavor.get();
    let start_paused = options.start_paused.get();
    let era = options.era.get();
    if let Some(era) = &era {
        // The handshake belongs to a connection the context opens itself.
        let unswitchable = match &target {
            Some(Target::HttpCommand(keyed)) => Some(("http_command", keyed.key)),
            Some(Target::Rmcp(keyed)) => Some(("rmcp", keyed.key)),
            _ => None,
        };
        if let Some((key, _)) = unswitchable {
            errors.error_at(
                era.span(),
                format!(
                    "`era` works with `server`, `stdio` and `http`: a context over `{key}` cannot \
                     start its connection in another era"
                ),
            );
        }
        if let (EraChoice::Both(span), ReturnType::Type(..)) = (era, &sig.output) {
            errors.error_at(
                *span,
                "`era = both` runs the body twice and reports each era that failed, so the test \
                 must return `()`: panic (assert) instead of returning an error",
            );
        }
    }
    let headers = options.headers.get();
    let bearer = options.bearer.get();
    check_http_headers(&errors, target.as_ref(), headers.as_ref(), bearer.as_ref());
    if let (Some(paused), Some(flavor)) = (&start_paused, &flavor)
        && paused.value
        && flavor.value() == "multi_thread"
    {
        errors.error_at(
            paused.span(),
            "`start_paused = true` needs the current_thread runtime: tokio pauses the clock of \
             a current_thread runtime only; remove `flavor = \"multi_thread\"`",
        );
    }
    let krate = options.krate.get().unwrap_or_else(default_crate_path);
    errors.check()?;
    let private = quote!(#krate::__private);

    let mut calls = Vec::new();
    if let Some(principal) = principal {
        calls.push(quote_spanned! {principal.span()=> .principal(#principal)});
    }
    if let Some(tenant) = tenant {
        calls.push(quote_spanned! {tenant.span()=> .tenant(#tenant)});
    }
    if let Some(scopes) = scopes {
        calls.push(quote_spanned! {scopes.span()=> .scopes(#scopes)});
    }
    if let Some(capabilities) = capabilities {
        calls.push(quote! {
            .client_capabilities(#private::serde_json::json!({
                #( #capabilities: {} ),*
            }))
        });
    }
    if let Some(protocol) = protocol {
        calls.push(quote_spanned! {protocol.span()=> .protocol_version(#protocol)});
    }
    if let Some(timeout) = timeout {
        let duration = match &timeout {
            Expr::Lit(lit) if matches!(lit.lit, Lit::Int(_)) => {
                quote_spanned! {timeout.span()=> ::core::time::Duration::from_millis(#timeout)}
            }
            _ => timeout.to_token_stream(),
        };
        calls.push(quote! { .timeout(#duration) });
    }
    let runtime = match flavor.as_ref().map(LitStr::value).as_deref() {
        Some("multi_thread") => quote! { new_multi_thread() },
        _ => quote! { new_current_thread() },
    };
    // Spanned at `true`: without mcp-test's `test-util` feature the error lands there.
    let pause = match &start_paused {
        Some(paused) if paused.value => {
            quote_spanned! {paused.span()=> #private::start_paused(&mut __mcp_builder, #paused); }
        }
        _ => TokenStream::new(),
    };

    let attrs = &function.attrs;
    let vis = &function.vis;
    let name = &sig.ident;
    let output = &sig.output;
    let block = &function.block;
    let (param, argument) = match context_param {
        Some(typed) => (quote! { #typed }, quote! { __mcp_context.clone() }),
        None => (TokenStream::new(), TokenStream::new()),
    };
    let body_output = match output {
        ReturnType::Default => TokenStream::new(),
        ReturnType::Type(arrow, ty) => quote! { #arrow #ty },
    };
    let options = quote! { #private::RequestOptions::new() #(#calls)* };
    let switch = match &era {
        Some(EraChoice::Legacy(span)) => quote_spanned! {*span=>
            let __mcp_context = __mcp_context.in_era(#private::Era::Legacy);
        },
        Some(EraChoice::Both(span)) => quote_spanned! {*span=>
            let __mcp_context = __mcp_context.in_era(__mcp_era);
        },
        Some(EraChoice::Current(_)) | None => TokenStream::new(),
    };
    let context = match target.expect("checked above") {
        Target::Server(Keyed { expr, .. }) => {
            let server = match expr {
                Expr::Path(path) => quote_spanned! {path.span()=> #path()},
                other => other.into_token_stream(),
            };
            quote! {
                let __mcp_server =
                    #private::IntoTestServer::into_test_server(#server);
                let __mcp_context =
                    #private::TestContext::with_options(__mcp_server, #options);
            }
        }
        // Named only when written, so a crate without the `client`, `http` or `rmcp` feature of
        // mcp-test compiles every test that does not use it. The function is spanned at the
        // key, so a missing feature is reported there.
        Target::Stdio(Keyed { key, expr, .. }) => {
            let function = quote_spanned! {key=> #private::stdio_context};
            quote! { let __mcp_context = #function(#expr, #options); }
        }
        Target::Http(Keyed { key, expr, .. }) => match fixture_headers(&private, headers, bearer) {
            None => {
                let function = quote_spanned! {key=> #private::http_context};
                quote! { let __mcp_context = #function(#expr, #options); }
            }
            Some(sent) => {
                let function = quote_spanned! {key=> #private::http_context_with};
                quote! { let __mcp_context = #function(#expr, #sent, #options); }
            }
        },
        Target::HttpCommand(Keyed { key, expr, .. }) => {
            match fixture_headers(&private, headers, bearer) {
                None => {
                    let function = quote_spanned! {key=> #private::http_command_context};
                    quote! { let __mcp_context = #function(#expr, #options).await; }
                }
                Some(sent) => {
                    let function = quote_spanned! {key=> #private::http_command_context_with};
                    quote! { let __mcp_context = #function(#expr, #sent, #options).await; }
                }
            }
        }
        // Like `server`, a path to a function is called: `rmcp = Calculator::new` runs
        // `Calculator::new()`. A handler is often a unit struct, though, and a path whose last
        // segment is capitalised (`rmcp = Calculator`) names a value, which is used as is.
        Target::Rmcp(Keyed { key, expr, .. }) => {
            let handler = match expr {
                Expr::Path(path)
                    if !path.path.segments.last().is_some_and(|segment| {
                        segment.ident.to_string().starts_with(char::is_uppercase)
                    }) =>
                {
                    quote_spanned! {path.span()=> #path()}
                }
                other => other.into_token_stream(),
            };
            let function = quote_spanned! {key=> #private::rmcp_context};
            quote! { let __mcp_context = #function(#handler, #options); }
        }
    };
    let run = if matches!(era, Some(EraChoice::Both(_))) {
        quote! {
            __mcp_runtime.block_on(#private::run_in_eras(|__mcp_era| async move {
                #context
                #switch
                #private::TestContext::scope(
                    __mcp_context.clone(),
                    #name(#argument),
                )
                .await
            }))
        }
    } else {
        quote! {
            __mcp_runtime.block_on(async {
                #context
                #switch
                #private::TestContext::scope(
                    __mcp_context.clone(),
                    #name(#argument),
                )
                .await
            })
        }
    };
    // The body is an inner fn named like the test: insta names an unnamed snapshot after the
    // function it is taken in, and that is now the test's name rather than a shared one.
    Ok(quote! {
        #(#attrs)*
        #[::core::prelude::v1::test]
        #vis fn #name() #output {
            async fn #name(#param) #body_output #block

            let mut __mcp_builder = #private::tokio::runtime::Builder::#runtime;
            __mcp_builder.enable_all();
            #pause
            let __mcp_runtime = __mcp_builder
                .build()
                .expect("#[mcp_test] could not build its tokio runtime");
            #run
        }
    })
}

/// The `FixtureHeaders` that `headers = ..` and `bearer = ..` build, each call spanned at its
/// value (so a value of the wrong type is reported there); `None` when neither is given.
fn fixture_headers(
    private: &TokenStream,
    headers: Option<Expr>,
    bearer: Option<Expr>,
) -> Option<TokenStream> {
    if headers.is_none() && bearer.is_none() {
        return None;
    }
    let mut sent = quote! { #private::FixtureHeaders::new() };
    if let Some(headers) = headers {
        sent = quote_spanned! {headers.span()=> #sent.headers(#headers)};
    }
    if let Some(bearer) = bearer {
        sent = quote_spanned! {bearer.span()=> #sent.bearer(#bearer)};
    }
    Some(sent)
}

/// What can be known of `headers = ..` and `bearer = ..` before the test runs: that the
/// target speaks HTTP, that written headers are `(name, value)` pairs with names HTTP
/// allows, that `Authorization` is not given twice, and that a written token is a token.
fn check_http_headers(
    errors: &Errors,
    target: Option<&Target>,
    headers: Option<&Expr>,
    bearer: Option<&Expr>,
) {
    let given = [("headers", headers), ("bearer", bearer)];
    let other = match target {
        Some(Target::Server(_)) => Some("server"),
        Some(Target::Stdio(_)) => Some("stdio"),
        Some(Target::Rmcp(_)) => Some("rmcp"),
        _ => None,
    };
    if let Some(other) = other {
        for (option, expr) in given {
            if let Some(expr) = expr {
                errors.error_at(
                    expr.span(),
                    format!(
                        "`{option}` is what an HTTP client sends: it works with `http` and \
                         `http_command`, and this test's target is `{other}`; the caller of an \
                         in-process or stdio server is set with `principal`, `tenant` and `scopes`"
                    ),
                );
            }
        }
    }
    if let Some(headers) = headers {
        match headers {
            Expr::Array(array) => {
                for element in &array.elems {
                    let pair = match element {
                        Expr::Tuple(tuple) if tuple.elems.len() == 2 => tuple,
                        other => {
                            errors.error_at(
                                other.span(),
                                "each header is a `(name, value)` pair: \
                                 `headers = [(\"X-Tenant\", \"acme\")]`",
                            );
                            continue;
                        }
                    };
                    let Some(Expr::Lit(ExprLit {
                        lit: Lit::Str(name),
                        ..
                    })) = pair.elems.first()
                    else {
                        continue;
                    };
                    let text = name.value();
                    let token =
                        |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
                    if text.is_empty() || !text.chars().all(token) {
                        errors.error_at(
                            name.span(),
                            format!(
                                "{text:?} is not an HTTP header name: a name is letters, digits \
                                 and !#$%&'*+-.^_`|~, without spaces or a colon"
                            ),
                        );
                    } else if text.eq_ignore_ascii_case("authorization") && bearer.is_some() {
                        errors.error_at(
                            name.span(),
                            "`Authorization` is given twice: `bearer` already sends \
                             `Authorization: Bearer <token>`; remove one",
                        );
                    }
                }
            }
            Expr::Lit(_) => errors.error_at(
                headers.span(),
                "`headers` takes `(name, value)` pairs, not one value: \
                 `headers = [(\"X-Tenant\", \"acme\")]`",
            ),
            // A variable or a call: its type says.
            _ => {}
        }
    }
    if let Some(Expr::Lit(ExprLit {
        lit: Lit::Str(token),
        ..
    })) = bearer
    {
        let text = token.value();
        let words: Vec<&str> = text.split_whitespace().collect();
        if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("bearer"))
        {
            errors.error_at(
                token.span(),
                "give the token alone: `bearer` sends `Authorization: Bearer <token>` itself",
            );
        } else if words.len() != 1 || words[0] != text {
            errors.error_at(
                token.span(),
                "a bearer token is one word, without spaces: `bearer = \"eyJhbGciOi...\"`",
            );
        }
    }
}

/// `era = ..`: the era the test speaks, or both, each with the span of its value.
enum EraChoice {
    /// `"2026-07-28"` (the default).
    Current(Span),
    /// `"2025-11-25"`.
    Legacy(Span),
    /// `both`: the test runs once in each era.
    Both(Span),
}

impl EraChoice {
    fn span(&self) -> Span {
        match self {
            EraChoice::Current(span) | EraChoice::Legacy(span) | EraChoice::Both(span) => *span,
        }
    }
}

/// Where the test's requests go.
enum Target {
    /// `server = ..`: an in-process server.
    Server(Keyed),
    /// `stdio = ..`: a command that starts the server as a child process.
    Stdio(Keyed),
    /// `http = ..`: the server's URL.
    Http(Keyed),
    /// `http_command = ..`: a command that serves HTTP and names its address.
    HttpCommand(Keyed),
    /// `rmcp = ..`: an rmcp `ServerHandler`, served in process.
    Rmcp(Keyed),
}

/// The one target given, or `None` with the problem recorded: none given, or more than one
/// (reported at every target key after the first, in the order written).
fn target(errors: &Errors, slots: [(&'static str, Slot<'_, Keyed>); 5]) -> Option<Target> {
    let mut given: Vec<(&str, Target)> = Vec::new();
    for (name, slot) in slots {
        let Some(keyed) = slot.get() else { continue };
        let target = match name {
            "server" => Target::Server(keyed),
            "stdio" => Target::Stdio(keyed),
            "http" => Target::Http(keyed),
            "http_command" => Target::HttpCommand(keyed),
            _ => Target::Rmcp(keyed),
        };
        given.push((name, target));
    }
    given.sort_by_key(|(_, target)| target.keyed().position);
    let mut given = given.into_iter();
    let Some((first, target)) = given.next() else {
        errors.error_at(
            Span::call_site(),
            format!(
                "#[mcp_test] needs a target, one of {TARGETS}: `server = my_server` (a function \
                 or an expression giving a `Server`, `ServerBuilder` or `Result<Server, _>`), \
                 `stdio = \"path/to/server\"` (a command that starts one), \
                 `http = \"http://127.0.0.1:8080/mcp\"` (its URL), `http_command = \
                 [\"path/to/server\", \"--http\", \"127.0.0.1:0\"]` (a command that serves HTTP \
                 and prints its address) or `rmcp = MyHandler::new` (an rmcp `ServerHandler`, \
                 served in process)"
            ),
        );
        return None;
    };
    let mut single = true;
    for (other, extra) in given {
        single = false;
        errors.error_at(
            extra.keyed().key,
            format!(
                "`{other}` and `{first}` both say where requests go: #[mcp_test] takes exactly \
                 one of {TARGETS}"
            ),
        );
    }
    single.then_some(target)
}

impl Target {
    fn keyed(&self) -> &Keyed {
        match self {
            Target::Server(keyed)
            | Target::Stdio(keyed)
            | Target::Http(keyed)
            | Target::HttpCommand(keyed)
            | Target::Rmcp(keyed) => keyed,
        }
    }
}

/// Whether `ty` is `TestContext` (by its last path segment, so `mcp_test::testing::TestContext`
/// and an imported `TestContext` both count).
fn is_test_context(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => {
            path.path.segments.last().is_some_and(|segment| {
                segment.ident == "TestContext" && segment.arguments.is_none()
            })
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(args: TokenStream, item: TokenStream) -> String {
        expand(args, item).to_string()
    }

    #[test]
    fn reports_every_bad_option_at_once() {
        let out = errors(
            quote! { server = s, bogus = 1, principal = "a", principal = "b", flavor = "x" },
            quote! { async fn t() {} },
        );
        assert!(out.contains("unknown #[mcp_test] option `bogus`"), "{out}");
        assert!(out.contains("duplicate option `principal`"), "{out}");
        assert!(out.contains("unknown runtime flavor"), "{out}");
    }

    #[test]
    fn requires_async_and_a_target() {
        let out = errors(quote! {}, quote! { fn t() {} });
        assert!(out.contains("must be `async fn`"), "{out}");
        assert!(
            out.contains(
                "needs a target, one of `server`, `stdio`, `http`, `http_command` or `rmcp`"
            ),
            "{out}"
        );
    }

    #[test]
    fn takes_exactly_one_target() {
        let out = errors(
            quote! { http = url(), principal = "a", server = s, stdio = "srv" },
            quote! { async fn t() {} },
        );
        assert!(
            out.contains("`server` and `http` both say where requests go"),
            "{out}"
        );
        assert!(
            out.contains("`stdio` and `http` both say where requests go"),
            "{out}"
        );
        assert!(
            !out.contains("`http` and"),
            "the first target is not blamed: {out}"
        );
    }

    #[test]
    fn names_the_body_after_the_test() {
        let out = errors(quote! { server = s }, quote! { async fn adds() {} });
        assert!(out.contains("fn adds () { async fn adds () { }"), "{out}");
        assert!(
            out.contains("scope (__mcp_context . clone () , adds () ,)"),
            "{out}"
        );
    }

    #[test]
    fn remote_targets_take_the_request_options() {
        let out = errors(
            quote! { stdio = ["python3", "server.py"], capabilities(sampling), timeout = 50 },
            quote! { async fn t(mcp: TestContext) {} },
        );
        assert!(
            out.contains("stdio_context ([\"python3\" , \"server.py\"] , :: mcp_test :: __private :: RequestOptions :: new () . client_capabilities"),
            "{out}"
        );
        assert!(!out.contains("into_test_server"), "{out}");
        let out = errors(quote! { http = start().await }, quote! { async fn t() {} });
        assert!(
            out.contains("http_context (start () . await , :: mcp_test :: __private :: RequestOptions :: new ())"),
            "{out}"
        );
        assert!(!out.contains("stdio_context"), "{out}");
    }

    #[test]
    fn http_targets_send_the_headers_and_the_bearer_given() {
        let out = errors(
            quote! { http_command = ["srv"], headers = [("X-A", "1")], bearer = token() },
            quote! { async fn t() {} },
        );
        assert!(
            out.contains("http_command_context_with ([\"srv\"] , :: mcp_test :: __private :: FixtureHeaders :: new () . headers ([(\"X-A\" , \"1\")]) . bearer (token ())"),
            "{out}"
        );
        let out = errors(
            quote! { http = url(), bearer = "t" },
            quote! { async fn t() {} },
        );
        assert!(out.contains("http_context_with (url () ,"), "{out}");
        // Without either, the plain form.
        let out = errors(quote! { http = url() }, quote! { async fn t() {} });
        assert!(!out.contains("FixtureHeaders"), "{out}");
    }

    #[test]
    fn an_rmcp_path_is_called_unless_it_names_a_value() {
        for (given, expected) in [
            (
                quote! { rmcp = Notes::new },
                "rmcp_context (Notes :: new ()",
            ),
            (quote! { rmcp = make_notes }, "rmcp_context (make_notes ()"),
            (quote! { rmcp = Calculator }, "rmcp_context (Calculator ,"),
            (
                quote! { rmcp = shapes::Square },
                "rmcp_context (shapes :: Square ,",
            ),
            (
                quote! { rmcp = Notes::new() },
                "rmcp_context (Notes :: new () ,",
            ),
        ] {
            let out = errors(given, quote! { async fn t() {} });
            assert!(out.contains(expected), "{expected}: {out}");
        }
    }

    #[test]
    fn binds_a_test_context_parameter() {
        let out = errors(
            quote! { server = s, capabilities(elicitation, sampling) },
            quote! { async fn t(mcp: mcp_test::testing::TestContext) {} },
        );
        assert!(
            out.contains("async fn t (mcp : mcp_test :: testing :: TestContext)"),
            "{out}"
        );
        assert!(out.contains("\"elicitation\" : { }"), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
    }

    #[test]
    fn every_generated_path_goes_through_the_crate_path() {
        for (krate, expected) in [
            (quote!(mcp), "mcp :: __private :: TestContext :: scope"),
            (quote!("mcp"), "mcp :: __private :: TestContext :: scope"),
            (
                quote!(::renamed::inner),
                ":: renamed :: inner :: __private :: TestContext :: scope",
            ),
        ] {
            for target in [
                quote!(server = s),
                quote!(stdio = "srv"),
                quote!(http = url()),
                quote!(rmcp = Handler),
            ] {
                let out = errors(
                    quote! { crate = #krate, #target, capabilities(roots), timeout = 5 },
                    quote! { async fn t(mcp: TestContext) {} },
                );
                assert!(!out.contains("compile_error"), "{out}");
                assert!(out.contains(expected), "{expected}: {out}");
                assert!(!out.contains(":: mcp_test"), "{out}");
            }
        }
    }

    #[test]
    fn a_bad_or_duplicate_crate_path_is_an_error() {
        for (args, message) in [
            (
                quote! { crate = "not a path", server = s },
                "`crate` must name a path to mcp-test, and \\\"not a path\\\" is not a path",
            ),
            (
                quote! { server = s, crate = 1 + 1 },
                "`crate` must name a path to mcp-test, as in",
            ),
            (
                quote! { crate, server = s },
                "`crate` needs a value: the path to mcp-test",
            ),
            (
                quote! { crate = mcp, server = s, crate = other },
                "duplicate option `crate`: give each #[mcp_test] option once",
            ),
        ] {
            let out = errors(args, quote! { async fn t() {} });
            assert!(out.contains(message), "{message}: {out}");
            assert!(!out.contains("# [test]"), "{out}");
        }
    }

    #[test]
    fn rejects_other_parameters() {
        let out = errors(quote! { server = s }, quote! { async fn t(n: u32) {} });
        assert!(out.contains("provides one parameter"), "{out}");
    }
}
