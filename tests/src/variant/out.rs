//! How the variant server writes a JSON value: its keys in the drawn order, the drawn
//! whitespace and escapes, always on one line.

use super::{Escapes, KeyOrder, Prng, Spacing};
use serde_json::Value;
use std::fmt::Write as _;

/// Writes `value` as one line of JSON, as the variant's output axes say; `rng` shuffles keys
/// for [`KeyOrder::Shuffled`].
pub fn write(
    value: &Value,
    order: KeyOrder,
    spacing: Spacing,
    escapes: Escapes,
    rng: &mut Prng,
) -> String {
    let mut out = String::new();
    if spacing == Spacing::Padded {
        out.push(' ');
    }
    value_into(&mut out, value, order, spacing, escapes, rng);
    if spacing == Spacing::Padded {
        // Whitespace around a value is insignificant (RFC 8259 §2: "ws" may end a JSON text);
        // spaces and tabs only: a newline would end the line.
        out.push_str(" \t");
    }
    out
}

fn value_into(
    out: &mut String,
    value: &Value,
    order: KeyOrder,
    spacing: Spacing,
    escapes: Escapes,
    rng: &mut Prng,
) {
    let (colon, comma) = match spacing {
        Spacing::Compact => (":", ","),
        Spacing::Spaced => (": ", ", "),
        Spacing::Padded => (" : ", " , "),
    };
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            match order {
                KeyOrder::Sorted => {}
                KeyOrder::Reversed => keys.reverse(),
                KeyOrder::Shuffled => {
                    for i in (1..keys.len()).rev() {
                        keys.swap(i, rng.below(i + 1));
                    }
                }
            }
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                string_into(out, key, escapes);
                out.push_str(colon);
                value_into(out, &map[*key], order, spacing, escapes, rng);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                value_into(out, item, order, spacing, escapes, rng);
            }
            out.push(']');
        }
        Value::String(s) => string_into(out, s, escapes),
        other => out.push_str(&other.to_string()),
    }
}

fn string_into(out: &mut String, s: &str, escapes: Escapes) {
    let quoted = serde_json::to_string(s).expect("a string serializes");
    match escapes {
        Escapes::Raw => out.push_str(&quoted),
        Escapes::Ascii => {
            for c in quoted.chars() {
                if c.is_ascii() {
                    out.push(c);
                } else {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let _ = write!(out, "\\u{unit:04x}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_style_writes_the_same_value_on_one_line() {
        let value = json!({"b": [1, {"z": "é😀", "a": null}], "a": "x\ny", "c": 1.5});
        for order in KeyOrder::ALL {
            for spacing in Spacing::ALL {
                for escapes in Escapes::ALL {
                    let text = write(&value, *order, *spacing, *escapes, &mut Prng::new(3));
                    assert!(!text.contains('\n'), "{text}");
                    let back: Value = serde_json::from_str(&text).expect("valid JSON");
                    assert_eq!(back, value, "{text}");
                }
            }
        }
    }
}
