//! `#[mcp_test]`: an async test with a prebuilt server and a `TestContext`.
//!
//! ```text
//! #[mcp_test(server = calculator, principal = "alice", scopes = ["math"],
//!            capabilities(elicitation), protocol = "2026-07-28", timeout = 5000,
//!            flavor = "current_thread")]
//! async fn adds(mcp: TestContext) { ... }
//! ```
//!
//! expands to a `#[test]` fn that builds a tokio runtime, builds the server and the context
//! inside it, and runs the body (as an inner `async fn`, so `return` and `?` behave as written)
//! with the context both passed in (if the fn declares a `TestContext` parameter) and installed
//! as `TestContext::current()` for the body's task.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Expr, FnArg, ItemFn, Lit, LitStr, ReturnType, Type};

use crate::common::{Errors, Keys, Slot, key_of, skip_value};

const OPTIONS: &str =
    "server, principal, tenant, scopes, capabilities(..), protocol, timeout, flavor";
const CAPABILITIES: &[&str] = &["elicitation", "sampling", "roots"];

/// How `#[mcp_test(..)]` names its keys when one is given twice.
const KEYS: Keys = Keys {
    noun: "option",
    hint: ": give each #[mcp_test] option once",
};

/// One slot per option.
struct Options<'e> {
    server: Slot<'e, Expr>,
    principal: Slot<'e, Expr>,
    tenant: Slot<'e, Expr>,
    scopes: Slot<'e, Expr>,
    capabilities: Slot<'e, Vec<LitStr>>,
    protocol: Slot<'e, Expr>,
    timeout: Slot<'e, Expr>,
    flavor: Slot<'e, LitStr>,
}

impl<'e> Options<'e> {
    fn new(errors: &'e Errors) -> Self {
        Options {
            server: Slot::new(errors, KEYS, "server"),
            principal: Slot::new(errors, KEYS, "principal"),
            tenant: Slot::new(errors, KEYS, "tenant"),
            scopes: Slot::new(errors, KEYS, "scopes"),
            capabilities: Slot::new(errors, KEYS, "capabilities"),
            protocol: Slot::new(errors, KEYS, "protocol"),
            timeout: Slot::new(errors, KEYS, "timeout"),
            flavor: Slot::new(errors, KEYS, "flavor"),
        }
    }
}

fn parse_option(meta: ParseNestedMeta, options: &mut Options, errors: &Errors) -> syn::Result<()> {
    let span = meta.path.span();
    let name = key_of(&meta);
    let expr_slot = match name.as_str() {
        "server" => Some(&mut options.server),
        "principal" => Some(&mut options.principal),
        "tenant" => Some(&mut options.tenant),
        "scopes" => Some(&mut options.scopes),
        "protocol" => Some(&mut options.protocol),
        "timeout" => Some(&mut options.timeout),
        _ => None,
    };
    if let Some(slot) = expr_slot {
        slot.set(span, Some(meta.value()?.parse()?));
        return Ok(());
    }
    match name.as_str() {
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
    let parser = syn::meta::parser(|meta| parse_option(meta, &mut options, &errors));
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
    if !options.server.is_set() {
        errors.push(syn::Error::new(
            Span::call_site(),
            "#[mcp_test] needs `server = ..`: a function returning the server \
             (`server = my_server`) or an expression (a `Server`, `ServerBuilder`, or \
             `Result<Server, _>`)",
        ));
    }
    let server = options.server.get();
    let principal = options.principal.get();
    let tenant = options.tenant.get();
    let scopes = options.scopes.get();
    let capabilities = options.capabilities.get();
    let protocol = options.protocol.get();
    let timeout = options.timeout.get();
    let flavor = options.flavor.get();
    errors.check()?;

    let server = match server.expect("checked above") {
        Expr::Path(path) => quote_spanned! {path.span()=> #path()},
        other => other.into_token_stream(),
    };
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
            .client_capabilities(::mcp_test::__private::serde_json::json!({
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
    Ok(quote! {
        #(#attrs)*
        #[::core::prelude::v1::test]
        #vis fn #name() #output {
            async fn __mcp_test_body(#param) #body_output #block

            let __mcp_runtime = ::mcp_test::__private::tokio::runtime::Builder::#runtime
                .enable_all()
                .build()
                .expect("#[mcp_test] could not build its tokio runtime");
            __mcp_runtime.block_on(async {
                let __mcp_server =
                    ::mcp_test::__private::IntoTestServer::into_test_server(#server);
                let __mcp_context = ::mcp_test::__private::TestContext::with_options(
                    __mcp_server,
                    ::mcp_test::__private::RequestOptions::new() #(#calls)*,
                );
                ::mcp_test::__private::TestContext::scope(
                    __mcp_context.clone(),
                    __mcp_test_body(#argument),
                )
                .await
            })
        }
    })
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
    fn requires_async_and_a_server() {
        let out = errors(quote! {}, quote! { fn t() {} });
        assert!(out.contains("must be `async fn`"), "{out}");
        assert!(out.contains("needs `server = ..`"), "{out}");
    }

    #[test]
    fn binds_a_test_context_parameter() {
        let out = errors(
            quote! { server = s, capabilities(elicitation, sampling) },
            quote! { async fn t(mcp: mcp_test::testing::TestContext) {} },
        );
        assert!(
            out.contains("async fn __mcp_test_body (mcp : mcp_test :: testing :: TestContext)"),
            "{out}"
        );
        assert!(out.contains("\"elicitation\" : { }"), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
    }

    #[test]
    fn rejects_other_parameters() {
        let out = errors(quote! { server = s }, quote! { async fn t(n: u32) {} });
        assert!(out.contains("provides one parameter"), "{out}");
    }
}
