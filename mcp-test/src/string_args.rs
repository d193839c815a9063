//! Typed values from `name → string` pairs: the variables a URI template extracted, and the
//! arguments of `prompts/get` (which are `{string: string}` on the wire).
//!
//! [`from_pairs`] deserializes the pairs into any `T: DeserializeOwned` whose fields are
//! scalars: strings as they are, numbers, booleans and `char`s parsed from the text, unit enum
//! variants by name, `Option` for absent fields. An error names the field that failed.

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use std::fmt;

/// Why pairs did not deserialize: the field (when one is to blame) and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringArgsError {
    /// The variable or argument that failed, if the failure is about one.
    pub field: Option<String>,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for StringArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "`{field}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StringArgsError {}

impl de::Error for StringArgsError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        StringArgsError {
            field: None,
            message: msg.to_string(),
        }
    }
}

/// Deserializes `name → string` pairs into `T`.
///
/// ```
/// use mcp_test::string_args::from_pairs;
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Item { id: u32, kind: Option<String>, archived: bool }
///
/// let item: Item = from_pairs([("id", "7"), ("archived", "false")]).unwrap();
/// assert_eq!(item, Item { id: 7, kind: None, archived: false });
///
/// let err = from_pairs::<Item, _, _, _>([("id", "seven"), ("archived", "no")]).unwrap_err();
/// assert_eq!(err.field.as_deref(), Some("id"));
/// assert!(err.to_string().starts_with("`id`: "), "{err}");
/// ```
pub fn from_pairs<T, I, K, V>(pairs: I) -> Result<T, StringArgsError>
where
    T: DeserializeOwned,
    I: IntoIterator<Item = (K, V)>,
    K: Into<String>,
    V: Into<String>,
{
    let pairs: Vec<(String, String)> = pairs
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect();
    T::deserialize(PairsDeserializer { pairs: &pairs })
}

struct PairsDeserializer<'a> {
    pairs: &'a [(String, String)],
}

impl<'de> de::Deserializer<'de> for PairsDeserializer<'_> {
    type Error = StringArgsError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(PairsAccess {
            pairs: self.pairs.iter(),
            current: None,
        })
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

struct PairsAccess<'a> {
    pairs: std::slice::Iter<'a, (String, String)>,
    current: Option<&'a (String, String)>,
}

impl<'de> de::MapAccess<'de> for PairsAccess<'_> {
    type Error = StringArgsError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.pairs.next() {
            None => Ok(None),
            Some(pair) => {
                self.current = Some(pair);
                let key: de::value::StrDeserializer<'_, StringArgsError> =
                    pair.0.as_str().into_deserializer();
                seed.deserialize(key).map(Some)
            }
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let (name, value) = self
            .current
            .take()
            .expect("serde asks for a value after its key");
        seed.deserialize(ValueDeserializer(value))
            .map_err(|e| StringArgsError {
                field: Some(e.field.unwrap_or_else(|| name.clone())),
                message: e.message,
            })
    }
}

/// One string value, parsed on demand into whatever the field asks for.
struct ValueDeserializer<'a>(&'a str);

impl ValueDeserializer<'_> {
    fn parse<T: std::str::FromStr>(&self, what: &str) -> Result<T, StringArgsError>
    where
        T::Err: fmt::Display,
    {
        self.0
            .parse()
            .map_err(|e| de::Error::custom(format!("expected {what}, got {:?} ({e})", self.0)))
    }
}

macro_rules! parse_scalar {
    ($($method:ident => $visit:ident, $ty:ty, $what:literal;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                visitor.$visit(self.parse::<$ty>($what)?)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for ValueDeserializer<'_> {
    type Error = StringArgsError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_str(self.0)
    }

    parse_scalar! {
        deserialize_bool => visit_bool, bool, "true or false";
        deserialize_i8 => visit_i8, i8, "an integer";
        deserialize_i16 => visit_i16, i16, "an integer";
        deserialize_i32 => visit_i32, i32, "an integer";
        deserialize_i64 => visit_i64, i64, "an integer";
        deserialize_i128 => visit_i128, i128, "an integer";
        deserialize_u8 => visit_u8, u8, "a non-negative integer";
        deserialize_u16 => visit_u16, u16, "a non-negative integer";
        deserialize_u32 => visit_u32, u32, "a non-negative integer";
        deserialize_u64 => visit_u64, u64, "a non-negative integer";
        deserialize_u128 => visit_u128, u128, "a non-negative integer";
        deserialize_f32 => visit_f32, f32, "a number";
        deserialize_f64 => visit_f64, f64, "a number";
        deserialize_char => visit_char, char, "a single character";
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.0.is_empty() {
            visitor.visit_unit()
        } else {
            Err(de::Error::custom(format!(
                "expected no value, got {:?}",
                self.0
            )))
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let inner: de::value::StrDeserializer<'_, StringArgsError> = self.0.into_deserializer();
        de::Deserializer::deserialize_enum(inner, name, variants, visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom(
            "a list cannot be read from a single string value",
        ))
    }

    fn deserialize_map<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom(
            "a map or struct cannot be read from a single string value",
        ))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf unit_struct tuple tuple_struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        Celsius,
        Fahrenheit,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Id(u64);

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Query {
        id: Id,
        unit: Unit,
        ratio: f64,
        initial: char,
        label: Option<String>,
    }

    #[test]
    fn scalars_enums_newtypes_and_options_parse_from_text() {
        let q: Query = from_pairs([
            ("id", "42"),
            ("unit", "celsius"),
            ("ratio", "0.5"),
            ("initial", "x"),
        ])
        .unwrap();
        assert_eq!(
            q,
            Query {
                id: Id(42),
                unit: Unit::Celsius,
                ratio: 0.5,
                initial: 'x',
                label: None
            }
        );
    }

    #[test]
    fn errors_name_the_field() {
        let bad = |pairs: &[(&str, &str)]| {
            from_pairs::<Query, _, _, _>(pairs.iter().copied()).unwrap_err()
        };
        let base = [
            ("id", "1"),
            ("unit", "celsius"),
            ("ratio", "1"),
            ("initial", "x"),
        ];
        let mut pairs = base.to_vec();
        pairs[1] = ("unit", "kelvin");
        let e = bad(&pairs);
        assert_eq!(e.field.as_deref(), Some("unit"));
        assert!(e.message.contains("kelvin"), "{e}");

        pairs = base.to_vec();
        pairs[0] = ("id", "-1");
        assert_eq!(bad(&pairs).field.as_deref(), Some("id"));

        pairs = base.to_vec();
        pairs.push(("extra", "1"));
        assert!(
            bad(&pairs).message.contains("extra"),
            "unknown fields are reported"
        );

        let e = bad(&base[..3]);
        assert!(e.message.contains("missing field `initial`"), "{e}");
    }

    #[test]
    fn maps_and_units_deserialize() {
        let m: BTreeMap<String, u8> = from_pairs([("a", "1"), ("b", "2")]).unwrap();
        assert_eq!(m["b"], 2);
        let all: BTreeMap<String, String> = from_pairs([("x", "1")]).unwrap();
        assert_eq!(all["x"], "1");
        from_pairs::<(), _, _, _>([("ignored", "1")]).unwrap();
        let none: BTreeMap<String, String> = from_pairs(Vec::<(String, String)>::new()).unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn lists_are_refused_with_a_reason() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct L {
            tags: Vec<String>,
        }
        let e = from_pairs::<L, _, _, _>([("tags", "a,b")]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("tags"));
        assert!(e.message.contains("list"), "{e}");
    }
}
