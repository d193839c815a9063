//! The derive input seen as a tool: a [`Container`] that is either a plain tool (named fields) or
//! an action tool (variants), with every attribute parsed. Shape errors (unions, tuple structs,
//! tuple variants, lifetimes, unbounded type parameters) are recorded here.

use super::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::common::Errors;
use proc_macro2::Span;
use syn::{Attribute, DeriveInput, GenericParam, Generics, Ident, Type};

/// The type `#[derive(Tool)]` is on.
pub struct Container<'a> {
    /// The type's name.
    pub ident: &'a Ident,
    /// Its generics.
    pub generics: &'a Generics,
    /// `#[tool(...)]` on the type.
    pub attrs: ContainerAttrs,
    /// The doc comment.
    pub docs: Option<String>,
    /// `#[serde(...)]` and `#[schemars(...)]` on the type, copied onto the shadow struct of a
    /// plain tool.
    pub passthrough: Vec<&'a Attribute>,
    /// Fields or actions.
    pub data: Data<'a>,
}

/// What kind of tool.
pub enum Data<'a> {
    /// A struct: a plain tool. `unit` is true for `struct X;`.
    Struct {
        /// The arguments.
        fields: Vec<Field<'a>>,
        /// `struct X;` (constructed without braces).
        unit: bool,
    },
    /// An enum: an action tool.
    Enum(Vec<Variant<'a>>),
}

/// An action: one variant of an action tool.
pub struct Variant<'a> {
    /// The variant's name.
    pub ident: &'a Ident,
    /// `#[tool(...)]` on it.
    pub attrs: VariantAttrs,
    /// The doc comment.
    pub docs: Option<String>,
    /// `#[serde(...)]` and `#[schemars(...)]`, copied onto the action's shadow struct.
    pub passthrough: Vec<&'a Attribute>,
    /// The fields: the action's `data`.
    pub fields: Vec<Field<'a>>,
    /// A unit variant (constructed without braces).
    pub unit: bool,
    /// The action's name: `#[tool(rename)]` or the variant's name in snake_case.
    pub name: String,
    /// Where to report problems with the name.
    pub name_span: Span,
}

/// One argument.
pub struct Field<'a> {
    /// The field's name.
    pub ident: &'a Ident,
    /// Its type.
    pub ty: &'a Type,
    /// `#[tool(...)]` on it.
    pub attrs: FieldAttrs,
    /// `#[doc]`, `#[serde]` and `#[schemars]` attributes, copied onto the shadow field.
    pub passthrough: Vec<&'a Attribute>,
    /// Whether it has `#[serde(flatten)]`.
    pub flatten: bool,
}

impl<'a> Container<'a> {
    /// Reads the input, whose `#[tool(...)]` on the type are already read into `attrs`,
    /// recording every problem in `cx`. `None` when the input is not a struct with named
    /// fields (or unit), nor an enum.
    pub fn from_ast(
        cx: &Errors,
        input: &'a DeriveInput,
        attrs: ContainerAttrs,
    ) -> Option<Container<'a>> {
        check_generics(cx, &input.generics);
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => Data::Struct {
                    fields: named.named.iter().map(|f| Field::from_ast(cx, f)).collect(),
                    unit: false,
                },
                syn::Fields::Unit => Data::Struct {
                    fields: Vec::new(),
                    unit: true,
                },
                syn::Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        "#[derive(Tool)] needs named fields: each field is a named argument, and a tuple struct has no names; write `struct Name { field: Type }`",
                    );
                    return None;
                }
            },
            syn::Data::Enum(e) => {
                if e.variants.is_empty() {
                    cx.error_spanned_by(
                        &input.ident,
                        "an action tool needs at least one action: add a variant to this enum",
                    );
                }
                Data::Enum(
                    e.variants
                        .iter()
                        .filter_map(|v| Variant::from_ast(cx, v))
                        .collect(),
                )
            }
            syn::Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "#[derive(Tool)] does not support unions: use a struct (a plain tool, fields are the arguments) or an enum (an action tool, variants are the actions)",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            docs: attr::docs(&input.attrs),
            passthrough: passthrough(&input.attrs, false),
            data,
        })
    }

    /// The tool's name: `#[tool(name)]` or the type's name in snake_case.
    pub fn name(&self) -> String {
        match &self.attrs.name {
            Some(name) => name.value.value(),
            None => snake_case(&self.ident.to_string()),
        }
    }
}

impl<'a> Variant<'a> {
    fn from_ast(cx: &Errors, variant: &'a syn::Variant) -> Option<Variant<'a>> {
        let attrs = VariantAttrs::from_attrs(cx, &variant.attrs);
        let (fields, unit) = match &variant.fields {
            syn::Fields::Named(named) => (
                named.named.iter().map(|f| Field::from_ast(cx, f)).collect(),
                false,
            ),
            syn::Fields::Unit => (Vec::new(), true),
            syn::Fields::Unnamed(unnamed) => {
                cx.error_spanned_by(
                    unnamed,
                    "an action's fields must be named: they are the properties of its `data` object; write `Variant { field: Type }`",
                );
                return None;
            }
        };
        if let Some((_, discriminant)) = &variant.discriminant {
            cx.error_spanned_by(
                discriminant,
                "an action cannot have a discriminant: its name is what the tool receives",
            );
        }
        let (name, name_span) = match &attrs.rename {
            Some(rename) => (rename.value.value(), rename.value.span()),
            None => (snake_case(&variant.ident.to_string()), variant.ident.span()),
        };
        Some(Variant {
            ident: &variant.ident,
            docs: attr::docs(&variant.attrs),
            passthrough: passthrough(&variant.attrs, false),
            attrs,
            fields,
            unit,
            name,
            name_span,
        })
    }
}

impl<'a> Field<'a> {
    fn from_ast(cx: &Errors, field: &'a syn::Field) -> Field<'a> {
        let flatten = field.attrs.iter().any(|a| {
            a.path().is_ident("serde")
                && matches!(&a.meta, syn::Meta::List(l)
                    if l.tokens.clone().into_iter().any(|t| t.to_string() == "flatten"))
        });
        Field {
            ident: field.ident.as_ref().expect("named fields have identifiers"),
            ty: &field.ty,
            attrs: FieldAttrs::from_attrs(cx, &field.attrs),
            passthrough: passthrough(&field.attrs, true),
            flatten,
        }
    }
}

/// The attributes copied onto generated shadow items.
fn passthrough(attrs: &[Attribute], with_docs: bool) -> Vec<&Attribute> {
    attrs
        .iter()
        .filter(|a| {
            a.path().is_ident("serde")
                || a.path().is_ident("schemars")
                || (with_docs && a.path().is_ident("doc"))
        })
        .collect()
}

/// Lifetimes are refused (a tool is `'static` and owns its arguments); a type parameter must be
/// bounded, inline or in the `where` clause, so the author states what the handler needs.
fn check_generics(cx: &Errors, generics: &Generics) {
    for param in &generics.params {
        match param {
            GenericParam::Lifetime(l) => cx.error_spanned_by(
                l,
                "a tool cannot have lifetime parameters: tools are `'static` and own their parsed arguments",
            ),
            GenericParam::Type(t) => {
                let in_where = generics.where_clause.as_ref().is_some_and(|w| {
                    w.predicates.iter().any(|p| match p {
                        syn::WherePredicate::Type(pt) => matches!(&pt.bounded_ty,
                            Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(&t.ident)),
                        _ => false,
                    })
                });
                if t.bounds.is_empty() && !in_where {
                    cx.error_spanned_by(
                        &t.ident,
                        format!(
                            "type parameter `{}` of a tool needs bounds: say what the handler needs from it (e.g. `{}: MyTrait`); #[derive(Tool)] adds `JsonSchema + DeserializeOwned + Send + 'static` itself",
                            t.ident, t.ident
                        ),
                    );
                }
            }
            GenericParam::Const(_) => {}
        }
    }
}

/// `GetItem` → `get_item`, `HTTPRequest` → `http_request`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// What JSON type a field's Rust type maps to, as far as the tokens tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `String`, `str`, `char`.
    String,
    /// An integer type; `bits` is its width (`isize`/`usize` count as 64).
    Integer {
        /// Signed.
        signed: bool,
        /// Width.
        bits: u32,
    },
    /// `f32`, `f64`.
    Number,
    /// `bool`.
    Boolean,
    /// Vectors, sets, slices, arrays.
    Array,
    /// Maps.
    Map,
    /// Anything else (a user type, an alias, `serde_json::Value`): no checks apply.
    Unknown,
}

impl Kind {
    /// Classifies `ty`, looking through `Option`, `Box`, `Arc`, `Rc` and references. The second
    /// value is whether an `Option` was peeled.
    pub fn of(ty: &Type) -> (Kind, bool) {
        let mut optional = false;
        let mut ty = ty;
        loop {
            match ty {
                Type::Reference(r) => ty = &r.elem,
                Type::Paren(p) => ty = &p.elem,
                Type::Group(g) => ty = &g.elem,
                Type::Array(_) | Type::Slice(_) => return (Kind::Array, optional),
                Type::Path(tp) if tp.qself.is_none() => {
                    let Some(last) = tp.path.segments.last() else {
                        return (Kind::Unknown, optional);
                    };
                    let name = last.ident.to_string();
                    let inner = match &last.arguments {
                        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => {
                            match a.args.first() {
                                Some(syn::GenericArgument::Type(t)) => Some(t),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    match (name.as_str(), inner) {
                        ("Option", Some(inner)) => {
                            optional = true;
                            ty = inner;
                        }
                        ("Box" | "Arc" | "Rc", Some(inner)) => ty = inner,
                        _ => return (Kind::named(&name), optional),
                    }
                }
                _ => return (Kind::Unknown, optional),
            }
        }
    }

    /// The name of the type `ty` stands for, looking through what [`Kind::of`] looks
    /// through: `u32` for `Option<Box<u32>>`; `None` for a type that is not a path.
    pub fn type_name(ty: &Type) -> Option<String> {
        let mut ty = ty;
        loop {
            match ty {
                Type::Reference(r) => ty = &r.elem,
                Type::Paren(p) => ty = &p.elem,
                Type::Group(g) => ty = &g.elem,
                Type::Path(tp) if tp.qself.is_none() => {
                    let last = tp.path.segments.last()?;
                    let name = last.ident.to_string();
                    match (&last.arguments, name.as_str()) {
                        (
                            syn::PathArguments::AngleBracketed(a),
                            "Option" | "Box" | "Arc" | "Rc",
                        ) if a.args.len() == 1 => match a.args.first() {
                            Some(syn::GenericArgument::Type(inner)) => ty = inner,
                            _ => return None,
                        },
                        _ => return Some(name),
                    }
                }
                _ => return None,
            }
        }
    }

    fn named(name: &str) -> Kind {
        match name {
            "String" | "str" | "char" => Kind::String,
            "bool" => Kind::Boolean,
            "f32" | "f64" => Kind::Number,
            "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "LinkedList" => Kind::Array,
            "HashMap" | "BTreeMap" => Kind::Map,
            _ => Kind::integer(name).unwrap_or(Kind::Unknown),
        }
    }

    /// The kind of a primitive integer type, whose name says its sign and width (`i8` ..
    /// `u128`; `isize` and `usize` taken as 64 bits).
    fn integer(name: &str) -> Option<Kind> {
        let signed = match name.get(..1)? {
            "i" => true,
            "u" => false,
            _ => return None,
        };
        let bits = match &name[1..] {
            "8" => 8,
            "16" => 16,
            "32" => 32,
            "64" | "size" => 64,
            "128" => 128,
            _ => return None,
        };
        Some(Kind::Integer { signed, bits })
    }

    /// How the kind is named in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::String => "a string",
            Kind::Integer { .. } => "an integer",
            Kind::Number => "a number",
            Kind::Boolean => "a boolean",
            Kind::Array => "an array",
            Kind::Map => "an object (map)",
            Kind::Unknown => "of a type the macro cannot see into",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake_case("Add"), "add");
        assert_eq!(snake_case("GetItem"), "get_item");
        assert_eq!(snake_case("HTTPRequest"), "http_request");
        assert_eq!(snake_case("V2Api"), "v2_api");
        assert_eq!(snake_case("already_snake"), "already_snake");
    }

    #[test]
    fn kinds_look_through_option_and_box() {
        let kind = |t: Type| Kind::of(&t);
        assert_eq!(
            kind(syn::parse_quote!(Option<String>)),
            (Kind::String, true)
        );
        assert_eq!(kind(syn::parse_quote!(Box<f64>)), (Kind::Number, false));
        assert_eq!(
            kind(syn::parse_quote!(u64)),
            (
                Kind::Integer {
                    signed: false,
                    bits: 64
                },
                false
            )
        );
        assert_eq!(kind(syn::parse_quote!(Vec<u8>)), (Kind::Array, false));
        assert_eq!(
            kind(syn::parse_quote!(serde_json::Value)),
            (Kind::Unknown, false)
        );
        assert_eq!(kind(syn::parse_quote!(&'static str)), (Kind::String, false));
    }
}
