//! What both macros need to read their attributes: an [`Errors`] collector, so one compile
//! reports every problem each under its own tokens (the model is serde_derive's `Ctxt`), a
//! [`Slot`] per `key = value` entry, which reports a key given twice at its second occurrence,
//! and the `crate = ...` option both take ([`crate_path`]).

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;
use syn::meta::ParseNestedMeta;

/// Collects errors while an input is parsed and checked. Shared by reference: recording takes
/// `&self`, so parsing closures and slots can all hold it.
#[derive(Default)]
pub struct Errors {
    errors: RefCell<Vec<syn::Error>>,
}

impl Errors {
    /// No errors yet.
    pub fn new() -> Self {
        Errors::default()
    }

    /// Records an error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    /// Records an error as it is (a `syn` parse error, or one built elsewhere).
    pub fn push(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// All recorded errors combined into one, in the order they were recorded, or `Ok` when
    /// there were none.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

/// How one attribute names its keys in the "given twice" error:
/// `duplicate {noun} `{key}`{hint}`.
#[derive(Clone, Copy)]
pub struct Keys {
    /// What a key is called, e.g. "tool attribute".
    pub noun: &'static str,
    /// Appended to the message, e.g. ": give each option once"; may be empty.
    pub hint: &'static str,
}

/// One `key = value` entry of an attribute: set at most once. A second `set` while a value is
/// held is recorded as a duplicate under the second key's span, and the first value is kept.
pub struct Slot<'e, T> {
    errors: &'e Errors,
    keys: Keys,
    name: &'static str,
    value: Option<T>,
}

impl<'e, T> Slot<'e, T> {
    /// An empty slot for key `name`.
    pub fn new(errors: &'e Errors, keys: Keys, name: &'static str) -> Self {
        Slot {
            errors,
            keys,
            name,
            value: None,
        }
    }

    /// The key.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Sets the value given under the key at `span`. `None` (a value already reported as
    /// malformed) leaves the slot as it was.
    pub fn set(&mut self, span: Span, value: Option<T>) {
        if self.value.is_some() {
            self.errors.error_at(
                span,
                format!(
                    "duplicate {} `{}`{}",
                    self.keys.noun, self.name, self.keys.hint
                ),
            );
        } else if value.is_some() {
            self.value = value;
        }
    }

    /// The value, if one was set.
    pub fn get(self) -> Option<T> {
        self.value
    }
}

/// The key of `meta` as written: an identifier, or a path without spaces.
pub fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path.get_ident().map_or_else(
        || meta.path.to_token_stream().to_string().replace(' ', ""),
        ToString::to_string,
    )
}

/// Consumes whatever follows a key that is not recognised: `= EXPR` or `(...)`, so parsing goes
/// on with the next key.
pub fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

/// The path generated code reaches mcp-test through when no `crate = ...` is given.
pub fn default_crate_path() -> syn::Path {
    syn::parse_quote!(::mcp_test)
}

/// What `crate = ...` takes, for messages.
const CRATE_SHAPE: &str = "`crate = \"mcp\"` or `crate = mcp`";

/// The value of a `crate = ...` option: the path mcp-test is reached by in the calling crate,
/// for a crate that depends on it under another name. Either a string literal holding the path
/// (`crate = "mcp"`, as serde's and tokio's `crate` take it; the path's tokens take the
/// literal's span) or the path itself (`crate = mcp`, `crate = ::mcp`, or `$crate::mcp_test`
/// from a `macro_rules!` macro of a crate that re-exports mcp-test). A value that is not a
/// path without generic arguments is recorded under the value's tokens, and `None` returned.
pub fn crate_path(errors: &Errors, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<syn::Path>> {
    if !meta.input.peek(syn::Token![=]) {
        errors.error_spanned_by(
            &meta.path,
            format!("`crate` needs a value: the path to mcp-test, as in {CRATE_SHAPE}"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: syn::Expr = meta.value()?.parse()?;
    let mut expr = &value;
    while let syn::Expr::Group(group) = expr {
        expr = &group.expr;
    }
    let path = match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => match lit.parse_with(syn::Path::parse_mod_style) {
            Ok(path) => Some(path),
            Err(_) => {
                errors.error_spanned_by(
                    lit,
                    format!(
                        "`crate` must name a path to mcp-test, and {:?} is not a path; write {CRATE_SHAPE}",
                        lit.value()
                    ),
                );
                return Ok(None);
            }
        },
        syn::Expr::Path(syn::ExprPath {
            attrs, qself, path, ..
        }) if attrs.is_empty()
            && qself.is_none()
            && path
                .segments
                .iter()
                .all(|segment| segment.arguments.is_none()) =>
        {
            Some(path.clone())
        }
        _ => None,
    };
    if path.is_none() {
        errors.error_spanned_by(
            &value,
            format!("`crate` must name a path to mcp-test, as in {CRATE_SHAPE}"),
        );
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: Keys = Keys {
        noun: "option",
        hint: ": once",
    };

    #[test]
    fn errors_combine_in_order() {
        let errors = Errors::new();
        assert!(Errors::new().check().is_ok());
        errors.error_at(Span::call_site(), "first");
        errors.error_spanned_by(quote::quote!(x), "second");
        let combined = errors.check().unwrap_err();
        let messages: Vec<String> = combined.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn a_slot_keeps_the_first_value_and_reports_the_second() {
        let errors = Errors::new();
        let mut slot = Slot::new(&errors, KEYS, "tenant");
        assert_eq!(slot.name(), "tenant");
        // A malformed value leaves the slot empty: the next one is not a duplicate.
        slot.set(Span::call_site(), None);
        slot.set(Span::call_site(), Some(1));
        slot.set(Span::call_site(), Some(2));
        assert_eq!(slot.get(), Some(1));
        let message = errors.check().unwrap_err().to_string();
        assert_eq!(message, "duplicate option `tenant`: once");
    }
}
