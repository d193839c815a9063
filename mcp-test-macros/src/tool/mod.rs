//! `#[derive(Tool)]`, in the shape of serde_derive: [`ast`] reads the input and its attributes
//! ([`attr`]), [`check`] applies the rules that span several of them (with [`bounds`], the
//! width rule of the numeric bounds), [`expand`] generates code.
//! Every problem is collected in a [`crate::common::Errors`], so one compile reports all of them; when there
//! are any, a stub impl is emitted beside the errors so the type's other uses stay quiet.
//! Generated code names mcp-test by the path `#[tool(crate = "...")]` gives, `::mcp_test` by
//! default.

mod ast;
mod attr;
mod bounds;
mod check;
mod expand;

use proc_macro2::TokenStream;

/// Expands `#[derive(Tool)]` on `input`.
pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    let cx = crate::common::Errors::new();
    let attrs = attr::ContainerAttrs::from_attrs(&cx, &input.attrs);
    let krate = attrs.crate_path();
    let container = ast::Container::from_ast(&cx, input, attrs);
    if let Some(container) = &container {
        check::check(&cx, container);
    }
    let fallback_name = ast::snake_case(&input.ident.to_string());
    match (container, cx.check(), krate) {
        (Some(container), Ok(()), Some(krate)) => expand::expand(&container, &krate),
        (container, result, krate) => {
            let errors = result
                .err()
                .map(syn::Error::into_compile_error)
                .unwrap_or_default();
            let name = container.map_or(fallback_name, |c| c.name());
            // The stub names the `Tool` trait, so it needs the path to mcp-test: with a
            // `crate = ...` that could not be read, there is none to name, and no stub.
            let stub = krate.map(|krate| expand::stub(input, &name, &krate));
            quote::quote!(#errors #stub)
        }
    }
}

#[cfg(test)]
mod tests;
