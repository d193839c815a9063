//! The numeric bounds of a field (`minimum`, `maximum`, `exclusive_minimum`,
//! `exclusive_maximum`) read against the field's type: the width rule. A bound is published
//! as the JSON number it is written as, at the width the field's type allows (an `i64`, a
//! `u64` or an `f64`), never through an untyped literal whose width the compiler picks; a
//! bound that is not a value of the field's type is refused with the reason and, where one
//! exists, the bound to write instead.

use super::ast::Kind;
use super::attr::Number;
use proc_macro2::{Literal, Punct, Spacing, TokenStream};
use quote::{ToTokens, TokenStreamExt};

/// A bound as it is published: a JSON number of one of the widths serde_json holds exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Published {
    /// A negative integer, or any integer of a signed field that fits `i64`.
    I64(i64),
    /// A non-negative integer past `i64::MAX` (or of an unsigned field).
    U64(u64),
    /// A number with a fraction or an exponent, on a float field.
    F64(f64),
}

impl Published {
    /// The value as an `f64`, to compare bounds of floats.
    pub fn as_f64(self) -> f64 {
        match self {
            Published::I64(v) => v as f64,
            Published::U64(v) => v as f64,
            Published::F64(v) => v,
        }
    }

    /// The value when it is an integer.
    pub fn as_int(self) -> Option<i128> {
        match self {
            Published::I64(v) => Some(i128::from(v)),
            Published::U64(v) => Some(i128::from(v)),
            Published::F64(_) => None,
        }
    }

    fn int(value: i128) -> Option<Published> {
        if let Ok(v) = i64::try_from(value) {
            Some(Published::I64(v))
        } else {
            u64::try_from(value).ok().map(Published::U64)
        }
    }
}

impl ToTokens for Published {
    /// A suffixed literal (`-5i64`, `5000000000u64`, `0.1f64`), so `json!` gets the value at
    /// its width; a negative one as `-` and the literal of its magnitude.
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match *self {
            Published::I64(i64::MIN) => {
                // `-9223372036854775808i64` is one past `i64::MAX` before the minus applies.
                let max = Literal::i64_suffixed(i64::MAX);
                tokens.extend(quote::quote!((-#max - 1)));
            }
            Published::I64(v) if v < 0 => {
                tokens.append(Punct::new('-', Spacing::Alone));
                tokens.append(Literal::i64_suffixed(-v));
            }
            Published::I64(v) => tokens.append(Literal::i64_suffixed(v)),
            Published::U64(v) => tokens.append(Literal::u64_suffixed(v)),
            Published::F64(v) if v.is_sign_negative() => {
                tokens.append(Punct::new('-', Spacing::Alone));
                tokens.append(Literal::f64_suffixed(-v));
            }
            Published::F64(v) => tokens.append(Literal::f64_suffixed(v)),
        }
    }
}

/// What a field's type takes as a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    /// An integer type: its name, and its range.
    Integer {
        name: &'static str,
        min: i128,
        max: i128,
    },
    /// `f32` or `f64`.
    Float { name: &'static str },
    /// A type the macro cannot see into: the literal's own suffix, if any, decides.
    Unknown,
}

/// The integer and float types by name: what a suffix or a field's type can be.
const INTEGERS: [(&str, i128, i128); 12] = [
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
    ("i128", i128::MIN, i128::MAX),
    ("isize", i64::MIN as i128, i64::MAX as i128),
    ("u8", 0, u8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("u128", 0, i128::MAX),
    ("usize", 0, u64::MAX as i128),
];

fn width_named(name: &str) -> Option<Width> {
    if let Some(&(name, min, max)) = INTEGERS.iter().find(|(n, ..)| *n == name) {
        return Some(Width::Integer { name, min, max });
    }
    match name {
        "f32" => Some(Width::Float { name: "f32" }),
        "f64" => Some(Width::Float { name: "f64" }),
        _ => None,
    }
}

/// The width of a field's type, from its kind and the name of its (unwrapped) type.
fn width_of(kind: Kind, type_name: Option<&str>) -> Width {
    match (kind, type_name.and_then(width_named)) {
        (Kind::Integer { .. } | Kind::Number, Some(width)) => width,
        _ => Width::Unknown,
    }
}

/// How a bound compares with the values it admits: whether it is a lower one, and
/// exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// `minimum`, `exclusive_minimum`.
    pub lower: bool,
    /// `exclusive_minimum`, `exclusive_maximum`.
    pub exclusive: bool,
}

impl Side {
    /// The side of the attribute `key`.
    pub fn of(key: &str) -> Side {
        Side {
            lower: key.ends_with("minimum"),
            exclusive: key.starts_with("exclusive"),
        }
    }
}

/// The bound `key = number` on a field of `kind` whose type is named `type_name`, as it is
/// published, or why it cannot be (a message naming the field `field`).
pub fn publish(
    key: &str,
    number: &Number,
    kind: Kind,
    type_name: Option<&str>,
    field: &str,
) -> Result<Published, String> {
    let written = &number.text;
    let suffix = number.suffix.as_str();
    let suffix_width = if suffix.is_empty() {
        None
    } else {
        match width_named(suffix) {
            Some(width) => Some(width),
            None => {
                return Err(format!(
                    "`{key} = {written}` has the suffix `{suffix}`, which is not a number type"
                ));
            }
        }
    };
    if number.float_literal
        && let Some(Width::Integer { .. }) = suffix_width
    {
        let instead = match number.int {
            Some(int) => format!(
                "`{int}{suffix}` or `{written_bare}`",
                written_bare = bare(written, suffix)
            ),
            None => "a float literal without the suffix".to_owned(),
        };
        return Err(format!(
            "`{key} = {written}`: a float literal (it has a fraction or an exponent) with the integer suffix `{suffix}`, which Rust does not accept; write {instead}"
        ));
    }
    let field_width = width_of(kind, type_name);
    if let (Some(suffix_width), Width::Integer { name, .. } | Width::Float { name }) =
        (suffix_width, field_width)
    {
        let suffix_name = match suffix_width {
            Width::Integer { name, .. } | Width::Float { name } => name,
            Width::Unknown => "",
        };
        if suffix_name != name {
            return Err(format!(
                "`{key} = {written}` has the suffix `{suffix_name}`, but field `{field}` is `{name}`: write the bound without a suffix, or with `{name}`"
            ));
        }
    }
    let width = match field_width {
        Width::Unknown => suffix_width.unwrap_or(Width::Unknown),
        known => known,
    };
    match width {
        Width::Integer { name, min, max } => {
            let Some(value) = number.int else {
                let side = Side::of(key);
                let same = equivalent_integer_bound(number.float, side);
                return Err(format!(
                    "`{key} = {written}` is not a whole number, but field `{field}` is an integer (`{name}`): write `{same}`, which admits the same integers"
                ));
            };
            if value < min || value > max {
                if min == 0 && value < 0 && field_width != Width::Unknown {
                    return Err(format!(
                        "`{key}` is negative, but field `{field}` is unsigned"
                    ));
                }
                let (whose, rule) = if field_width == Width::Unknown {
                    (format!("its suffix `{name}`"), "the suffix's type")
                } else {
                    (
                        format!("field `{field}`'s type `{name}`"),
                        "the field's type",
                    )
                };
                return Err(format!(
                    "`{key} = {written}` does not fit {whose} ({min} to {max}): a bound must be a value of {rule}"
                ));
            }
            Published::int(value).ok_or_else(|| {
                format!(
                    "`{key} = {written}` does not fit in 64 bits: a JSON Schema bound is published as an `i64` or a `u64` ({} to {})",
                    i64::MIN,
                    u64::MAX
                )
            })
        }
        Width::Float { name } => {
            if !number.float.is_finite() {
                return Err(format!(
                    "`{key} = {written}` is past the largest `f64`: a bound must be a finite number"
                ));
            }
            if name == "f32" && !(number.float as f32).is_finite() {
                return Err(format!(
                    "`{key} = {written}` does not fit field `{field}`'s type `f32` (at most {:e} in magnitude): a bound must be a value of the field's type",
                    f32::MAX
                ));
            }
            publish_as_written(key, number)
        }
        Width::Unknown => publish_as_written(key, number),
    }
}

/// An integer literal as an integer, a float literal as the nearest `f64`.
fn publish_as_written(key: &str, number: &Number) -> Result<Published, String> {
    let written = &number.text;
    if number.float_literal {
        if number.float.is_finite() {
            Ok(Published::F64(number.float))
        } else {
            Err(format!(
                "`{key} = {written}` is past the largest `f64`: a bound must be a finite number"
            ))
        }
    } else {
        number.int.and_then(Published::int).ok_or_else(|| {
            format!(
                "`{key} = {written}` does not fit in 64 bits: a JSON Schema bound is published as an `i64` or a `u64`; write a float literal (`1e20`) for a float field"
            )
        })
    }
}

/// The literal `written` without its `suffix`.
fn bare<'a>(written: &'a str, suffix: &str) -> &'a str {
    written.strip_suffix(suffix).unwrap_or(written)
}

/// The integer bound that admits the same integers as the fractional `value` on `side`:
/// `minimum = 1.5` is `minimum = 2`, `exclusive_maximum = 1.5` is `maximum = 1`.
fn equivalent_integer_bound(value: f64, side: Side) -> String {
    if side.lower {
        // `+ 0.0` makes `-0` zero.
        format!("minimum = {}", value.ceil() + 0.0)
    } else {
        format!("maximum = {}", value.floor() + 0.0)
    }
}

/// The integer bounds as one inclusive range of the integers they admit, within `min..=max`
/// of the type; `None` when the type's range is not known.
pub fn integer_range(kind: Kind, type_name: Option<&str>) -> Option<(i128, i128)> {
    match width_of(kind, type_name) {
        Width::Integer { min, max, .. } => Some((min, max)),
        _ => None,
    }
}

/// The exact integer a decimal literal's digits (`123`, `1.50e3`, `3e9`) stand for; `None`
/// when it has a fraction or does not fit `i128`.
pub fn exact_integer(digits: &str) -> Option<i128> {
    let digits: String = digits.chars().filter(|c| *c != '_').collect();
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(at) => (&digits[..at], digits[at + 1..].parse::<i32>().ok()?),
        None => (digits.as_str(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut all: String = format!("{whole}{fraction}");
    let mut exponent = exponent - i32::try_from(fraction.len()).ok()?;
    while exponent < 0 {
        if !all.ends_with('0') {
            return all.trim_start_matches('0').is_empty().then_some(0);
        }
        all.pop();
        exponent += 1;
    }
    let all = all.trim_start_matches('0');
    if all.is_empty() {
        return Some(0);
    }
    if all.len() + usize::try_from(exponent).ok()? > 39 {
        return None;
    }
    let mut value: i128 = all.parse().ok()?;
    for _ in 0..exponent {
        value = value.checked_mul(10)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_integers_of_decimal_literals() {
        assert_eq!(exact_integer("3e9"), Some(3_000_000_000));
        assert_eq!(exact_integer("1.50e3"), Some(1_500));
        assert_eq!(exact_integer("5_000.0"), Some(5_000));
        assert_eq!(exact_integer("2E-1"), None);
        assert_eq!(exact_integer("0.0"), Some(0));
        assert_eq!(exact_integer("1.5"), None);
        assert_eq!(exact_integer("120e-1"), Some(12));
        assert_eq!(exact_integer("1e40"), None);
        assert_eq!(
            exact_integer("18446744073709551615"),
            Some(u64::MAX as i128)
        );
    }

    #[test]
    fn published_bounds_are_suffixed_literals() {
        let text = |p: Published| p.to_token_stream().to_string();
        assert_eq!(text(Published::I64(-5)), "- 5i64");
        assert_eq!(text(Published::U64(5_000_000_000)), "5000000000u64");
        assert_eq!(text(Published::F64(0.1)), "0.1f64");
        assert_eq!(text(Published::F64(-2.5)), "- 2.5f64");
        assert!(text(Published::I64(i64::MIN)).contains("9223372036854775807i64"));
    }

    #[test]
    fn equivalent_bounds_of_fractions() {
        let side = Side::of;
        assert_eq!(
            equivalent_integer_bound(1.5, side("minimum")),
            "minimum = 2"
        );
        assert_eq!(
            equivalent_integer_bound(1.5, side("exclusive_maximum")),
            "maximum = 1"
        );
        assert_eq!(
            equivalent_integer_bound(-0.5, side("exclusive_minimum")),
            "minimum = 0"
        );
    }
}
