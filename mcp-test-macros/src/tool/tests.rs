//! Expansion tests: the derive run on `quote!{}` input, checked on the generated tokens.

use super::derive;
use quote::quote;

fn expand(input: proc_macro2::TokenStream) -> String {
    let input: syn::DeriveInput = syn::parse2(input).expect("test input parses");
    derive(&input).to_string()
}

/// The messages of the `compile_error!`s in an expansion, in order.
fn errors(expanded: &str) -> Vec<String> {
    expanded
        .split(":: core :: compile_error ! {")
        .skip(1)
        .map(|rest| {
            let start = rest.find('"').expect("a message") + 1;
            let end = rest[start..].find("\" }").expect("end of message") + start;
            rest[start..end].to_owned()
        })
        .collect()
}

#[test]
fn a_struct_gets_a_shadow_struct_and_translated_constraints() {
    let out = expand(quote! {
        /// Adds.
        #[tool(name = "add", annotations(read_only))]
        struct Add {
            /// First
            #[tool(minimum = 0, exclusive_maximum = 1.5)]
            a: f64,
            #[tool(max_length = 3, pattern = "^[a-z]+$")]
            s: String,
            #[serde(rename = "B")]
            b: Option<i64>,
        }
    });
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains("struct __McpTestArguments"), "{out}");
    assert!(
        out.contains("const NAME : & 'static str = \"add\""),
        "{out}"
    );
    assert!(
        out.contains("extend (\"minimum\" = 0i64 , \"exclusiveMaximum\" = 1.5f64)"),
        "{out}"
    );
    assert!(
        out.contains("extend (\"maxLength\" = 3u64 , \"pattern\" = \"^[a-z]+$\")"),
        "{out}"
    );
    assert!(out.contains("# [serde (rename = \"B\")]"), "{out}");
    assert!(out.contains("# [serde (deny_unknown_fields)]"), "{out}");
    assert!(
        out.contains("read_only_hint : :: core :: option :: Option :: Some (true)"),
        "{out}"
    );
    assert!(out.contains("String :: from (\"Adds.\")"), "{out}");
}

#[test]
fn allow_unknown_fields_drops_deny_unknown_fields() {
    let out = expand(quote! {
        #[tool(allow_unknown_fields)]
        struct Open { a: String }
    });
    assert!(!out.contains("deny_unknown_fields"), "{out}");
}

#[test]
fn task_support_is_generated_only_when_given() {
    let out = expand(quote! {
        #[tool(task = "required")]
        struct Long { a: String }
    });
    assert!(
        out.contains("fn task_support () -> :: mcp_test :: __private :: TaskSupport { :: mcp_test :: __private :: TaskSupport :: Required }"),
        "{out}"
    );
    let out = expand(quote! {
        struct Short { a: String }
    });
    assert!(!out.contains("task_support"), "{out}");
}

#[test]
fn an_enum_gets_one_shadow_struct_per_action() {
    let out = expand(quote! {
        enum Items {
            /// Gets one.
            GetItem { id: String },
            #[tool(rename = "ls")]
            List,
        }
    });
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains("struct __McpTestAction0"), "{out}");
    assert!(out.contains("struct __McpTestAction1"), "{out}");
    assert!(out.contains("& [\"get_item\" , \"ls\"]"), "{out}");
    assert!(out.contains("Self :: List"), "{out}");
}

#[test]
fn every_error_of_an_item_is_reported_together_with_a_stub() {
    let out = expand(quote! {
        #[tool(nmae = "x", title = 5)]
        struct Bad {
            #[tool(header = "X-Rate")]
            rate: f64,
            #[tool(pattern = 5, min_length = -1, min_length = 2)]
            code: String,
        }
    });
    let errors = errors(&out);
    assert_eq!(errors.len(), 5, "{errors:#?}");
    assert!(
        errors[0].starts_with("unknown tool attribute `nmae`"),
        "{errors:#?}"
    );
    assert!(
        errors[1].starts_with("expected a string literal for `title`"),
        "{errors:#?}"
    );
    assert!(
        errors[2].starts_with("expected a string literal for `pattern`"),
        "{errors:#?}"
    );
    assert!(
        errors[3].starts_with("expected a non-negative integer literal for `min_length`"),
        "{errors:#?}"
    );
    assert!(errors[4].contains("is a number"), "{errors:#?}");
    assert!(
        out.contains("unimplemented"),
        "a stub impl follows the errors: {out}"
    );
}

#[test]
fn duplicate_actions_and_keys_are_errors() {
    let out = expand(quote! {
        #[tool(name = "a", name = "b")]
        enum Dup {
            Get,
            #[tool(rename = "get")]
            Fetch,
        }
    });
    let errors = errors(&out);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(errors[0], "duplicate tool attribute `name`");
    assert!(
        errors[1].starts_with("duplicate action name `get`"),
        "{errors:#?}"
    );
}

#[test]
fn shapes_that_cannot_be_tools_are_errors() {
    for (input, message) in [
        (
            quote!(
                struct T(u8);
            ),
            "needs named fields",
        ),
        (quote!(union U { a: u8 }), "does not support unions"),
        (
            quote!(
                struct G<T> {
                    t: T,
                }
            ),
            "needs bounds",
        ),
        (
            quote!(
                struct L<'a> {
                    t: &'a str,
                }
            ),
            "lifetime parameters",
        ),
        (
            quote!(
                enum E {}
            ),
            "at least one action",
        ),
        (
            quote!(
                enum E {
                    A(u8),
                }
            ),
            "must be named",
        ),
    ] {
        let out = expand(input);
        let errors = errors(&out);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(errors[0].contains(message), "{errors:#?}");
    }
}

#[test]
fn wide_integer_headers_are_kept_within_the_safe_range() {
    let out = expand(quote! {
        struct H { #[tool(header = "Count")] count: i64, #[tool(header = "Id")] id: u64 }
    });
    assert!(
        out.contains("\"x-mcp-header\" = \"Count\" , \"maximum\" = 9007199254740991i64 , \"minimum\" = - 9007199254740991i64"),
        "{out}"
    );
    assert!(
        out.contains("\"x-mcp-header\" = \"Id\" , \"maximum\" = 9007199254740991i64)"),
        "{out}"
    );
}

#[test]
fn every_generated_path_goes_through_the_crate_path() {
    for (attribute, expected) in [
        (
            quote!(#[tool(crate = "mcp")]),
            "mcp :: __private :: Tool for",
        ),
        (
            quote!(#[tool(crate = "::renamed::inner")]),
            ":: renamed :: inner :: __private :: Tool for",
        ),
        (quote!(#[tool(crate = mcp)]), "mcp :: __private :: Tool for"),
    ] {
        for item in [
            quote! {
                #attribute
                #[tool(title = "T", annotations(read_only), task = "optional")]
                struct Generic<T: Clone> { #[tool(default = "x")] a: String, t: Option<T> }
            },
            quote! {
                #attribute
                enum Actions { Get { id: String }, List }
            },
        ] {
            let out = expand(item);
            assert!(errors(&out).is_empty(), "{out}");
            assert!(out.contains(expected), "{expected}: {out}");
            assert!(!out.contains(":: mcp_test"), "{out}");
        }
    }
    let out = expand(quote!(
        struct Plain {}
    ));
    assert!(
        out.contains(":: mcp_test :: __private :: Tool for"),
        "{out}"
    );
}

#[test]
fn a_bad_crate_path_is_an_error_and_leaves_no_stub() {
    for (attribute, message) in [
        (
            quote!(#[tool(crate = "not a path")]),
            "`crate` must name a path to mcp-test, and \\\"not a path\\\" is not a path; write `crate = \\\"mcp\\\"` or `crate = mcp`",
        ),
        (
            quote!(#[tool(crate = "")]),
            "`crate` must name a path to mcp-test, and \\\"\\\" is not a path",
        ),
        (
            quote!(#[tool(crate = 5)]),
            "`crate` must name a path to mcp-test, as in `crate = \\\"mcp\\\"` or `crate = mcp`",
        ),
        (
            quote!(#[tool(crate = mcp::<u8>)]),
            "`crate` must name a path to mcp-test",
        ),
        (
            quote!(#[tool(crate)]),
            "`crate` needs a value: the path to mcp-test",
        ),
        (
            quote!(#[tool(crate("mcp"))]),
            "`crate` needs a value: the path to mcp-test",
        ),
    ] {
        let out = expand(quote! {
            #attribute
            struct Bad { a: String }
        });
        let errors = errors(&out);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(errors[0].starts_with(message), "{message}: {errors:#?}");
        assert!(!out.contains("unimplemented"), "no stub: {out}");
    }
}

#[test]
fn a_duplicate_crate_path_is_an_error_and_the_stub_takes_the_first() {
    let out = expand(quote! {
        #[tool(crate = "mcp", crate = "other")]
        struct Twice { a: String }
    });
    let errors = errors(&out);
    assert_eq!(errors, ["duplicate tool attribute `crate`"]);
    assert!(
        out.contains("impl mcp :: __private :: Tool for Twice"),
        "{out}"
    );
    assert!(!out.contains(":: mcp_test"), "{out}");
}

#[test]
fn bounds_are_published_at_the_width_the_field_allows() {
    let out = expand(quote! {
        struct Wide {
            #[tool(maximum = 5_000_000_000i64, minimum = -9_223_372_036_854_775_808)]
            a: i64,
            #[tool(exclusive_maximum = 3e9, maximum = 18_446_744_073_709_551_615)]
            b: Option<u64>,
            #[tool(minimum = -1.5e30, maximum = 0.1f32)]
            c: f32,
            #[tool(maximum = 5_000_000_000)]
            d: MyNumber,
        }
    });
    assert!(errors(&out).is_empty(), "{out}");
    for expected in [
        "\"maximum\" = 5000000000i64",
        "\"minimum\" = (- 9223372036854775807i64 - 1)",
        "\"maximum\" = 18446744073709551615u64",
        "\"exclusiveMaximum\" = 3000000000i64",
        "\"minimum\" = - 1500000000000000000000000000000f64",
        "\"maximum\" = 0.1f64",
        "extend (\"maximum\" = 5000000000i64)",
    ] {
        assert!(out.contains(expected), "{expected} in {out}");
    }
}

#[test]
fn a_bound_that_is_not_a_value_of_the_field_type_is_an_error() {
    let out = expand(quote! {
        struct Narrow {
            #[tool(maximum = 5_000_000_000)]
            a: i32,
            #[tool(minimum = -1)]
            b: u8,
            #[tool(minimum = 1.5)]
            c: Option<i16>,
            #[tool(maximum = 5_000_000_000i64)]
            d: u64,
            #[tool(exclusive_maximum = 3e9u64)]
            e: u64,
            #[tool(maximum = 1e39)]
            f: f32,
            #[tool(maximum = 1u8)]
            g: f64,
            #[tool(maximum = 300u8)]
            h: MyNumber,
            #[tool(maximum = 170_141_183_460_469_231_731_687_303_715_884_105_727)]
            i: i128,
            #[tool(min_length = 3i32, max_length = 300u8)]
            j: String,
        }
    });
    assert_eq!(
        errors(&out),
        [
            // Counts are read with the attribute, the other bounds checked with the field.
            "`min_length` is a count, and `i32` is not an unsigned integer type: write `min_length = 3` without a suffix",
            "`max_length = 300u8` does not fit its suffix `u8` (at most 255)",
            "`maximum = 5_000_000_000` does not fit field `a`'s type `i32` (-2147483648 to 2147483647): a bound must be a value of the field's type",
            "`minimum` is negative, but field `b` is unsigned",
            "`minimum = 1.5` is not a whole number, but field `c` is an integer (`i16`): write `minimum = 2`, which admits the same integers",
            "`maximum = 5_000_000_000i64` has the suffix `i64`, but field `d` is `u64`: write the bound without a suffix, or with `u64`",
            "`exclusive_maximum = 3e9u64`: a float literal (it has a fraction or an exponent) with the integer suffix `u64`, which Rust does not accept; write `3000000000u64` or `3e9`",
            "`maximum = 1e39` does not fit field `f`'s type `f32` (at most 3.4028235e38 in magnitude): a bound must be a value of the field's type",
            "`maximum = 1u8` has the suffix `u8`, but field `g` is `f64`: write the bound without a suffix, or with `f64`",
            "`maximum = 300u8` does not fit its suffix `u8` (0 to 255): a bound must be a value of the suffix's type",
            "`maximum = 170_141_183_460_469_231_731_687_303_715_884_105_727` does not fit in 64 bits: a JSON Schema bound is published as an `i64` or a `u64` (-9223372036854775808 to 18446744073709551615)",
        ]
    );
}

#[test]
fn bounds_that_leave_no_value_are_an_error() {
    let out = expand(quote! {
        struct Empty {
            #[tool(exclusive_minimum = 4, exclusive_maximum = 5)]
            a: i32,
            #[tool(minimum = 1.5, exclusive_maximum = 1.5)]
            b: f64,
            #[tool(exclusive_maximum = 0)]
            c: u32,
            #[tool(minimum = 10, maximum = 1)]
            d: i64,
            #[tool(exclusive_minimum = 4, exclusive_maximum = 5)]
            e: f64,
        }
    });
    assert_eq!(
        errors(&out),
        [
            "no value of field `a` satisfies both `exclusive_minimum = 4` and `exclusive_maximum = 5`: every call would be rejected",
            "no value of field `b` satisfies both `minimum = 1.5` and `exclusive_maximum = 1.5`: every call would be rejected",
            "no value of field `c` satisfies `exclusive_maximum = 0`: every call would be rejected",
            "`minimum` (10) is greater than `maximum` (1)",
        ]
    );
}

#[test]
fn every_field_key_has_a_parser_arm() {
    // Each key of the list the messages (and the downstream bounds test) read is one the
    // parser knows: none is reported unknown.
    let values = |key: &str| match key {
        "description" | "pattern" | "format" | "header" => quote!(= "x"),
        "unique_items" | "default" => quote!(),
        _ => quote!(= 1),
    };
    for key in super::attr::FIELD_KEY_NAMES {
        let ident = syn::Ident::new(key, proc_macro2::Span::call_site());
        let value = values(key);
        let cx = crate::common::Errors::new();
        let field: syn::Field = syn::parse_quote!(#[tool(#ident #value)] v: u32);
        super::attr::FieldAttrs::from_attrs(&cx, &field.attrs);
        if let Err(e) = cx.check() {
            assert!(!e.to_string().contains("unknown"), "{key}: {e}");
        }
    }
    let cx = crate::common::Errors::new();
    let field: syn::Field = syn::parse_quote!(#[tool(multiple_of = 2)] v: u32);
    super::attr::FieldAttrs::from_attrs(&cx, &field.attrs);
    let message = cx.check().unwrap_err().to_string();
    assert!(message.contains(&super::attr::field_keys()), "{message}");
}
