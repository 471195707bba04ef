//! Parsing JSON text from JS. `JSON.stringify` writes a lone UTF-16 surrogate as a `\udXXX` escape,
//! which serde_json rejects; such text is re-read with each lone surrogate as U+FFFD instead of failing.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::Deserializer as _;

pub fn parse_lenient<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    // One call of the generic parse (it is instantiated per `T`), the retry decided outside it.
    let mut fixed: Option<String> = None;
    loop {
        let result = parse_nested(fixed.as_deref().unwrap_or(text));
        match &result {
            Err(e) if fixed.is_none() => match retry_text(text, e) {
                Some(text) => fixed = Some(text),
                None => return result,
            },
            _ => return result,
        }
    }
}

/// `text` with its lone surrogates replaced, when `error` is about one and there is one to replace.
fn retry_text(text: &str, error: &serde_json::Error) -> Option<String> {
    let message = error.to_string();
    if !(message.contains("surrogate") || message.contains("hex escape")) {
        return None;
    }
    match replace_lone_surrogates(text) {
        Cow::Owned(fixed) => Some(fixed),
        Cow::Borrowed(_) => None,
    }
}

/// The deepest nesting of arrays and objects the tree parse reads. serde_json alone stops at 128,
/// which valid messages pass (a tool output of 100 objects each in an array nests 200 deep, and the
/// AI SDK stores and sends it); deeper than this is still an error ("recursion limit exceeded"),
/// never a stack overflow (`tests/bad_input.rs`; the wasm stack is 1 MB).
pub const MAX_NESTING: usize = 512;

/// `serde_json::from_str` with the depth limit `MAX_NESTING` instead of serde_json's 128: the depth
/// is measured first without recursion; deeper text goes to serde_json's own limit, which fails.
fn parse_nested<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    // What `serde_json::from_str` does, with its limit lifted when the text is shallow enough.
    let mut deserializer = serde_json::Deserializer::from_str(text);
    if !nests_deeper_than(text, MAX_NESTING) {
        deserializer.disable_recursion_limit();
    }
    let value = <T as serde::Deserialize>::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// The JSON object of `fields` (a later duplicate key wins, as in `json!`). Built field by field:
/// `json!` with a value that is not a literal goes through `serde_json::to_value`, whose serializer
/// is instantiated for every type it is given (docs/performance.md, "Where the wasm's bytes go").
pub fn object(fields: Vec<(&str, serde_json::Value)>) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    for (key, value) in fields {
        map.insert(key.to_string(), value);
    }
    serde_json::Value::Object(map)
}

/// One string for a tuple of strings, for a `HashSet<String>` in place of a set of tuples (each
/// set type instantiates its own hash table code): each part is prefixed by its length, so two
/// tuples give the same key only when they are equal.
pub fn tuple_key(parts: &[&str]) -> String {
    let mut key = String::with_capacity(parts.iter().map(|p| p.len() + 4).sum());
    for part in parts {
        key.push_str(&part.len().to_string());
        key.push(':');
        key.push_str(part);
    }
    key
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

/// Whether arrays and objects in `text` nest deeper than `limit`, or `text` holds a lone surrogate
/// escape (`\ud800`, which the tree parser's lenient read replaces). Skipping a value as text (as
/// `RawValue` does) has no depth limit, while parsing it into a tree stops at 128 levels. Text that is
/// not JSON may answer either way: every caller parses it next and fails there.
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    match depth_of(text) {
        Some(depth) => depth > limit,
        // Surrogate escapes: serde_json's own string parse judges their pairing.
        None => serde_json::Deserializer::from_str(text).deserialize_any(DepthProbe { left: limit }).is_err(),
    }
}

/// The deepest nesting of arrays and objects in JSON `text`, brackets inside strings aside, in one
/// pass over the bytes (a quarter of serde_json's); `None` when a string holds a `\uD800`-`\uDFFF`
/// escape or does not end.
fn depth_of(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                loop {
                    i = next_quote_or_backslash(bytes, i);
                    match bytes.get(i)? {
                        b'"' => break,
                        _ => {
                            let escape = bytes.get(i + 1..i + 4).unwrap_or_default();
                            if matches!(escape, [b'u', b'd' | b'D', b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F']) {
                                return None;
                            }
                            i += 2;
                        }
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Some(deepest)
}

/// The first `"` or `\\` at or after `from` (or the end), eight bytes at a time: strings are the bulk of
/// a session's text.
fn next_quote_or_backslash(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let has_zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS != 0;
    let mut i = from;
    while let Some(Ok(chunk)) = bytes.get(i..i + 8).map(<[u8; 8]>::try_from) {
        let word = u64::from_ne_bytes(chunk);
        if has_zero_byte(word ^ (ONES * u64::from(b'"'))) || has_zero_byte(word ^ (ONES * u64::from(b'\\'))) {
            break;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&b| b != b'"' && b != b'\\') {
        i += 1;
    }
    i
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
    fn the_byte_scan_and_the_parser_agree_on_depth_and_surrogates() {
        let cases = [
            r#"{"a":[[1]],"b":"[[[[\"[[["}"#,
            r#"{"a":[[[1]]]}"#,
            r#"[{"k\\":"\\"},[["]\\\"{"]]]"#,
            r#"{"a":"\ud83d\ude00","b":[[1]]}"#,
            r#"{"a":"\ud800","b":1}"#,
            r#"{"a":"\uDC00x"}"#,
            r#"{"a":"\\ud800"}"#,
            r#"{"a":"\u0041[[[[[[","b":{}}"#,
            "[]",
            "{}",
            "1",
            "\"x\"",
        ];
        for text in cases {
            for limit in 0..5 {
                let probe = serde_json::Deserializer::from_str(text).deserialize_any(DepthProbe { left: limit }).is_err();
                assert_eq!(nests_deeper_than(text, limit), probe, "{text} at {limit}");
            }
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(nests_deeper_than(&deep, 199) && !nests_deeper_than(&deep, 200));
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
