//! Typed fields of a parsed JSON tree: one small reader, shared by the contract's inputs that are not
//! read per message (a plan, a checkpoint, a summary request, a ledger, the registers, serialize's
//! options), instead of a derived deserializer per type, each 1 to 7 KB of wasm (docs/performance.md,
//! "Where the wasm's bytes go"). It accepts what the derived readers accepted from `JSON.stringify`
//! text (unknown fields ignored, a missing or null `Option` as none) and words its errors as serde's,
//! without serde_json's line and column. Not taken from serde: an array of a struct's fields in
//! order (no JSON the package writes or documents), and duplicate keys (`JSON.stringify` writes none).
//! Its functions are never inlined: inlined, each call site had its own copy of the field lookup and
//! the messages (1.4 KB gzipped), for reads that are not per message.

use serde_json::{Map, Value};

/// A read field or serde's message for what was wrong.
pub type Read<T> = Result<T, String>;

/// A JSON object's fields, `what` ("struct Basis") naming it in a type error.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    #[inline(never)]
    pub fn of(value: &'a Value, what: &str) -> Read<Fields<'a>> {
        match value {
            Value::Object(map) => Ok(Fields { map }),
            other => Err(invalid_type(other, what)),
        }
    }

    /// A field that must be present (null only where `read` takes it).
    #[inline(never)]
    pub fn required<T>(&self, name: &str, read: impl FnOnce(&Value) -> Read<T>) -> Read<T> {
        read(self.map.get(name).ok_or_else(|| format!("missing field `{name}`"))?)
    }

    /// An `Option` field: absent or null is none.
    #[inline(never)]
    pub fn optional<T>(&self, name: &str, read: impl FnOnce(&Value) -> Read<T>) -> Read<Option<T>> {
        self.map.get(name).filter(|v| !v.is_null()).map(read).transpose()
    }

    /// A field with a default (`#[serde(default)]`): absent is the default, null as wrong as any
    /// other value `read` refuses.
    #[inline(never)]
    pub fn defaulted<T: Default>(&self, name: &str, read: impl FnOnce(&Value) -> Read<T>) -> Read<T> {
        self.or(name, T::default(), read)
    }

    /// A field whose absence is `default`.
    #[inline(never)]
    pub fn or<T>(&self, name: &str, default: T, read: impl FnOnce(&Value) -> Read<T>) -> Read<T> {
        self.map.get(name).map_or(Ok(default), read)
    }

    /// Refuses a field not in `known` (`#[serde(deny_unknown_fields)]`).
    pub fn only(&self, known: &[&str]) -> Read<()> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            Some(unknown) => Err(format!("unknown field `{unknown}`, {}", one_of(known))),
            None => Ok(()),
        }
    }
}

/// serde's list of what was expected: "expected `a`", "expected `a` or `b`", "expected one of `a`, `b`, `c`".
fn one_of(names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match names.as_slice() {
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        all => format!("expected one of {}", all.join(", ")),
    }
}

/// serde's "invalid type" message for `value` where `expected` was wanted.
pub fn invalid_type(value: &Value, expected: &str) -> String {
    let found = match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        // serde_json writes a float's shortest form here, as `Number`'s Display does.
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".to_string(),
        Value::Object(_) => "map".to_string(),
    };
    format!("invalid type: {found}, expected {expected}")
}

#[inline(never)]
pub fn string(value: &Value) -> Read<String> {
    value.as_str().map(str::to_string).ok_or_else(|| invalid_type(value, "a string"))
}

/// A `u64`: a negative integer is an invalid value, as serde says, a float an invalid type.
#[inline(never)]
pub fn count(value: &Value) -> Read<u64> {
    match value.as_i64() {
        Some(n) if n < 0 => Err(format!("invalid value: integer `{n}`, expected u64")),
        _ => value.as_u64().ok_or_else(|| invalid_type(value, "u64")),
    }
}

pub fn number(value: &Value) -> Read<f64> {
    value.as_f64().ok_or_else(|| invalid_type(value, "f64"))
}

/// A `usize` (the wasm's is 32 bits).
pub fn index(value: &Value) -> Read<usize> {
    let n = count(value).map_err(|message| message.replace("expected u64", "expected usize"))?;
    usize::try_from(n).map_err(|_| format!("invalid value: integer `{n}`, expected usize"))
}

#[inline(never)]
pub fn list<T>(value: &Value, read: impl Fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    value.as_array().ok_or_else(|| invalid_type(value, "a sequence"))?.iter().map(read).collect()
}

#[inline(never)]
pub fn strings(value: &Value) -> Read<Vec<String>> {
    list(value, string)
}

/// A unit variant of `T` by its name: a string, or serde's `{ "name": null }` form.
#[inline(never)]
pub fn variant<T: Copy>(value: &Value, what: &str, variants: &[(&str, T)]) -> Read<T> {
    let name = match value {
        Value::String(name) => name,
        Value::Object(map) if map.len() == 1 => {
            let (name, unit) = map.iter().next().expect("one entry");
            if !unit.is_null() {
                return Err(invalid_type(unit, "unit variant"));
            }
            name
        }
        other => return Err(invalid_type(other, what)),
    };
    match variants.iter().find(|(n, _)| n == name) {
        Some((_, v)) => Ok(*v),
        None => {
            let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
            Err(format!("unknown variant `{name}`, {}", one_of(&names)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What serde_json's derived reading of `text` gives, its error's position cut off.
    fn serde_read<T: serde::de::DeserializeOwned>(text: &str) -> Read<T> {
        serde_json::from_str::<T>(text).map_err(|e| e.to_string().split(" at line ").next().unwrap().to_string())
    }

    #[test]
    fn values_and_messages_are_serdes() {
        let texts = ["null", "true", "1.5", "1e3", "7", "-2", "18446744073709551615", "\"x\\\"y\"", "[]", "[\"a\"]", "[1]", "{}"];
        for text in texts {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(string(&value), serde_read::<String>(text), "{text}");
            assert_eq!(count(&value), serde_read::<u64>(text), "{text}");
            assert_eq!(number(&value), serde_read::<f64>(text), "{text}");
            assert_eq!(strings(&value), serde_read::<Vec<String>>(text), "{text}");
            assert_eq!(index(&value), serde_read::<usize>(text), "{text}");
        }
    }

    #[test]
    fn fields_missing_null_and_absent() {
        let value = json!({ "a": null, "b": "x" });
        let fields = Fields::of(&value, "struct T").unwrap();
        assert_eq!(fields.defaulted("c", strings), Ok(Vec::new()));
        assert_eq!(fields.defaulted("a", strings).unwrap_err(), "invalid type: null, expected a sequence");
        assert_eq!(fields.defaulted("b", string).as_deref(), Ok("x"));
        assert_eq!(fields.or("c", 5, index), Ok(5));
        assert_eq!(fields.only(&["a", "b", "c"]), Ok(()));
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Strict {
            b: Option<String>,
        }
        assert_eq!(fields.only(&["b"]), serde_read::<Strict>(&value.to_string()).map(|_| ()));
        assert_eq!(fields.required("c", string).unwrap_err(), "missing field `c`");
        assert_eq!(fields.required("a", string).unwrap_err(), "invalid type: null, expected a string");
        assert_eq!(fields.optional("a", string), Ok(None));
        assert_eq!(fields.optional("c", string), Ok(None));
        assert_eq!(fields.optional("b", string), Ok(Some("x".to_string())));
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct T {
            a: String,
        }
        assert_eq!(Fields::of(&json!(5), "struct T").err(), serde_read::<T>("5").err());
        // The one difference: a derived struct also reads an array of its fields in order.
        assert_eq!(Fields::of(&json!(["x"]), "struct T").err().as_deref(), Some("invalid type: sequence, expected struct T"));
    }

    #[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Three {
        A,
        B,
        C,
    }
    const THREE: [(&str, Three); 3] = [("a", Three::A), ("b", Three::B), ("c", Three::C)];
    #[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Two {
        A,
        B,
    }
    #[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum One {
        A,
    }

    #[test]
    fn variants_read_as_serde_reads_them() {
        for text in [r#""b""#, r#"{"c":null}"#] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(variant(&value, "enum Three", &THREE), Ok(serde_json::from_str::<Three>(text).unwrap()));
        }
        let value = json!("d");
        assert_eq!(variant(&value, "enum Three", &THREE).err(), serde_read::<Three>(r#""d""#).err());
        assert_eq!(variant(&value, "enum Two", &[("a", Two::A), ("b", Two::B)]).err(), serde_read::<Two>(r#""d""#).err());
        assert_eq!(variant(&value, "enum One", &[("a", One::A)]).err(), serde_read::<One>(r#""d""#).err());
        assert!(variant(&json!(3), "enum Three", &THREE).is_err());
        assert!(variant(&json!({ "a": 1 }), "enum Three", &THREE).is_err());
    }
}
