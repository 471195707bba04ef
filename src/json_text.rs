//! Parsing JSON text from JS. `JSON.stringify` writes a lone UTF-16 surrogate as a `\udXXX` escape,
//! which serde_json rejects; such text is re-read with each lone surrogate as U+FFFD instead of failing.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::Deserializer as _;

pub fn parse_lenient<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    match serde_json::from_str(text) {
        Err(e) if e.to_string().contains("surrogate") || e.to_string().contains("hex escape") => {
            match replace_lone_surrogates(text) {
                Cow::Owned(fixed) => serde_json::from_str(&fixed),
                Cow::Borrowed(_) => Err(e),
            }
        }
        result => result,
    }
}

/// A parse error's message without serde_json's " at line L column C": the text parsed was cut
/// out of (or re-serialized from) a larger value, so the position would mislead.
pub fn message_of(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) if error.line() != 0 => text[..at].to_string(),
        _ => text,
    }
}

/// Rewrites `\uD800`-`\uDFFF` escapes that are not a high+low pair as `\uFFFD`.
pub fn replace_lone_surrogates(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied_to = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let unit = escaped_unit(bytes, i);
        match unit {
            Some(u) if (0xD800..0xDC00).contains(&u) && escaped_unit(bytes, i + 6).is_some_and(|l| (0xDC00..0xE000).contains(&l)) => {
                i += 12;
            }
            Some(u) if (0xD800..0xE000).contains(&u) => {
                let buffer = out.get_or_insert_with(|| String::with_capacity(text.len()));
                buffer.push_str(&text[copied_to..i]);
                buffer.push_str("\\ufffd");
                i += 6;
                copied_to = i;
            }
            Some(_) => i += 6,
            // Any other escape is two bytes (`\"`, `\\`, `\n`, ...): skipping both keeps `\\u` from being misread.
            None => i += 2,
        }
    }
    match out {
        Some(mut buffer) => {
            buffer.push_str(&text[copied_to..]);
            Cow::Owned(buffer)
        }
        None => Cow::Borrowed(text),
    }
}

/// Whether arrays and objects in `text` nest deeper than `limit`, or `text` is not strict JSON
/// (lone surrogates included). Skipping
/// a value as text (as `RawValue` does) has no depth limit, while parsing it into a tree stops at
/// 128 levels; serde_json's own string scanning makes this the cheapest full pass.
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    serde_json::Deserializer::from_str(text).deserialize_any(DepthProbe { left: limit }).is_err()
}

struct DepthProbe {
    left: usize,
}

impl<'de> serde::de::Visitor<'de> for DepthProbe {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON no deeper than the limit")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let left = self.left.checked_sub(1).ok_or_else(|| serde::de::Error::custom("too deep"))?;
        while seq.next_element_seed(DepthProbe { left })?.is_some() {}
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let left = self.left.checked_sub(1).ok_or_else(|| serde::de::Error::custom("too deep"))?;
        while map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            map.next_value_seed(DepthProbe { left })?;
        }
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for DepthProbe {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The code unit of a `\uXXXX` escape starting at `at`, if there is one.
fn escaped_unit(bytes: &[u8], at: usize) -> Option<u32> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let v: Value = parse_lenient(r#"{"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800"}"#).unwrap();
        assert_eq!(v["a"], "x\u{fffd}y");
        assert_eq!(v["b"], "\u{fffd}");
        assert_eq!(v["c"], "\u{1f600}");
        assert_eq!(v["d"], "\\ud800");
    }

    #[test]
    fn nesting_depth_ignores_brackets_in_strings() {
        assert!(!nests_deeper_than(r#"{"a":[[1]],"b":"[[[[\"[[["}"#, 3));
        assert!(nests_deeper_than(r#"{"a":[[[1]]]}"#, 3));
        assert!(!nests_deeper_than(r#"{"a":[[1]],"b":{"c":[2]}}"#, 3));
    }

    #[test]
    fn other_errors_stay_errors() {
        assert!(parse_lenient::<Value>(r#"{"a":"\uZZZZ"}"#).is_err());
        assert!(parse_lenient::<Value>("{").is_err());
    }
}
