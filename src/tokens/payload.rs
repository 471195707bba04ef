//! Encoded payloads (base64, base64url, hex) inside text, priced at the tokenizers' measured worst case.

/// The kinds of an encoded payload [`payload_at`] recognizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload {
    /// Base64 or base64url.
    Base64,
    Hex,
}

/// Shortest run of payload bytes taken for a payload: 24 bytes in base64, 16 in hex; shorter ones (keys,
/// short ids) are priced as text.
pub const PAYLOAD_MIN_CHARS: usize = 32;

/// Per ASCII byte: 0 if it cannot be in a payload, else 8 | hex digit (4) | kind (0 uppercase, 1 lowercase,
/// 2 digit, 3 symbol of base64 or base64url: `+ / - _ =`).
pub(crate) const PAYLOAD_KIND: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = match c {
            b'A'..=b'F' => 8 | 4,
            b'G'..=b'Z' => 8,
            b'a'..=b'f' => 8 | 4 | 1,
            b'g'..=b'z' => 8 | 1,
            b'0'..=b'9' => 8 | 4 | 2,
            b'+' | b'/' | b'-' | b'_' | b'=' => 8 | 3,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// Whether a byte can be part of an encoded payload.
#[inline(always)]
pub(crate) fn is_payload_byte(b: u8) -> bool {
    PAYLOAD_KIND[usize::from(b)] != 0
}

/// False when the run of payload bytes from `start` is surely shorter than [`PAYLOAD_MIN_CHARS`] (a
/// byte every 8 checked), so [`payload_at`] would find none: most runs are words, and the scanner
/// asks at the start of each.
#[inline(always)]
pub(crate) fn may_start_payload(bytes: &[u8], start: usize) -> bool {
    [7, 15, 23, PAYLOAD_MIN_CHARS - 1].iter().all(|&k| bytes.get(start + k).is_some_and(|&b| is_payload_byte(b)))
}

/// The run of payload bytes from `start` (its end) and whether it is an encoded payload: at least
/// [`PAYLOAD_MIN_CHARS`] long and, judged on its first [`PAYLOAD_MIN_CHARS`] bytes (so that a growing
/// run never changes its kind), either hex digits only, with digits and letters, or base64: the kind
/// (uppercase, lowercase, digit, symbol) changes between at least half of neighbouring bytes, or 30% with
/// a digit among them; or, from 64 bytes on, when its first 64 hold both cases. Base64 of compressed data
/// changes about 65% of the time, of a PNG header with its runs of `A` about 32%, of sparse binary less;
/// identifiers and paths change 20-42% and rarely hold digits (camelCase with short words 42%,
/// `SNAKE_CASE` 33%, `/usr/share/...` 31%), a run of one kind never.
pub fn payload_at(bytes: &[u8], start: usize) -> (usize, Option<Payload>) {
    let (mut i, mut changes, mut all, mut seen) = (start, 0usize, 0xFFu8, 0u8);
    let mut prev = PAYLOAD_KIND[usize::from(bytes.get(start).copied().unwrap_or(0))] & 3;
    while let Some(&b) = bytes.get(i).filter(|&&b| is_payload_byte(b)) {
        if i - start < PAYLOAD_MIN_CHARS {
            let kind = PAYLOAD_KIND[usize::from(b)];
            changes += usize::from(kind & 3 != prev);
            prev = kind & 3;
            all &= kind;
            seen |= 1 << (kind & 3);
        }
        i += 1;
    }
    let judged = PAYLOAD_MIN_CHARS - 1;
    // Base64 of sparse binary (runs of `A`, few digits) changes little, but no word or path of 64
    // characters without a dot or a space has both cases.
    let mixed_case = || bytes.get(start..start + 2 * PAYLOAD_MIN_CHARS).is_some_and(|head| {
        head.iter().any(u8::is_ascii_uppercase) && head.iter().any(u8::is_ascii_lowercase)
    });
    let payload = if i - start < PAYLOAD_MIN_CHARS {
        None
    } else if all & 4 != 0 && seen & 4 != 0 && seen & 3 != 0 {
        Some(Payload::Hex)
    } else if changes * 2 >= judged || (seen & 4 != 0 && changes * 10 >= judged * 3) || (i - start >= 2 * PAYLOAD_MIN_CHARS && mixed_case()) {
        Some(Payload::Base64)
    } else {
        None
    };
    (i, payload)
}
