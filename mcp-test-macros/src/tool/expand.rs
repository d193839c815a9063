//! Code generation. Everything is emitted inside `const _: () = { ... };` and reaches the runtime
//! through `__private` of the crate path (`#[tool(crate = "...")]`, `::mcp_test` by default):
//! every function here takes that module's path as `private`.
//!
//! Per argument object (the struct, or each action's `data`) a hidden *shadow* struct is
//! generated with the user's fields, field types and `#[serde]`/`#[schemars]`/doc attributes,
//! plus the `#[tool]` constraints translated into schemars attributes. It derives both
//! `Deserialize` and `JsonSchema`, so the published schema and argument parsing are generated
//! from the same declaration and cannot disagree. Parsing moves its fields into `Self`. Every
//! number the schema publishes is emitted as a suffixed literal (`5000000000i64`,
//! [`bounds::Published`]): the `json!` that schemars' `extend` writes would otherwise give an
//! unsuffixed literal the type `i32`, and wrap it.

use super::ast::{Container, Data, Field, Kind, Variant};
use super::attr::DefaultValue;
use super::bounds;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{Expr, ExprLit, GenericParam, Generics, Lit};

const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// The `Tool` impl and its hidden helpers; `krate` is the path to mcp-test.
pub fn expand(container: &Container<'_>, krate: &syn::Path) -> TokenStream {
    let private = &quote!(#krate::__private);
    let ident = container.ident;
    let bounded = with_tool_bounds(private, container.generics);
    let (impl_generics, ty_generics, where_clause) = bounded.split_for_impl();
    let name = container.name();
    let deny_unknown = container
        .attrs
        .allow_unknown_fields
        .as_ref()
        .is_none_or(|a| !a.value);

    let title = option_string(
        private,
        container.attrs.title.as_ref().map(|t| t.value.value()),
    );
    let description = option_string(
        private,
        container
            .attrs
            .description
            .as_ref()
            .map(|d| d.value.value())
            .or_else(|| container.docs.clone()),
    );
    let annotations = annotations(private, container);
    let task_support = container.attrs.task.as_ref().map(|task| {
        let variant = format_ident!("{}", task.value);
        quote! {
            fn task_support() -> #private::TaskSupport {
                #private::TaskSupport::#variant
            }
        }
    });

    let mut items = TokenStream::new();
    let (input_schema, parse) = match &container.data {
        Data::Struct { fields, unit } => {
            let shadow = format_ident!("__McpTestArguments");
            items.extend(shadow_struct(
                &shadow,
                container.generics,
                &container.passthrough,
                fields,
                deny_unknown,
                "args",
            ));
            let moves = fields.iter().map(|f| {
                let field = f.ident;
                quote!(#field: __arguments.#field)
            });
            let construct = if *unit {
                quote!(Self)
            } else {
                quote!(Self { #(#moves),* })
            };
            (
                quote! {
                    #private::input_schema::<#shadow #ty_generics>()
                },
                quote! {
                    let __arguments: #shadow #ty_generics =
                        #private::parse_arguments(arguments)?;
                    ::core::result::Result::Ok(#construct)
                },
            )
        }
        Data::Enum(variants) => {
            let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            let mut actions = Vec::new();
            let mut arms = Vec::new();
            for (index, variant) in variants.iter().enumerate() {
                let shadow = format_ident!("__McpTestAction{}", index);
                items.extend(shadow_struct(
                    &shadow,
                    container.generics,
                    &variant.passthrough,
                    &variant.fields,
                    deny_unknown,
                    &format!("action{index}"),
                ));
                actions.push(action_entry(private, variant, &shadow, &ty_generics));
                arms.push(action_arm(private, variant, &shadow, &ty_generics));
            }
            (
                quote! {
                    #private::action_input_schema(
                        #private::vec![#(#actions),*],
                        #deny_unknown,
                    )
                },
                quote! {
                    const ACTIONS: &[&str] = &[#(#names),*];
                    let (__action, __data) =
                        #private::split_action(arguments, ACTIONS)?;
                    match __action {
                        #(#arms)*
                        _ => ::core::result::Result::Err(
                            #private::unknown_action(__action, ACTIONS),
                        ),
                    }
                },
            )
        }
    };

    // One reference to the user's `run`, spanned at the type so a missing `run` is reported
    // once, under the type's name. Only the path takes that span: `self` and `ctx` keep the
    // derive's own, so a type named inside a `macro_rules!` (another hygiene context) still
    // reaches the generated method's parameters. `self` goes through `SelfByValue`, so a
    // `run` that takes `&self` is reported as such; that error keeps the derive's span
    // (spanned at the type's name, rustc would suggest borrowing the name).
    let run_path = quote_spanned!(ident.span()=> <#ident #ty_generics>::run);
    let by_value = quote!(<_ as #private::SelfByValue<Self>>::from_tool);
    let run_call = quote!(#run_path(#by_value(self), ctx));
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_imports, unused_qualifications, clippy::all)]
        const _: () = {
            // The shadow structs' `#[serde(crate)]` and `#[schemars(crate)]` name these: those
            // take a path in a string, and a string cannot carry every path `crate = ...` can
            // (`$crate` from a `macro_rules!` macro).
            use #private::serde as __mcp_test_serde;
            use #private::schemars as __mcp_test_schemars;

            #items

            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc(hidden)]
                #[allow(dead_code)]
                fn __mcp_test_run<'__ctx>(
                    self,
                    ctx: &'__ctx #private::Context,
                ) -> impl ::core::future::Future<
                    Output = impl #private::IntoToolResult,
                > + ::core::marker::Send + '__ctx {
                    #run_call
                }
            }

            impl #impl_generics #private::Tool for #ident #ty_generics #where_clause {
                const NAME: &'static str = #name;

                fn title() -> ::core::option::Option<#private::String> {
                    #title
                }

                fn description() -> ::core::option::Option<#private::String> {
                    #description
                }

                fn input_schema() -> #private::serde_json::Value {
                    #input_schema
                }

                fn output_schema() -> ::core::option::Option<#private::serde_json::Value> {
                    #private::output_schema_of::<Self, _, _>(Self::__mcp_test_run)
                }

                fn annotations() -> ::core::option::Option<#private::ToolAnnotations> {
                    #annotations
                }

                #task_support

                fn parse(
                    arguments: #private::serde_json::Value,
                ) -> ::core::result::Result<Self, #private::ToolError> {
                    <Self as #private::Tool>::parse_borrowed(&arguments)
                }

                fn parse_borrowed(
                    arguments: &#private::serde_json::Value,
                ) -> ::core::result::Result<Self, #private::ToolError> {
                    #parse
                }

                fn call(
                    self,
                    ctx: &#private::Context,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<#private::CallToolResult, #private::ToolError>,
                > + ::core::marker::Send {
                    #private::run(self.__mcp_test_run(ctx))
                }
            }
        };
    }
}

/// What is emitted when the input has errors: the errors, plus an impl whose methods are never
/// meant to run, so uses of the type as a `Tool` elsewhere do not add "trait not implemented"
/// noise to the real errors.
pub fn stub(input: &syn::DeriveInput, name: &str, krate: &syn::Path) -> TokenStream {
    let private = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut predicates = where_clause
        .map(|w| {
            w.predicates
                .iter()
                .map(|p| quote!(#p,))
                .collect::<TokenStream>()
        })
        .unwrap_or_default();
    predicates.extend(quote!(#ident #ty_generics: ::core::marker::Send + 'static,));
    quote! {
        #[doc(hidden)]
        const _: () = {
            impl #impl_generics #private::Tool for #ident #ty_generics where #predicates {
                const NAME: &'static str = #name;
                fn input_schema() -> #private::serde_json::Value {
                    ::core::unimplemented!("#[derive(Tool)] reported errors")
                }
                fn parse(
                    _: #private::serde_json::Value,
                ) -> ::core::result::Result<Self, #private::ToolError> {
                    ::core::unimplemented!("#[derive(Tool)] reported errors")
                }
                fn call(
                    self,
                    _: &#private::Context,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<#private::CallToolResult, #private::ToolError>,
                > + ::core::marker::Send {
                    ::core::future::pending()
                }
            }
        };
    }
}

fn option_string(private: &TokenStream, value: Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#private::String::from(#s))),
        None => quote!(::core::option::Option::None),
    }
}

fn annotations(private: &TokenStream, container: &Container<'_>) -> TokenStream {
    let a = &container.attrs;
    let hints = [
        (quote!(read_only_hint), &a.read_only),
        (quote!(destructive_hint), &a.destructive),
        (quote!(idempotent_hint), &a.idempotent),
        (quote!(open_world_hint), &a.open_world),
    ];
    let set: Vec<TokenStream> = hints
        .iter()
        .filter_map(|(field, slot)| {
            slot.as_ref().map(|s| {
                let v = s.value;
                quote!(#field: ::core::option::Option::Some(#v),)
            })
        })
        .collect();
    if set.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        quote! {
            ::core::option::Option::Some(#private::ToolAnnotations {
                #(#set)*
                ..::core::default::Default::default()
            })
        }
    }
}

/// The container's generics with `JsonSchema + DeserializeOwned + Send + 'static` added to every
/// type parameter: what the shadow structs and the `Tool` impl need.
fn with_tool_bounds(private: &TokenStream, generics: &Generics) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<_> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(t.ident.clone()),
            _ => None,
        })
        .collect();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause.predicates.push(syn::parse_quote! {
            #param: #private::schemars::JsonSchema
                + #private::serde::de::DeserializeOwned
                + ::core::marker::Send
                + 'static
        });
    }
    generics
}

/// The hidden struct that derives `Deserialize` and `JsonSchema` for one argument object.
fn shadow_struct(
    shadow: &syn::Ident,
    generics: &Generics,
    passthrough: &[&syn::Attribute],
    fields: &[Field<'_>],
    deny_unknown: bool,
    prefix: &str,
) -> TokenStream {
    let mut helpers = TokenStream::new();
    let has_flatten = fields.iter().any(|f| f.flatten);
    let user_denies = passthrough.iter().any(|a| {
        matches!(&a.meta, syn::Meta::List(l)
            if l.tokens.clone().into_iter().any(|t| t.to_string() == "deny_unknown_fields"))
    });
    let deny = match (deny_unknown && !user_denies, has_flatten) {
        (false, _) => quote!(),
        // serde cannot combine deny_unknown_fields with flatten; the schema still forbids
        // unknown properties, and the server validates before parsing.
        (true, true) => quote!(#[schemars(deny_unknown_fields)]),
        (true, false) => quote!(#[serde(deny_unknown_fields)]),
    };
    let shadow_fields = fields.iter().map(|field| {
        let ident = field.ident;
        let ty = field.ty;
        let passthrough = &field.passthrough;
        let (translated, helper) = translate(field, prefix);
        helpers.extend(helper);
        quote! {
            #(#passthrough)*
            #translated
            #ident: #ty,
        }
    });
    let shadow_fields: Vec<TokenStream> = shadow_fields.collect();
    let type_params: Vec<&syn::Ident> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(&t.ident),
            _ => None,
        })
        .collect();
    let phantom = if type_params.is_empty() {
        quote!()
    } else {
        quote! {
            #[serde(skip)]
            __mcp_test_phantom: ::core::marker::PhantomData<fn() -> (#(#type_params,)*)>,
        }
    };
    let where_clause = &generics.where_clause;
    quote! {
        #[derive(
            __mcp_test_serde::Deserialize,
            __mcp_test_schemars::JsonSchema,
        )]
        #[serde(crate = "__mcp_test_serde")]
        #[schemars(crate = "__mcp_test_schemars")]
        #(#passthrough)*
        #deny
        #[allow(non_camel_case_types, dead_code)]
        struct #shadow #generics #where_clause {
            #(#shadow_fields)*
            #phantom
        }
        #helpers
    }
}

/// The schemars/serde attributes a field's `#[tool(...)]` translates into, and any helper items
/// they need (a `default = EXPR` function).
fn translate(field: &Field<'_>, prefix: &str) -> (TokenStream, TokenStream) {
    let a = &field.attrs;
    let mut out = TokenStream::new();
    let mut helpers = TokenStream::new();
    let mut extensions: Vec<TokenStream> = Vec::new();
    let mut ext = |key: &str, value: TokenStream| extensions.push(quote!(#key = #value));

    for (key, slot) in [
        ("minLength", &a.min_length),
        ("maxLength", &a.max_length),
        ("minItems", &a.min_items),
        ("maxItems", &a.max_items),
    ] {
        if let Some(s) = slot {
            let n = s.value;
            ext(key, quote!(#n));
        }
    }
    if let Some(s) = &a.unique_items {
        let v = s.value;
        ext("uniqueItems", quote!(#v));
    }
    let (kind, _) = Kind::of(field.ty);
    let type_name = Kind::type_name(field.ty);
    for (key, attribute, slot) in [
        ("minimum", "minimum", &a.minimum),
        ("maximum", "maximum", &a.maximum),
        (
            "exclusiveMinimum",
            "exclusive_minimum",
            &a.exclusive_minimum,
        ),
        (
            "exclusiveMaximum",
            "exclusive_maximum",
            &a.exclusive_maximum,
        ),
    ] {
        // Checked already (`check`): a bound that cannot be published is an error there, and
        // nothing is expanded then.
        if let Some(s) = slot
            && let Ok(value) = bounds::publish(
                attribute,
                &s.value,
                kind,
                type_name.as_deref(),
                &field.ident.to_string(),
            )
        {
            ext(key, quote!(#value));
        }
    }
    if let Some(s) = &a.pattern {
        let lit = &s.value;
        ext("pattern", quote!(#lit));
    }
    if let Some(s) = &a.format {
        let lit = &s.value;
        ext("format", quote!(#lit));
    }
    if let Some(s) = &a.header {
        let lit = &s.value;
        ext("x-mcp-header", quote!(#lit));
        // Header values are compared as JSON numbers: keep integers within ±(2^53 − 1).
        if let (Kind::Integer { signed, bits }, _) = Kind::of(field.ty)
            && bits >= 64
        {
            if a.maximum.is_none() && a.exclusive_maximum.is_none() {
                ext("maximum", quote!(#MAX_SAFE_INTEGER));
            }
            if signed && a.minimum.is_none() && a.exclusive_minimum.is_none() {
                let min = -MAX_SAFE_INTEGER;
                ext("minimum", quote!(#min));
            }
        }
    }
    if !extensions.is_empty() {
        out.extend(quote!(#[schemars(extend(#(#extensions),*))]));
    }
    if let Some(s) = &a.description {
        let lit = &s.value;
        out.extend(quote!(#[schemars(description = #lit)]));
    }
    for example in &a.examples {
        out.extend(quote!(#[schemars(example = &(#example))]));
    }
    if let Some(default) = &a.default {
        match &default.value {
            DefaultValue::Trait => out.extend(quote!(#[serde(default)])),
            DefaultValue::Expr(expr) => {
                let function = format_ident!("__mcp_test_default_{}_{}", prefix, field.ident);
                let ty = field.ty;
                let value = match expr {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(_), ..
                    }) => quote!(::core::convert::Into::into(#expr)),
                    _ => quote!(#expr),
                };
                helpers.extend(quote! {
                    #[allow(non_snake_case)]
                    fn #function() -> #ty {
                        #value
                    }
                });
                let path = function.to_string();
                out.extend(quote!(#[serde(default = #path)]));
            }
        }
    }
    (out, helpers)
}

fn action_entry(
    private: &TokenStream,
    variant: &Variant<'_>,
    shadow: &syn::Ident,
    ty_generics: &syn::TypeGenerics<'_>,
) -> TokenStream {
    let name = &variant.name;
    let description = variant
        .attrs
        .description
        .as_ref()
        .map(|d| d.value.value())
        .or_else(|| variant.docs.clone());
    let description = match description {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #private::Action {
            name: #name,
            description: #description,
            data: #private::input_schema::<#shadow #ty_generics>(),
        }
    }
}

fn action_arm(
    private: &TokenStream,
    variant: &Variant<'_>,
    shadow: &syn::Ident,
    ty_generics: &syn::TypeGenerics<'_>,
) -> TokenStream {
    let name = &variant.name;
    let ident = variant.ident;
    let moves = variant.fields.iter().map(|f| {
        let field = f.ident;
        quote!(#field: __data.#field)
    });
    let construct = if variant.unit {
        quote!(Self::#ident)
    } else {
        quote!(Self::#ident { #(#moves),* })
    };
    let data_binding = if variant.fields.is_empty() {
        quote!(_)
    } else {
        quote!(__data)
    };
    quote! {
        #name => {
            let #data_binding: #shadow #ty_generics =
                #private::parse_data(#name, __data)?;
            ::core::result::Result::Ok(#construct)
        }
    }
}
