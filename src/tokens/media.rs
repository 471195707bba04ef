//! Files and images: data-URL decoding, image dimensions and what each provider charges for them.



use super::scanner::*;

// ---- Files and images ----

/// An image whose size is unknown (a remote URL, an unreadable header): what Claude charges for the
/// largest image it accepts unscaled (~1,600 tokens, its vision docs), above OpenAI's high-detail
/// maximum (1,445) and Gemini's per-image defaults (258 per tile, 1,120 at high resolution).
pub const DEFAULT_IMAGE_TOKENS: u64 = 1_600;
/// Claude: tokens = width x height / 750 after scaling the long edge to at most 1,568 px, capped near
/// 1,600 tokens (Claude vision docs).
pub(crate) const CLAUDE_PIXELS_PER_TOKEN: u64 = 750;
pub(crate) const CLAUDE_MAX_EDGE: u64 = 1_568;
pub(crate) const CLAUDE_MAX_TOKENS: u64 = 1_600;
/// OpenAI high detail: fit in 2,048 px, shortest side to 768 px, then 170 tokens per 512 px tile plus 85.
pub(crate) const OPENAI_MAX_EDGE: u64 = 2_048;
pub(crate) const OPENAI_SHORT_EDGE: u64 = 768;
pub(crate) const OPENAI_TILE: u64 = 512;
pub(crate) const OPENAI_TOKENS_PER_TILE: u64 = 170;
pub(crate) const OPENAI_BASE_TOKENS: u64 = 85;
/// Gemini: any image costs at least one 258-token tile.
pub(crate) const GEMINI_MIN_TOKENS: u64 = 258;
/// A non-image file behind a remote URL (size unknown): about a two-page PDF as Claude reads it
/// (page text plus a page image, ~1,500-3,000 tokens a page, Claude PDF support docs).
pub const REMOTE_FILE_TOKENS: u64 = 5_000;
/// Binary files (PDF, Office) by size: one token per 8 bytes. A text PDF page of 10-40 KB costs
/// ~1,500-3,000 tokens as page text plus page image, so 8 bytes a token stays above it for text PDFs
/// (it overcounts image-heavy files, the safe side).
pub(crate) const BINARY_BYTES_PER_TOKEN: u64 = 8;

/// The tokens of an image of the given size: the largest of what Claude, OpenAI and Gemini charge.
pub fn image_tokens(width: u32, height: u32) -> u64 {
    let (w, h) = (u64::from(width), u64::from(height));
    if w == 0 || h == 0 {
        return DEFAULT_IMAGE_TOKENS;
    }
    let claude = {
        let (w, h) = fit_long_edge(w, h, CLAUDE_MAX_EDGE);
        w.saturating_mul(h).div_ceil(CLAUDE_PIXELS_PER_TOKEN).min(CLAUDE_MAX_TOKENS)
    };
    let openai = {
        let (w, h) = fit_long_edge(w, h, OPENAI_MAX_EDGE);
        let short = w.min(h);
        let (w, h) = if short > OPENAI_SHORT_EDGE {
            (scale(w, OPENAI_SHORT_EDGE, short), scale(h, OPENAI_SHORT_EDGE, short))
        } else {
            (w, h)
        };
        let tiles = w.div_ceil(OPENAI_TILE).saturating_mul(h.div_ceil(OPENAI_TILE));
        OPENAI_BASE_TOKENS.saturating_add(tiles.saturating_mul(OPENAI_TOKENS_PER_TILE))
    };
    claude.max(openai).max(GEMINI_MIN_TOKENS)
}

/// Scales (w, h) down so the longer edge is at most `max`, keeping the aspect ratio (at least 1 px).
pub(crate) fn fit_long_edge(w: u64, h: u64, max: u64) -> (u64, u64) {
    let long = w.max(h);
    if long <= max {
        (w, h)
    } else {
        (scale(w, max, long), scale(h, max, long))
    }
}

/// `v * num / den`, rounded up, at least 1. Inputs are at most 2^32, so the product fits in u64.
pub(crate) fn scale(v: u64, num: u64, den: u64) -> u64 {
    v.saturating_mul(num).div_ceil(den.max(1)).max(1)
}

/// Media types a provider receives as text (counted by their content, not their size).
pub(crate) fn is_textual(media_type: &str) -> bool {
    let m = media_type.to_ascii_lowercase();
    m.starts_with("text/")
        || m.ends_with("json")
        || m.ends_with("+xml")
        || m.ends_with("/xml")
        || m.ends_with("javascript")
        || m.ends_with("yaml")
        || m.ends_with("x-bibtex")
        || m.ends_with("x-research-info-systems")
}

/// A `data:[<media type>][;base64],<payload>` URL.
pub(crate) struct DataUrl<'a> {
    base64: bool,
    payload: &'a str,
}

impl<'a> DataUrl<'a> {
    pub(crate) fn parse(url: &'a str) -> Option<DataUrl<'a>> {
        let rest = url.get(..5).filter(|s| s.eq_ignore_ascii_case("data:")).and_then(|_| url.get(5..))?;
        let (header, payload) = rest.split_once(',')?;
        let base64 = header.len() >= 7
            && header.get(header.len() - 7..).is_some_and(|s| s.eq_ignore_ascii_case(";base64"));
        Some(DataUrl { base64, payload })
    }

    pub(crate) fn base64_payload(&self) -> Option<&'a str> {
        self.base64.then_some(self.payload)
    }

    /// Bytes of the payload once decoded (percent-encoded payloads are counted as written: an upper bound).
    pub(crate) fn decoded_len(&self) -> u64 {
        if self.base64 {
            Base64::new(self.payload).len() as u64
        } else {
            self.payload.len() as u64
        }
    }
}

/// Counts a textual data URL's content as text, decoding base64 in small pieces (no copy of the file).
pub(crate) fn text_file_counts(data: &DataUrl) -> RunCounts {
    let mut scanner = Scanner::new();
    if !data.base64 {
        scanner.feed(data.payload);
        return scanner.finish();
    }
    let b64 = Base64::new(data.payload);
    let mut buf = [0u8; 3 * 1024];
    // Bytes of a character split across two pieces wait at the start of the buffer.
    let mut carried = 0;
    let mut offset = 0;
    let total = b64.len();
    while offset < total {
        let mut filled = carried;
        while filled < buf.len() && offset < total {
            match b64.byte(offset) {
                Some(b) => buf[filled] = b,
                None => return scanner.finish(),
            }
            filled += 1;
            offset += 1;
        }
        let piece = &buf[..filled];
        let valid = match std::str::from_utf8(piece) {
            Ok(text) => {
                scanner.feed(text);
                filled
            }
            Err(e) => {
                let valid = e.valid_up_to();
                scanner.feed(std::str::from_utf8(&piece[..valid]).unwrap_or_default());
                match e.error_len() {
                    // Invalid bytes: count them as unknown characters and go on.
                    Some(bad) => {
                        scanner.feed(&"\u{FFFD}".repeat(bad));
                        valid + bad
                    }
                    // A character cut at the end of the piece: keep its bytes for the next one.
                    None => valid,
                }
            }
        };
        carried = filled - valid;
        buf.copy_within(valid..filled, 0);
        if offset >= total && carried > 0 {
            scanner.feed(&"\u{FFFD}".repeat(carried));
        }
    }
    scanner.finish()
}

/// Random access to the bytes of a base64 payload without decoding all of it: byte `i` comes from the
/// four characters `4 * (i / 3)..`. Standard and URL-safe alphabets; no whitespace inside.
pub(crate) struct Base64<'a> {
    chars: &'a [u8],
}

impl<'a> Base64<'a> {
    pub(crate) fn new(payload: &'a str) -> Base64<'a> {
        let chars = payload.trim_end().as_bytes();
        Base64 { chars }
    }

    /// Decoded length, from the characters before any padding.
    pub(crate) fn len(&self) -> usize {
        let unpadded = self.chars.iter().rposition(|&c| c != b'=').map_or(0, |i| i + 1);
        unpadded / 4 * 3 + (unpadded % 4 * 3 / 4)
    }

    pub(crate) fn byte(&self, index: usize) -> Option<u8> {
        if index >= self.len() {
            return None;
        }
        let quad = self.chars.get(index / 3 * 4..)?;
        let sextet = |i: usize| quad.get(i).copied().map_or(Some(0), sextet_of);
        let bits = (u32::from(sextet(0)?) << 18)
            | (u32::from(sextet(1)?) << 12)
            | (u32::from(sextet(2)?) << 6)
            | u32::from(sextet(3)?);
        Some((bits >> (16 - 8 * (index % 3))) as u8)
    }

    pub(crate) fn bytes<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = self.byte(at.checked_add(i)?)?;
        }
        Some(out)
    }

    pub(crate) fn u16_be(&self, at: usize) -> Option<u32> {
        self.bytes::<2>(at).map(|b| u32::from(u16::from_be_bytes(b)))
    }

    pub(crate) fn u16_le(&self, at: usize) -> Option<u32> {
        self.bytes::<2>(at).map(|b| u32::from(u16::from_le_bytes(b)))
    }

    pub(crate) fn u24_le(&self, at: usize) -> Option<u32> {
        self.bytes::<3>(at).map(|b| u32::from_le_bytes([b[0], b[1], b[2], 0]))
    }
}

pub(crate) fn sextet_of(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        b'=' => Some(0),
        _ => None,
    }
}

/// Most JPEG segments read before giving up (EXIF, ICC and thumbnails come before the frame header).
pub(crate) const JPEG_MAX_SEGMENTS: usize = 512;

/// Width and height from a PNG, GIF, WebP or JPEG header; `None` when the header is not one of them.
pub(crate) fn image_size(data: &Base64) -> Option<(u32, u32)> {
    let head = data.bytes::<4>(0)?;
    match head {
        [0x89, b'P', b'N', b'G'] => {
            if data.bytes::<4>(12)? != *b"IHDR" {
                return None;
            }
            let w = u32::from_be_bytes(data.bytes::<4>(16)?);
            let h = u32::from_be_bytes(data.bytes::<4>(20)?);
            Some((w, h))
        }
        [b'G', b'I', b'F', b'8'] => Some((data.u16_le(6)?, data.u16_le(8)?)),
        [b'R', b'I', b'F', b'F'] => {
            if data.bytes::<4>(8)? != *b"WEBP" {
                return None;
            }
            match &data.bytes::<4>(12)? {
                b"VP8 " => Some((data.u16_le(26)? & 0x3FFF, data.u16_le(28)? & 0x3FFF)),
                b"VP8L" => {
                    let b = data.bytes::<4>(21)?.map(u32::from);
                    let w = 1 + (((b[1] & 0x3F) << 8) | b[0]);
                    let h = 1 + (((b[3] & 0x0F) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6));
                    Some((w, h))
                }
                b"VP8X" => Some((1 + data.u24_le(24)?, 1 + data.u24_le(27)?)),
                _ => None,
            }
        }
        [0xFF, 0xD8, ..] => jpeg_size(data),
        _ => None,
    }
}

/// Walks the JPEG segments to the first start-of-frame marker, reading only the segment headers.
pub(crate) fn jpeg_size(data: &Base64) -> Option<(u32, u32)> {
    let mut pos = 2usize;
    for _ in 0..JPEG_MAX_SEGMENTS {
        if data.byte(pos)? != 0xFF {
            return None;
        }
        // Fill bytes: any number of 0xFF before the marker.
        let mut marker = data.byte(pos.checked_add(1)?)?;
        while marker == 0xFF {
            pos = pos.checked_add(1)?;
            marker = data.byte(pos.checked_add(1)?)?;
        }
        match marker {
            // Start of frame (baseline, progressive, lossless, ...); not DHT (C4), JPG (C8), DAC (CC).
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let h = data.u16_be(pos.checked_add(5)?)?;
                let w = data.u16_be(pos.checked_add(7)?)?;
                return Some((w, h));
            }
            // Markers without a length.
            0x01 | 0xD0..=0xD8 => pos = pos.checked_add(2)?,
            // End of image or start of scan before any frame header.
            0xD9 | 0xDA => return None,
            _ => {
                let len = data.u16_be(pos.checked_add(2)?)? as usize;
                pos = pos.checked_add(2)?.checked_add(len)?;
            }
        }
    }
    None
}
