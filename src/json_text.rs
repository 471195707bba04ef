//! Parsing JSON text from JS. `JSON.stringify` writes a lone UTF-16 surrogate as a `\udXXX` escape,
//! which serde_json rejects; such text is re-read with each lone surrogate as U+FFFD instead of failing.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

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

/// Whether arrays and objects in `text` nest deeper than `limit`. Skipping a value as text (as
/// `RawValue` does) has no depth limit, while parsing it into a tree stops at 128 levels.
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match (in_string, b) {
            (true, b'\\') => {
                bytes.next();
            }
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'[' | b'{') => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
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
