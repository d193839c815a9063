//! Procedural macros for [`mcp-test`](https://docs.rs/mcp-test). Use them through `mcp_test`, which
//! re-exports them; generated code reaches the runtime through `mcp_test::__private`, or through
//! `__private` of the path a `crate = ...` option gives, for a crate that renames the dependency.

mod common;
mod test_attr;
mod tool;
mod tool_name;

/// Derives `mcp_test::Tool` for a struct (a plain tool) or an enum (an action tool). Documented,
/// with examples, on its re-export `mcp_test::Tool`.
#[proc_macro_derive(Tool, attributes(tool, serde, schemars))]
pub fn derive_tool(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    tool::derive(&input).into()
}

/// Turns an `async fn` into a test with a prebuilt server and `TestContext`. Documented, with
/// examples, on its re-export `mcp_test::mcp_test` (also exported as `mcp_test::test`).
#[proc_macro_attribute]
pub fn mcp_test(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    test_attr::expand(args.into(), item.into()).into()
}
