//! Rules that span several attributes or fields: the tool name's syntax, duplicate action names,
//! `header` placement and syntax, and constraints that cannot apply to a field's type.

use super::ast::{Container, Data, Field, Kind};
use super::attr::{Located, Number};
use super::bounds::{self, Published, Side};
use crate::common::Errors;
use std::collections::HashMap;

/// Runs every check, recording problems in `cx`.
pub fn check(cx: &Errors, container: &Container<'_>) {
    check_tool_name(cx, container);
    match &container.data {
        Data::Struct { fields, .. } => {
            let mut headers = HashMap::new();
            for field in fields {
                check_field(cx, field, true, &mut headers);
            }
        }
        Data::Enum(variants) => {
            let mut names: HashMap<&str, &syn::Ident> = HashMap::new();
            for variant in variants {
                check_action_name(cx, &variant.name, variant.name_span);
                if let Some(first) = names.insert(&variant.name, variant.ident) {
                    cx.error_at(
                        variant.name_span,
                        format!(
                            "duplicate action name `{}`: variant `{first}` already has it; give one of them `#[tool(rename = \"...\")]`",
                            variant.name
                        ),
                    );
                }
                let mut headers = HashMap::new();
                for field in &variant.fields {
                    check_field(cx, field, false, &mut headers);
                }
            }
        }
    }
}

/// The spec's tool-name rule ([`crate::tool_name`]), under `name = "..."` or the type's name.
fn check_tool_name(cx: &Errors, container: &Container<'_>) {
    let name = container.name();
    if let Err(problem) = crate::tool_name::check(&name) {
        match &container.attrs.name {
            Some(lit) => {
                cx.error_spanned_by(&lit.value, format!("invalid tool name {name:?}: {problem}"))
            }
            None => cx.error_spanned_by(
                container.ident,
                format!("invalid tool name {name:?}: {problem}"),
            ),
        }
    }
}

fn check_action_name(cx: &Errors, name: &str, span: proc_macro2::Span) {
    if name.is_empty() {
        cx.error_at(span, "an action name cannot be empty");
    }
}

fn check_field(
    cx: &Errors,
    field: &Field<'_>,
    top_level: bool,
    headers: &mut HashMap<String, String>,
) {
    let (kind, _optional) = Kind::of(field.ty);
    let attrs = &field.attrs;
    let field_name = field.ident.to_string();

    let mismatch = |key: &str, tokens: &dyn quote::ToTokens, wants: &str, hint: &str| {
        cx.error_spanned_by(
            tokens,
            format!(
                "`{key}` applies to {wants}, but field `{field_name}` is {}{hint}",
                kind.describe()
            ),
        );
    };
    let is = |wanted: &[Kind]| kind == Kind::Unknown || wanted.iter().any(|w| same_kind(*w, kind));
    let strings = [Kind::String];
    let numbers = [
        Kind::Number,
        Kind::Integer {
            signed: true,
            bits: 0,
        },
    ];
    let arrays = [Kind::Array];

    for (key, slot) in [
        ("min_length", &attrs.min_length),
        ("max_length", &attrs.max_length),
    ] {
        if let Some(s) = slot
            && !is(&strings)
        {
            let hint = if kind == Kind::Array {
                format!("; use `{}` for arrays", key.replace("length", "items"))
            } else {
                String::new()
            };
            mismatch(key, s, "strings", &hint);
        }
    }
    for (key, slot) in [
        ("min_items", &attrs.min_items),
        ("max_items", &attrs.max_items),
    ] {
        if let Some(s) = slot
            && !is(&arrays)
        {
            let hint = if kind == Kind::String {
                format!("; use `{}` for strings", key.replace("items", "length"))
            } else {
                String::new()
            };
            mismatch(key, s, "arrays", &hint);
        }
    }
    if let Some(s) = &attrs.unique_items
        && !is(&arrays)
    {
        mismatch("unique_items", s, "arrays", "");
    }
    if let Some(s) = &attrs.pattern
        && !is(&strings)
    {
        mismatch("pattern", s, "strings", "");
    }
    let type_name = Kind::type_name(field.ty);
    let mut published = Vec::new();
    for (key, slot) in [
        ("minimum", &attrs.minimum),
        ("maximum", &attrs.maximum),
        ("exclusive_minimum", &attrs.exclusive_minimum),
        ("exclusive_maximum", &attrs.exclusive_maximum),
    ] {
        if let Some(s) = slot {
            if !is(&numbers) {
                mismatch(key, s, "numbers", "");
                continue;
            }
            match bounds::publish(key, &s.value, kind, type_name.as_deref(), &field_name) {
                Ok(value) => published.push((key, value, s)),
                Err(message) => cx.error_spanned_by(&s.value.source, message),
            }
        }
    }
    some_value_left(cx, &published, kind, type_name.as_deref(), &field_name);
    ordered(
        cx,
        "min_length",
        &attrs.min_length,
        "max_length",
        &attrs.max_length,
    );
    ordered(
        cx,
        "min_items",
        &attrs.min_items,
        "max_items",
        &attrs.max_items,
    );
    if let Some(header) = &attrs.header {
        check_header(cx, field, header, kind, top_level, headers);
    }
}

/// The numeric bounds that could be published must leave some value of the field's type: a
/// `minimum` above the `maximum`, `exclusive_minimum = 4` with `exclusive_maximum = 5` on an
/// integer, or `exclusive_maximum = 0` on an unsigned field reject every call.
fn some_value_left(
    cx: &Errors,
    published: &[(&str, Published, &Located<Number>)],
    kind: Kind,
    type_name: Option<&str>,
    field_name: &str,
) {
    let get = |key: &str| published.iter().find(|(k, ..)| *k == key);
    if let (Some(lo), Some(hi)) = (get("minimum"), get("maximum")) {
        let greater = match (lo.1.as_int(), hi.1.as_int()) {
            (Some(a), Some(b)) => a > b,
            _ => lo.1.as_f64() > hi.1.as_f64(),
        };
        if greater {
            cx.error_spanned_by(
                &lo.2.value.source,
                format!(
                    "`minimum` ({}) is greater than `maximum` ({})",
                    lo.2.value.text, hi.2.value.text
                ),
            );
            return;
        }
    }
    let lowers: Vec<_> = published
        .iter()
        .filter(|(k, ..)| Side::of(k).lower)
        .collect();
    let uppers: Vec<_> = published
        .iter()
        .filter(|(k, ..)| !Side::of(k).lower)
        .collect();
    let empty = |lo: &(&str, Published, &Located<Number>),
                 hi: &(&str, Published, &Located<Number>)| {
        let exclusive = Side::of(lo.0).exclusive || Side::of(hi.0).exclusive;
        match (
            lo.1.as_int(),
            hi.1.as_int(),
            bounds::integer_range(kind, type_name),
        ) {
            // Integers: the least and the greatest admitted, inclusive.
            (Some(a), Some(b), Some(_)) => {
                let a = if Side::of(lo.0).exclusive { a + 1 } else { a };
                let b = if Side::of(hi.0).exclusive { b - 1 } else { b };
                a > b
            }
            _ => {
                let (a, b) = (lo.1.as_f64(), hi.1.as_f64());
                a > b || (a == b && exclusive)
            }
        }
    };
    for lo in &lowers {
        for hi in &uppers {
            if empty(lo, hi) {
                cx.error_spanned_by(
                    &lo.2.value.source,
                    format!(
                        "no value of field `{field_name}` satisfies both `{} = {}` and `{} = {}`: every call would be rejected",
                        lo.0, lo.2.value.text, hi.0, hi.2.value.text
                    ),
                );
                return;
            }
        }
    }
    // One exclusive bound at the edge of an integer type's range leaves nothing either.
    if let Some((min, max)) = bounds::integer_range(kind, type_name) {
        for (key, value, located) in published {
            let (side, Some(v)) = (Side::of(key), value.as_int()) else {
                continue;
            };
            let edge = if side.lower { v >= max } else { v <= min };
            if side.exclusive && edge {
                cx.error_spanned_by(
                    &located.value.source,
                    format!(
                        "no value of field `{field_name}` satisfies `{key} = {}`: every call would be rejected",
                        located.value.text
                    ),
                );
            }
        }
    }
}

fn same_kind(a: Kind, b: Kind) -> bool {
    matches!((a, b), (Kind::Integer { .. }, Kind::Integer { .. })) || a == b
}

fn ordered(
    cx: &Errors,
    lo_key: &str,
    lo: &Option<Located<u64>>,
    hi_key: &str,
    hi: &Option<Located<u64>>,
) {
    if let (Some(lo), Some(hi)) = (lo, hi)
        && lo.value > hi.value
    {
        cx.error_at(
            lo.key_span,
            format!(
                "`{lo_key}` ({}) is greater than `{hi_key}` ({})",
                lo.value, hi.value
            ),
        );
    }
}

/// `x-mcp-header`: a non-empty RFC 9110 token, unique case-insensitively, on a string, integer or
/// boolean property reachable from the root through `properties` alone.
fn check_header(
    cx: &Errors,
    field: &Field<'_>,
    header: &Located<syn::LitStr>,
    kind: Kind,
    top_level: bool,
    headers: &mut HashMap<String, String>,
) {
    let name = header.value.value();
    if !top_level {
        cx.error_spanned_by(
            &header.value,
            "`header` is not allowed on an action's fields: x-mcp-header must be reachable from the root through `properties` alone, and an action's `data` schema sits under `allOf`/`then`",
        );
        return;
    }
    if field.flatten {
        cx.error_spanned_by(
            &header.value,
            "`header` cannot go on a `#[serde(flatten)]` field: put it on a field of the flattened type's own tool",
        );
    }
    match kind {
        Kind::String | Kind::Integer { .. } | Kind::Boolean => {}
        Kind::Number => cx.error_spanned_by(
            &header.value,
            format!(
                "`header` needs a string, integer or boolean field, but `{}` is a number: MCP forbids mirroring numbers into headers (x-mcp-header)",
                field.ident
            ),
        ),
        Kind::Unknown => cx.error_spanned_by(
            &header.value,
            format!(
                "`header` needs a field of type `String`, an integer type or `bool` (optionally in `Option`); the macro cannot tell what `{}` is",
                field.ident
            ),
        ),
        other => cx.error_spanned_by(
            &header.value,
            format!(
                "`header` needs a string, integer or boolean field, but `{}` is {}",
                field.ident,
                other.describe()
            ),
        ),
    }
    if name.is_empty() {
        cx.error_spanned_by(&header.value, "a header name cannot be empty");
        return;
    }
    if let Some(bad) = name.chars().find(|c| !is_tchar(*c)) {
        cx.error_spanned_by(
            &header.value,
            format!(
                "invalid header name {name:?}: {bad:?} is not allowed in an HTTP token (RFC 9110 tchar)"
            ),
        );
        return;
    }
    if let Some(other) = headers.insert(name.to_ascii_lowercase(), field.ident.to_string()) {
        cx.error_spanned_by(
            &header.value,
            format!(
                "duplicate header name {name:?} (header names are case-insensitive): field `{other}` already uses it"
            ),
        );
    }
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}
