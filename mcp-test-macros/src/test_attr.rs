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
use syn::{Expr, FnArg, ItemFn, Lit, LitStr, ReturnType, Token, Type};

const OPTIONS: &str =
    "server, principal, tenant, scopes, capabilities(..), protocol, timeout, flavor";
const CAPABILITIES: &[&str] = &["elicitation", "sampling", "roots"];

#[derive(Default)]
struct Options {
    server: Option<Expr>,
    principal: Option<Expr>,
    tenant: Option<Expr>,
    scopes: Option<Expr>,
    capabilities: Option<Vec<LitStr>>,
    protocol: Option<Expr>,
    timeout: Option<Expr>,
    flavor: Option<LitStr>,
}

/// Collects every error so one compile reports every bad option, each under its own token.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }
}

fn set<T>(slot: &mut Option<T>, value: T, name: &str, span: Span, errors: &mut Errors) {
    if slot.is_some() {
        errors.push(syn::Error::new(
            span,
            format!("duplicate option `{name}`: give each #[mcp_test] option once"),
        ));
    } else {
        *slot = Some(value);
    }
}

/// Skips whatever value an unknown option has, so parsing goes on to the next option.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|nested| skip_value(&nested))?;
    }
    Ok(())
}

fn parse_option(
    meta: ParseNestedMeta,
    options: &mut Options,
    errors: &mut Errors,
) -> syn::Result<()> {
    let span = meta.path.span();
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| meta.path.to_token_stream().to_string().replace(' ', ""));
    match name.as_str() {
        "server" => set(
            &mut options.server,
            meta.value()?.parse()?,
            "server",
            span,
            errors,
        ),
        "principal" => set(
            &mut options.principal,
            meta.value()?.parse()?,
            "principal",
            span,
            errors,
        ),
        "tenant" => set(
            &mut options.tenant,
            meta.value()?.parse()?,
            "tenant",
            span,
            errors,
        ),
        "scopes" => set(
            &mut options.scopes,
            meta.value()?.parse()?,
            "scopes",
            span,
            errors,
        ),
        "protocol" => set(
            &mut options.protocol,
            meta.value()?.parse()?,
            "protocol",
            span,
            errors,
        ),
        "timeout" => set(
            &mut options.timeout,
            meta.value()?.parse()?,
            "timeout",
            span,
            errors,
        ),
        "flavor" => {
            let flavor: LitStr = meta.value()?.parse()?;
            if !matches!(flavor.value().as_str(), "current_thread" | "multi_thread") {
                errors.push(syn::Error::new(
                    flavor.span(),
                    "unknown runtime flavor: expected \"current_thread\" or \"multi_thread\"",
                ));
            }
            set(&mut options.flavor, flavor, "flavor", span, errors);
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
                            cap.path.to_token_stream().to_string().replace(' ', ""),
                            CAPABILITIES.join(", ")
                        )));
                        skip_value(&cap)?;
                    }
                }
                Ok(())
            })?;
            set(
                &mut options.capabilities,
                list,
                "capabilities",
                span,
                errors,
            );
        }
        _ => {
            errors.push(syn::Error::new(
                span,
                format!("unknown #[mcp_test] option `{name}`: expected one of {OPTIONS}"),
            ));
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
    let mut options = Options::default();
    let mut errors = Errors::default();
    let parser = syn::meta::parser(|meta| parse_option(meta, &mut options, &mut errors));
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
    if options.server.is_none() {
        errors.push(syn::Error::new(
            Span::call_site(),
            "#[mcp_test] needs `server = ..`: a function returning the server \
             (`server = my_server`) or an expression (a `Server`, `ServerBuilder`, or \
             `Result<Server, _>`)",
        ));
    }
    if let Some(error) = errors.0 {
        return Err(error);
    }

    let server = match options.server.expect("checked above") {
        Expr::Path(path) => quote_spanned! {path.span()=> #path()},
        other => other.into_token_stream(),
    };
    let mut calls = Vec::new();
    if let Some(principal) = options.principal {
        calls.push(quote_spanned! {principal.span()=> .principal(#principal)});
    }
    if let Some(tenant) = options.tenant {
        calls.push(quote_spanned! {tenant.span()=> .tenant(#tenant)});
    }
    if let Some(scopes) = options.scopes {
        calls.push(quote_spanned! {scopes.span()=> .scopes(#scopes)});
    }
    if let Some(capabilities) = options.capabilities {
        calls.push(quote! {
            .client_capabilities(::mcp_test::__private::serde_json::json!({
                #( #capabilities: {} ),*
            }))
        });
    }
    if let Some(protocol) = options.protocol {
        calls.push(quote_spanned! {protocol.span()=> .protocol_version(#protocol)});
    }
    if let Some(timeout) = options.timeout {
        let duration = match &timeout {
            Expr::Lit(lit) if matches!(lit.lit, Lit::Int(_)) => {
                quote_spanned! {timeout.span()=> ::core::time::Duration::from_millis(#timeout)}
            }
            _ => timeout.to_token_stream(),
        };
        calls.push(quote! { .timeout(#duration) });
    }
    let runtime = match options.flavor.as_ref().map(LitStr::value).as_deref() {
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
                    ::mcp_test::testing::IntoTestServer::into_test_server(#server);
                let __mcp_context = ::mcp_test::testing::TestContext::with_options(
                    __mcp_server,
                    ::mcp_test::testing::RequestOptions::new() #(#calls)*,
                );
                ::mcp_test::testing::TestContext::scope(
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
