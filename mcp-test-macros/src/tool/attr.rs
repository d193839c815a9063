//! `#[tool(...)]` attributes, each parsed once into a typed slot. A duplicate key, an unknown key
//! or a value of the wrong kind is recorded in the [`Errors`] and parsing goes on, so one compile
//! reports every bad attribute.

use crate::common::{Errors, Keys, Slot, crate_path, default_crate_path, key_of, skip_value};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

/// Keys `#[tool(...)]` accepts on the type.
pub const CONTAINER_KEYS: &str =
    "`name`, `title`, `description`, `annotations(...)`, `allow_unknown_fields`, `task`, `crate`";
/// Values `#[tool(task = "...")]` accepts.
pub const TASK_VALUES: &str = "\"forbidden\", \"optional\" or \"required\"";
/// Keys `#[tool(annotations(...))]` accepts.
pub const ANNOTATION_KEYS: &str = "`read_only`, `destructive`, `idempotent`, `open_world`";
/// Keys `#[tool(...)]` accepts on an enum variant.
pub const VARIANT_KEYS: &str = "`rename`, `description`";
/// Keys `#[tool(...)]` accepts on a field, in the order messages list them. Every key here
/// has an arm in [`FieldAttrs::from_attrs`] (a unit test holds the two together), and the
/// downstream test of the bounds (`tests/tests/derive_bounds.rs`) reads this list to require
/// a case for each numeric one.
pub const FIELD_KEY_NAMES: &[&str] = &[
    "description",
    "min_length",
    "max_length",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "pattern",
    "min_items",
    "max_items",
    "unique_items",
    "format",
    "default",
    "example",
    "header",
];

/// [`FIELD_KEY_NAMES`] for a message: "`description`, `min_length`, ...".
pub fn field_keys() -> String {
    FIELD_KEY_NAMES
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value with the tokens it was written as (for error spans) and the key it was set by.
#[derive(Clone)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// The key's span.
    pub key_span: Span,
    /// The whole `key = value` tokens, for spans.
    pub tokens: TokenStream,
}

impl<T> ToTokens for Located<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.tokens.to_tokens(tokens);
    }
}

/// How `#[tool(...)]` names its keys when one is given twice.
const KEYS: Keys = Keys {
    noun: "tool attribute",
    hint: "",
};

/// A slot for the key `name` of `#[tool(...)]`.
fn slot<'e, T>(cx: &'e Errors, name: &'static str) -> Slot<'e, Located<T>> {
    Slot::new(cx, KEYS, name)
}

/// Sets a slot from the key it was written under.
trait SetFromKey<T> {
    fn set_from(&mut self, path: &syn::Path, value: Option<T>, tokens: TokenStream);
}

impl<T> SetFromKey<T> for Slot<'_, Located<T>> {
    fn set_from(&mut self, path: &syn::Path, value: Option<T>, tokens: TokenStream) {
        let key_span = path.span();
        self.set(
            key_span,
            value.map(|value| Located {
                value,
                key_span,
                tokens,
            }),
        );
    }
}

/// A number literal, possibly negated, as written: its value both as an exact integer (when
/// it is one) and as the nearest `f64`, read from its digits, never through a Rust literal
/// whose width the compiler would pick. [`super::bounds`] decides what it is published as.
#[derive(Clone)]
pub struct Number {
    /// The exact integer it stands for: an integer literal, or a float literal without a
    /// fraction (`3e9`); `None` for a fraction, or past `i128`.
    pub int: Option<i128>,
    /// The nearest `f64` (infinite past `f64::MAX`).
    pub float: f64,
    /// Written as a float literal (with a `.` or an exponent, or a float suffix).
    pub float_literal: bool,
    /// The literal's suffix (`"u64"`, `"f32"`), or `""`.
    pub suffix: String,
    /// The literal as written, with its minus sign, for messages.
    pub text: String,
    /// The expression as the user wrote it, for error spans.
    pub source: TokenStream,
}

/// `#[tool(...)]` on the struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `name = "..."`
    pub name: Option<Located<LitStr>>,
    /// `title = "..."`
    pub title: Option<Located<LitStr>>,
    /// `description = "..."`
    pub description: Option<Located<LitStr>>,
    /// `annotations(read_only, ...)`
    pub read_only: Option<Located<bool>>,
    /// `annotations(destructive)`
    pub destructive: Option<Located<bool>>,
    /// `annotations(idempotent)`
    pub idempotent: Option<Located<bool>>,
    /// `annotations(open_world)`
    pub open_world: Option<Located<bool>>,
    /// `allow_unknown_fields`
    pub allow_unknown_fields: Option<Located<bool>>,
    /// `task = "forbidden" | "optional" | "required"`: the variant name of `TaskSupport`.
    pub task: Option<Located<&'static str>>,
    /// `crate = "path"` (or `crate = path`): the path mcp-test is reached by.
    pub krate: Option<Located<syn::Path>>,
    /// A `crate = ...` was given that could not be read, so the path to mcp-test is not known.
    pub krate_unreadable: bool,
}

impl ContainerAttrs {
    /// Parses every `#[tool(...)]` among `attrs`.
    pub fn from_attrs(cx: &Errors, attrs: &[Attribute]) -> Self {
        let mut name = slot(cx, "name");
        let mut title = slot(cx, "title");
        let mut description = slot(cx, "description");
        let mut read_only = slot(cx, "read_only");
        let mut destructive = slot(cx, "destructive");
        let mut idempotent = slot(cx, "idempotent");
        let mut open_world = slot(cx, "open_world");
        let mut allow_unknown_fields = slot(cx, "allow_unknown_fields");
        let mut task = slot(cx, "task");
        let mut krate = slot(cx, "crate");
        let mut krate_unreadable = false;
        let mut annotations = Slot::new(cx, KEYS, "annotations");
        for_each_tool_meta(cx, attrs, |meta, key| {
            let tokens = meta_tokens(meta);
            match key.as_str() {
                "name" => name.set_from(&meta.path, lit_str(cx, meta, "name")?, tokens),
                "title" => title.set_from(&meta.path, lit_str(cx, meta, "title")?, tokens),
                "description" => {
                    description.set_from(&meta.path, lit_str(cx, meta, "description")?, tokens);
                }
                "task" => {
                    let value = lit_str(cx, meta, "task")?.and_then(|lit| {
                        let variant = match lit.value().as_str() {
                            "forbidden" => Some("Forbidden"),
                            "optional" => Some("Optional"),
                            "required" => Some("Required"),
                            _ => None,
                        };
                        if variant.is_none() {
                            cx.error_spanned_by(
                                &lit,
                                format!(
                                    "unknown task support {:?}; expected {TASK_VALUES}",
                                    lit.value()
                                ),
                            );
                        }
                        variant
                    });
                    task.set_from(&meta.path, value, tokens);
                }
                "crate" => {
                    let path = crate_path(cx, meta);
                    krate_unreadable |= !matches!(path, Ok(Some(_)));
                    krate.set_from(&meta.path, path?, tokens);
                }
                "allow_unknown_fields" => allow_unknown_fields.set_from(
                    &meta.path,
                    flag(cx, meta, "allow_unknown_fields")?,
                    tokens,
                ),
                "annotations" => {
                    annotations.set(meta.path.span(), Some(()));
                    if !meta.input.peek(syn::token::Paren) {
                        cx.error_spanned_by(
                            &meta.path,
                            format!("expected `annotations(...)` with any of {ANNOTATION_KEYS}"),
                        );
                        return skip_value(meta);
                    }
                    meta.parse_nested_meta(|inner| {
                        let key = key_of(&inner);
                        let tokens = meta_tokens(&inner);
                        let slot = match key.as_str() {
                            "read_only" => &mut read_only,
                            "destructive" => &mut destructive,
                            "idempotent" => &mut idempotent,
                            "open_world" => &mut open_world,
                            _ => {
                                cx.error_spanned_by(
                                    &inner.path,
                                    format!(
                                        "unknown tool annotation `{key}`; expected one of {ANNOTATION_KEYS}"
                                    ),
                                );
                                return skip_value(&inner);
                            }
                        };
                        let value = flag(cx, &inner, slot.name())?;
                        slot.set_from(&inner.path, value, tokens);
                        Ok(())
                    })?;
                }
                _ => {
                    cx.error_spanned_by(
                        &meta.path,
                        unknown_key_message(&key, "on a tool type", CONTAINER_KEYS),
                    );
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        ContainerAttrs {
            name: name.get(),
            title: title.get(),
            description: description.get(),
            read_only: read_only.get(),
            destructive: destructive.get(),
            idempotent: idempotent.get(),
            open_world: open_world.get(),
            allow_unknown_fields: allow_unknown_fields.get(),
            task: task.get(),
            krate: krate.get(),
            krate_unreadable,
        }
    }

    /// The path generated code names mcp-test by: `crate = ...` or `::mcp_test`. `None` when a
    /// `crate = ...` could not be read (an error is recorded), as no path is known then.
    pub fn crate_path(&self) -> Option<syn::Path> {
        if self.krate_unreadable {
            return None;
        }
        Some(
            self.krate
                .as_ref()
                .map_or_else(default_crate_path, |krate| krate.value.clone()),
        )
    }
}

/// `#[tool(...)]` on an enum variant (an action).
#[derive(Default)]
pub struct VariantAttrs {
    /// `rename = "..."`: the action's name.
    pub rename: Option<Located<LitStr>>,
    /// `description = "..."`
    pub description: Option<Located<LitStr>>,
}

impl VariantAttrs {
    /// Parses every `#[tool(...)]` among `attrs`.
    pub fn from_attrs(cx: &Errors, attrs: &[Attribute]) -> Self {
        let mut rename = slot(cx, "rename");
        let mut description = slot(cx, "description");
        for_each_tool_meta(cx, attrs, |meta, key| {
            let tokens = meta_tokens(meta);
            match key.as_str() {
                "rename" => rename.set_from(&meta.path, lit_str(cx, meta, "rename")?, tokens),
                "description" => {
                    description.set_from(&meta.path, lit_str(cx, meta, "description")?, tokens);
                }
                _ => {
                    cx.error_spanned_by(
                        &meta.path,
                        unknown_key_message(&key, "on an action (enum variant)", VARIANT_KEYS),
                    );
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        VariantAttrs {
            rename: rename.get(),
            description: description.get(),
        }
    }
}

/// `#[tool(default)]` or `#[tool(default = EXPR)]`.
#[derive(Clone)]
pub enum DefaultValue {
    /// `Default::default()`.
    Trait,
    /// An expression of the field's type (a string literal is converted with `Into`).
    Expr(Expr),
}

/// `#[tool(...)]` on a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `description = "..."`
    pub description: Option<Located<LitStr>>,
    /// `min_length = N`
    pub min_length: Option<Located<u64>>,
    /// `max_length = N`
    pub max_length: Option<Located<u64>>,
    /// `min_items = N`
    pub min_items: Option<Located<u64>>,
    /// `max_items = N`
    pub max_items: Option<Located<u64>>,
    /// `unique_items`
    pub unique_items: Option<Located<bool>>,
    /// `minimum = N`
    pub minimum: Option<Located<Number>>,
    /// `maximum = N`
    pub maximum: Option<Located<Number>>,
    /// `exclusive_minimum = N`
    pub exclusive_minimum: Option<Located<Number>>,
    /// `exclusive_maximum = N`
    pub exclusive_maximum: Option<Located<Number>>,
    /// `pattern = "..."`
    pub pattern: Option<Located<LitStr>>,
    /// `format = "..."`
    pub format: Option<Located<LitStr>>,
    /// `default` / `default = EXPR`
    pub default: Option<Located<DefaultValue>>,
    /// `example = EXPR`, repeatable.
    pub examples: Vec<Expr>,
    /// `header = "Name"`
    pub header: Option<Located<LitStr>>,
}

impl FieldAttrs {
    /// Parses every `#[tool(...)]` among `attrs`.
    pub fn from_attrs(cx: &Errors, attrs: &[Attribute]) -> Self {
        let mut description = slot(cx, "description");
        let mut min_length = slot(cx, "min_length");
        let mut max_length = slot(cx, "max_length");
        let mut min_items = slot(cx, "min_items");
        let mut max_items = slot(cx, "max_items");
        let mut unique_items = slot(cx, "unique_items");
        let mut minimum = slot(cx, "minimum");
        let mut maximum = slot(cx, "maximum");
        let mut exclusive_minimum = slot(cx, "exclusive_minimum");
        let mut exclusive_maximum = slot(cx, "exclusive_maximum");
        let mut pattern = slot(cx, "pattern");
        let mut format = slot(cx, "format");
        let mut default = slot(cx, "default");
        let mut header = slot(cx, "header");
        let mut examples = Vec::new();
        for_each_tool_meta(cx, attrs, |meta, key| {
            let tokens = meta_tokens(meta);
            let path = &meta.path;
            match key.as_str() {
                "description" => {
                    description.set_from(path, lit_str(cx, meta, "description")?, tokens);
                }
                "pattern" => pattern.set_from(path, lit_str(cx, meta, "pattern")?, tokens),
                "format" => format.set_from(path, lit_str(cx, meta, "format")?, tokens),
                "header" => header.set_from(path, lit_str(cx, meta, "header")?, tokens),
                "min_length" => min_length.set_from(path, count(cx, meta, "min_length")?, tokens),
                "max_length" => max_length.set_from(path, count(cx, meta, "max_length")?, tokens),
                "min_items" => min_items.set_from(path, count(cx, meta, "min_items")?, tokens),
                "max_items" => max_items.set_from(path, count(cx, meta, "max_items")?, tokens),
                "unique_items" => {
                    unique_items.set_from(path, flag(cx, meta, "unique_items")?, tokens);
                }
                "minimum" => minimum.set_from(path, number(cx, meta, "minimum")?, tokens),
                "maximum" => maximum.set_from(path, number(cx, meta, "maximum")?, tokens),
                "exclusive_minimum" => {
                    exclusive_minimum.set_from(path, number(cx, meta, "exclusive_minimum")?, tokens)
                }
                "exclusive_maximum" => {
                    exclusive_maximum.set_from(path, number(cx, meta, "exclusive_maximum")?, tokens)
                }
                "default" => {
                    let value = if meta.input.peek(syn::Token![=]) {
                        Some(DefaultValue::Expr(meta.value()?.parse()?))
                    } else if meta.input.peek(syn::token::Paren) {
                        cx.error_spanned_by(path, "expected `default` or `default = EXPR`");
                        skip_value(meta)?;
                        None
                    } else {
                        Some(DefaultValue::Trait)
                    };
                    default.set_from(path, value, tokens);
                }
                "example" => {
                    if let Some(expr) = expr_value(cx, meta, "example", "example = EXPR")? {
                        examples.push(expr);
                    }
                }
                _ => {
                    cx.error_spanned_by(
                        path,
                        unknown_key_message(&key, "on a field", &field_keys()),
                    );
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        FieldAttrs {
            description: description.get(),
            min_length: min_length.get(),
            max_length: max_length.get(),
            min_items: min_items.get(),
            max_items: max_items.get(),
            unique_items: unique_items.get(),
            minimum: minimum.get(),
            maximum: maximum.get(),
            exclusive_minimum: exclusive_minimum.get(),
            exclusive_maximum: exclusive_maximum.get(),
            pattern: pattern.get(),
            format: format.get(),
            default: default.get(),
            examples,
            header: header.get(),
        }
    }
}

fn unknown_key_message(key: &str, place: &str, expected: &str) -> String {
    format!("unknown tool attribute `{key}` {place}; expected one of {expected}")
}

/// Calls `f` for each `key ...` inside every `#[tool(...)]` in `attrs`. A parse error that
/// leaves the rest of an attribute unreadable is recorded and ends that attribute only.
fn for_each_tool_meta(
    cx: &Errors,
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta<'_>, String) -> syn::Result<()>,
) {
    for attr in attrs {
        if !attr.path().is_ident("tool") {
            continue;
        }
        if !matches!(attr.meta, syn::Meta::List(_)) {
            cx.error_spanned_by(attr, "expected `#[tool(...)]`");
            continue;
        }
        if let Err(e) = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            f(&meta, key)
        }) {
            cx.push(e);
        }
    }
}

/// The tokens of `key` for spans (the value is not consumed yet, so only the key).
fn meta_tokens(meta: &ParseNestedMeta<'_>) -> TokenStream {
    meta.path.to_token_stream()
}

/// `key = EXPR`; a missing `= ...` is recorded.
fn expr_value(
    cx: &Errors,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    shape: &str,
) -> syn::Result<Option<Expr>> {
    if meta.input.peek(syn::Token![=]) {
        Ok(Some(meta.value()?.parse()?))
    } else {
        cx.error_spanned_by(&meta.path, format!("`{key}` needs a value: `{shape}`"));
        skip_value(meta)?;
        Ok(None)
    }
}

fn lit_str(cx: &Errors, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<LitStr>> {
    let shape = format!("{key} = \"...\"");
    Ok(match expr_value(cx, meta, key, &shape)? {
        Some(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Some(s),
        Some(other) => {
            cx.error_spanned_by(
                &other,
                format!("expected a string literal for `{key}`, as in `{shape}`"),
            );
            None
        }
        None => None,
    })
}

fn count(cx: &Errors, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<u64>> {
    let shape = format!("{key} = 1");
    Ok(match expr_value(cx, meta, key, &shape)? {
        Some(Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        })) => match i.base10_parse::<u64>() {
            Ok(n) => count_suffix(cx, &i, key, n),
            Err(e) => {
                cx.error_spanned_by(&i, format!("`{key}` must fit in 64 bits: {e}"));
                None
            }
        },
        Some(other) => {
            cx.error_spanned_by(
                &other,
                format!("expected a non-negative integer literal for `{key}`, as in `{shape}`"),
            );
            None
        }
        None => None,
    })
}

/// A count is a length: without a suffix, or with an unsigned integer type's that holds it.
fn count_suffix(cx: &Errors, lit: &syn::LitInt, key: &str, n: u64) -> Option<u64> {
    let max = match lit.suffix() {
        "" | "u64" | "usize" | "u128" => u64::MAX,
        "u32" => u64::from(u32::MAX),
        "u16" => u64::from(u16::MAX),
        "u8" => u64::from(u8::MAX),
        other => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{key}` is a count, and `{other}` is not an unsigned integer type: write `{key} = {n}` without a suffix"
                ),
            );
            return None;
        }
    };
    if n > max {
        cx.error_spanned_by(
            lit,
            format!(
                "`{key} = {lit}` does not fit its suffix `{}` (at most {max})",
                lit.suffix()
            ),
        );
        return None;
    }
    Some(n)
}

fn number(cx: &Errors, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<Number>> {
    let shape = format!("{key} = 0");
    let Some(expr) = expr_value(cx, meta, key, &shape)? else {
        return Ok(None);
    };
    let (lit, negative) = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => (lit, false),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit { lit, .. }) => (lit, true),
            _ => {
                cx.error_spanned_by(
                    &expr,
                    format!("expected a number literal for `{key}`, as in `{shape}`"),
                );
                return Ok(None);
            }
        },
        _ => {
            cx.error_spanned_by(
                &expr,
                format!("expected a number literal for `{key}`, as in `{shape}`"),
            );
            return Ok(None);
        }
    };
    let (digits, suffix, float_literal) = match lit {
        Lit::Int(i) => (i.base10_digits().to_owned(), i.suffix().to_owned(), false),
        Lit::Float(f) => (f.base10_digits().to_owned(), f.suffix().to_owned(), true),
        _ => {
            cx.error_spanned_by(
                &expr,
                format!("expected a number literal for `{key}`, as in `{shape}`"),
            );
            return Ok(None);
        }
    };
    let Ok(magnitude) = digits.parse::<f64>() else {
        cx.error_spanned_by(&expr, format!("`{key}` is not a number: {digits}"));
        return Ok(None);
    };
    let sign = if negative { -1 } else { 1 };
    let int = super::bounds::exact_integer(&digits).and_then(|i| i.checked_mul(sign));
    let written = lit.to_token_stream().to_string();
    Ok(Some(Number {
        int,
        float: if negative { -magnitude } else { magnitude },
        float_literal,
        suffix,
        text: if negative {
            format!("-{written}")
        } else {
            written
        },
        source: expr.to_token_stream(),
    }))
}

/// `key` alone (true) or `key = true|false`.
fn flag(cx: &Errors, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<bool>> {
    if meta.input.peek(syn::Token![=]) {
        let expr: Expr = meta.value()?.parse()?;
        match expr {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(b), ..
            }) => Ok(Some(b.value)),
            other => {
                cx.error_spanned_by(
                    &other,
                    format!("expected `true` or `false` for `{key}`, or `{key}` alone"),
                );
                Ok(None)
            }
        }
    } else if meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes no arguments: write `{key}` or `{key} = false`"),
        );
        skip_value(meta)?;
        Ok(None)
    } else {
        Ok(Some(true))
    }
}

/// The text of the `///` doc comments in `attrs`, lines joined with `\n`, common one-space
/// indentation removed, trimmed; `None` when there are none.
pub fn docs(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let value = s.value();
            if value.trim().is_empty() {
                lines.push(String::new());
                continue;
            }
            for line in value.lines() {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
