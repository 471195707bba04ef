//! Plain-text helpers shared by serialization, the ledger and the summarizer.

use std::borrow::Cow;
/// Whitespace runs (newlines included) become one space, so a label is one ledger line.
pub fn single_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sentences of `text` as its spans, a line break left out, whitespace not folded (`single_line`):
/// split after a line break, `。！？`, Arabic's question mark `؟` and the Devanagari danda `।`, and after
/// `.!?` before whitespace or the end, but not after a locator's abbreviation ("pp. 227") or a Latin
/// one or a single letter before a lowercase word ("op. cit. and", "2003 r. sądy"); with
/// `abbreviations`, not after a dot that closes an initial ("J. Smith") or comes before a digit
/// ("p. 14", "al. 2020") or a lowercase word ("vgl. die").
pub fn sentence_spans(text: &str, abbreviations: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let after = i + c.len_utf8();
        let ends = match c {
            '\n' | '。' | '！' | '？' | '؟' | '।' => true,
            '.' | '!' | '?' => {
                text[after..].chars().next().is_none_or(char::is_whitespace)
                    && !(c == '.'
                        && (before_locator(text, i) || goes_on_after(text, i) || abbreviations && after_abbreviation(text, i)))
            }
            _ => false,
        };
        if ends {
            out.push(&text[start..if c == '\n' { i } else { after }]);
            start = after;
        }
    }
    out.push(&text[start..]);
    out
}

/// Longest abbreviation (letters before its dot) read as a locator's word: the summary's sentences and
/// the cited pages' locators ask the same.
pub const MAX_ABBREVIATION_LETTERS: usize = 4;

/// Rule `a-locator-is-inside-its-sentence`: the dot at byte `dot` ends a short word (one to
/// `MAX_ABBREVIATION_LETTERS` letters, any script) and a number follows: a locator's abbreviation ("pp. 227", "hlm. 12",
/// "fol. 23", "стр. 5"), which a citation puts mid-sentence, so the claim keeps its page.
fn before_locator(text: &str, dot: usize) -> bool {
    let letters = text[..dot].chars().rev().take_while(|c| c.is_alphabetic()).count();
    let word_start = text[..dot].char_indices().rev().nth(letters.saturating_sub(1)).map_or(0, |(at, _)| at);
    (1..=MAX_ABBREVIATION_LETTERS).contains(&letters)
        && !text[..word_start].chars().next_back().is_some_and(char::is_alphanumeric)
        && after_dot(text, dot).is_some_and(|c| c.is_ascii_digit())
}

/// Latin abbreviations a citation puts mid-sentence ("op. cit. and ibid.", "et al. found").
const CITATION_ABBREVIATIONS: [&str; 11] = ["op", "cit", "loc", "ibid", "cf", "al", "vs", "viz", "etc", "e.g", "i.e"];

/// The dot at byte `dot` closes an abbreviation a sentence goes on after, and a lowercase word
/// follows: one of `CITATION_ABBREVIATIONS` (a word of its own, any case), or a word of one letter
/// (rule `a-letter-and-its-dot-go-on`: "w 2003 r. sądy", "B. die"), which no sentence ends with.
#[inline(never)]
fn goes_on_after(text: &str, dot: usize) -> bool {
    let before = &text[..dot];
    let citation = CITATION_ABBREVIATIONS.iter().any(|a| {
        before.len() >= a.len()
            && before.is_char_boundary(before.len() - a.len())
            && before[before.len() - a.len()..].eq_ignore_ascii_case(a)
            && !before[..before.len() - a.len()].chars().next_back().is_some_and(char::is_alphanumeric)
    });
    let mut letters = before.chars().rev();
    let letter = letters.next().is_some_and(char::is_alphabetic) && !letters.next().is_some_and(char::is_alphanumeric);
    (citation || letter) && after_dot(text, dot).is_some_and(char::is_lowercase)
}

/// The first character after the dot at byte `dot` and the spaces that follow it.
fn after_dot(text: &str, dot: usize) -> Option<char> {
    text[dot + 1..].trim_start().chars().next()
}

/// The dot at byte `dot` closes an initial or comes before a digit or a lowercase word.
fn after_abbreviation(text: &str, dot: usize) -> bool {
    // One letter before the dot, and no letter before that.
    let mut before = text[..dot].chars().rev();
    let initial = before.next().is_some_and(char::is_alphabetic) && !before.next().is_some_and(char::is_alphabetic);
    initial || after_dot(text, dot).is_some_and(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
}

/// At most `max` characters, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
    }
}

/// Note HTML to plain text (tags removed, the common entities decoded), whitespace not folded, a
/// line break after each block (`<p>`, `<li>`, a heading, `<br>`): a note's paragraphs are
/// statements of their own, ended or not by a full stop. The source's own line breaks are
/// whitespace, as HTML renders them.
pub fn strip_html(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for (at, c) in html.char_indices() {
        match c {
            '<' => {
                in_tag = true;
                out.push(if is_block_tag(&html[at + 1..]) { '\n' } else { ' ' });
            }
            '>' if in_tag => in_tag = false,
            '\n' | '\r' if !in_tag => out.push(' '),
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Whether a tag (the text after its `<`: `p>`, `/li>`, `br/>`, `h2 class="x">`) ends a block.
fn is_block_tag(tag: &str) -> bool {
    const BLOCKS: [&str; 16] = ["p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote", "pre", "ul", "ol", "table"];
    let name = tag.trim_start_matches('/');
    let name = &name[..name.bytes().take_while(u8::is_ascii_alphanumeric).count()];
    BLOCKS.iter().any(|block| block.eq_ignore_ascii_case(name))
}

/// Replaces the payload of every `data:<type>[;params],<payload>` URL in `text` with a note of
/// its size, so no inline file or image content reaches the summarizer.
pub fn strip_data_payloads(text: &str) -> Cow<'_, str> {
    if !text.contains("data:") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find("data:") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        match data_url_payload(from) {
            Some((header_len, payload_len)) => {
                out.push_str(&from[..header_len]);
                out.push_str(&format!("[{payload_len} characters of data omitted]"));
                rest = &from[header_len + payload_len..];
                changed = true;
            }
            None => {
                out.push_str("data:");
                rest = &from["data:".len()..];
            }
        }
    }
    out.push_str(rest);
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// For text starting with `data:`, the length of the header up to and including the comma and
/// the length of the payload after it, when it is a data URL with a non-empty payload.
fn data_url_payload(text: &str) -> Option<(usize, usize)> {
    let after_scheme = &text["data:".len()..];
    let comma = after_scheme.find(',')?;
    let header = &after_scheme[..comma];
    let header_ok = header.len() <= 200
        && header.contains('/')
        && header.chars().all(|c| c.is_ascii_alphanumeric() || "/;=+-._!#$&^%".contains(c));
    if !header_ok {
        return None;
    }
    let payload_start = "data:".len() + comma + 1;
    let payload_len = text[payload_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || "+/=%-_.~".contains(c)))
        .unwrap_or(text.len() - payload_start);
    (payload_len > 0).then_some((payload_start, payload_len))
}

/// Lower case for the scripts of most research titles: ASCII, Latin-1, Greek and Cyrillic capitals
/// map by fixed offsets. Not `str::to_lowercase`: its Unicode tables cost about 8 KB of gzipped wasm,
/// and other scripts (Han, kana) have no case anyway.
pub fn fold_case(text: &str) -> String {
    text.chars().map(fold_char).collect()
}

/// One character of `fold_case`.
pub fn fold_char(c: char) -> char {
    match c {
        'A'..='Z' | '\u{C0}'..='\u{DE}' | '\u{391}'..='\u{3A9}' | '\u{410}'..='\u{42F}' if c != '\u{D7}' => {
            char::from_u32(c as u32 + 0x20).unwrap_or(c)
        }
        '\u{400}'..='\u{40F}' => char::from_u32(c as u32 + 0x50).unwrap_or(c),
        // Vietnamese: Ă Đ Ơ Ư and the tone-marked vowels (upper case at even code points).
        '\u{102}' | '\u{110}' | '\u{1A0}' | '\u{1AF}' => char::from_u32(c as u32 + 1).unwrap_or(c),
        '\u{1EA0}'..='\u{1EF9}' if (c as u32) % 2 == 0 => char::from_u32(c as u32 + 1).unwrap_or(c),
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::sentence_spans;

    #[test]
    fn a_locator_stays_inside_its_sentence() {
        let text = "Lindqvist puts the delay at six days (JGRAE8XC, pp. 227–230). Then: hlm. 12 and fol. 23v. Done.";
        assert_eq!(sentence_spans(text, false), ["Lindqvist puts the delay at six days (JGRAE8XC, pp. 227–230).", " Then: hlm. 12 and fol. 23v.", " Done.", ""]);
        // A longer word before the dot ends its sentence, and a dot before a word ends one too.
        assert_eq!(sentence_spans("It was closed. 1866 was worse. Ok. fine", false), ["It was closed.", " 1866 was worse.", " Ok.", " fine"]);
        // Latin citation abbreviations go on before a lowercase word, and end a sentence before a capital.
        let notes = "Notes with op. cit. and ibid. as Moreau et al. did. See ibid. Then stop. Next";
        assert_eq!(sentence_spans(notes, false), ["Notes with op. cit. and ibid. as Moreau et al. did.", " See ibid.", " Then stop.", " Next"]);
        // A letter and its dot before a lowercase word is an abbreviation; before a capital it ends
        // the sentence, as a longer word's dot does.
        let polish = "Po nowelizacji z 2003 r. sądy mogą to stosować. Tak napisał A. Kowalski. Potem a. Dalej";
        assert_eq!(sentence_spans(polish, false), ["Po nowelizacji z 2003 r. sądy mogą to stosować.", " Tak napisał A.", " Kowalski.", " Potem a.", " Dalej"]);
        // Arabic's question mark and the Devanagari danda end their sentences.
        assert_eq!(sentence_spans("هل هذا صحيح؟ نعم", false), ["هل هذا صحيح؟", " نعم"]);
        assert_eq!(sentence_spans("यह सही है। अगला", false), ["यह सही है।", " अगला"]);
    }
}
