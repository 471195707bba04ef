//! Page and locator forms found by structure, in the languages the assistant is used in.
//!
//! A locator is a number (or range: `14-16`, `14–16`, `14f.`) that is either
//! - right after an abbreviation: a short word of any script ending in a dot (`p.`, `pp.`, `S.`,
//!   `стр.`, `tr.`, `pág.`, `s.`, `Bd.`): the dot is what marks it, not a list of words; a year
//!   (1500-2099) after `al.` or any other abbreviation is not a page;
//! - right after one of the page words that are written without a dot (`page`, `Seite`, `trang`, ...);
//! - glued to `p`/`pp` (`p14`), after `§`, or an author-date page (`2020: 14`, `2020, p. 14`);
//! - before a CJK page mark (`14页`, `14頁`, `14ページ`, `14쪽`, `第14页`);
//! - a lawyer's pinpoint: right after a paragraph word or `at` (`para 18`, `punto 9`, `at 1203`,
//!   `at [145]`), which names a place in a text but not a page.

/// Page words written without a dot; with a dot any short word is an abbreviation already. A legal
/// commentary is cited by its margin numbers ("Rn 12", "Rz 4", Polish "Nb 10"), written without a
/// dot as often as with one: for a lawyer they are the page.
/// Arabic script writes its page letter `ص` with or without a dot.
const PAGE_WORDS: [&str; 29] = [
    "page", "pages", "pg", "seite", "seiten", "trang", "página", "páginas", "pagina", "pagine", "страница", "страницы",
    "strona", "stránka", "sayfa", "halaman", "sida", "side", "sivu", "oldal", "σελίδα", "σελ", "rn", "rnr", "rdnr", "rz", "nb",
    "ص", "صفحة",
];
/// Words before a pinpoint that is not a page: a paragraph of a judgment or a commentary, an article
/// of a code, with a dot or without ("punto 9", "art 6", "ст. 2.1.15").
const PINPOINT_WORDS: [&str; 8] = ["paragraph", "paragraphs", "punto", "punti", "pkt", "art", "ст", "п"];
/// Pinpoint words that are also common words ("at 30 days", Spanish "para 12 países", French "par 12
/// voix"): without a dot, a pinpoint only when no word follows the number (`at 1203:`, `para 18,`),
/// and never before a year.
const GUARDED_PINPOINT_WORDS: [&str; 4] = ["at", "para", "paras", "par"];
/// CJK marks after the number.
const CJK_PAGE_MARKS: [&str; 5] = ["页", "頁", "ページ", "쪽", "페이지"];
/// Abbreviations of "page" (a locator's word lowercased): other abbreviations also mark a locator
/// ("Fig. 3", "Vol. 2", "Tab. 1"), but not a page.
const PAGE_ABBREVIATIONS: [&str; 10] = ["p", "pp", "s", "ss", "tr", "pág", "págs", "pag", "стр", "с"];

/// The first locator in `text`, as written ("p. 14", "S. 22–24", "第14页", "2020: 14", "para 18"); a
/// page or pinpoint before the number of another abbreviation ("Cass. 27648/2011, punto 9", "Ad.
/// plen. 5/2018 — par. 30", "Fig. 3 on p. 12"), which is the locator only when there is none.
pub fn find_locator(text: &str) -> Option<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut other = None;
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_ascii_digit() || (i > 0 && glued_to_word(chars[i - 1].1) && !is_glued_page(&chars, i)) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        while end < chars.len() && chars[end].1.is_ascii_digit() {
            end += 1;
        }
        let number: String = chars[start..end].iter().map(|c| c.1).collect();
        let range_end = range_end(&chars, end);
        let after = byte_at(text, &chars, range_end);
        if let Some(mark) = CJK_PAGE_MARKS.iter().find(|m| text[after..].starts_with(*m)) {
            let from = if start > 0 && chars[start - 1].1 == '第' { chars[start - 1].0 } else { chars[start].0 };
            return Some(format!("{}{mark}", &text[from..after]));
        }
        if let Some(word_start) = locator_word_before(text, &chars, start, &number) {
            let locator = crate::text::single_line(&text[word_start..after]);
            if names_a_pinpoint(&locator) {
                return Some(locator);
            }
            other.get_or_insert(locator);
        }
        if let Some((from, to)) = pinpoint_around(text, &chars, start, range_end) {
            return Some(crate::text::single_line(&text[from..to]));
        }
        if let Some(year_start) = author_date_before(&chars, start) {
            return Some(crate::text::single_line(&text[chars[year_start].0..after]));
        }
        i = end.max(i + 1);
    }
    other
}

/// Whether a locator `find_locator` gave names a page: by a page word, a page abbreviation or a CJK
/// page mark, not a figure, table, volume or section.
pub fn names_a_page(locator: &str) -> bool {
    page_by_word(locator, &locator_word(locator))
}

/// Whether a locator names a page or a pinpoint (a paragraph, an article: `a-pinpoint-is-a-locator`),
/// not a figure, volume or chapter ("Useful for ch. 2" of a note is the reader's own chapter).
pub fn names_a_pinpoint(locator: &str) -> bool {
    let word = locator_word(locator);
    page_by_word(locator, &word) || PINPOINT_WORDS.contains(&word.as_str()) || GUARDED_PINPOINT_WORDS.contains(&word.as_str())
}

/// Whether `locator`, whose word (`locator_word`) is `word`, names a page.
fn page_by_word(locator: &str, word: &str) -> bool {
    CJK_PAGE_MARKS.iter().any(|m| locator.ends_with(m)) || PAGE_ABBREVIATIONS.contains(&word) || PAGE_WORDS.contains(&word)
}

fn locator_word(locator: &str) -> String {
    crate::text::fold_case(locator.split(|c: char| c == '.' || c.is_whitespace() || c.is_ascii_digit()).next().unwrap_or(""))
}

/// A year a locator's number is not (1500-2099, four digits): "et al. 2020", "as at 2019".
fn is_year(digits: &str) -> bool {
    digits.len() == 4 && matches!(digits.parse::<u32>(), Ok(1500..=2099))
}

/// The word of letters that ends right before `word_end` (a char index) and follows no letter or
/// digit: its start (a char index) and its text, case folded.
fn word_before(text: &str, chars: &[(usize, char)], word_end: usize) -> Option<(usize, String)> {
    let mut word_start = word_end;
    while word_start > 0 && chars[word_start - 1].1.is_alphabetic() {
        word_start -= 1;
    }
    if word_start == word_end || (word_start > 0 && chars[word_start - 1].1.is_alphanumeric()) {
        return None;
    }
    Some((word_start, crate::text::fold_case(&text[chars[word_start].0..byte_at(text, chars, word_end)])))
}

/// A digit after a letter of a spaced script is part of a word or key ("ABCD2345"); CJK text glues
/// numbers to the characters around them ("第14页").
fn glued_to_word(c: char) -> bool {
    c.is_alphanumeric() && (c as u32) < 0x2E80
}

fn byte_at(text: &str, chars: &[(usize, char)], at: usize) -> usize {
    chars.get(at).map(|c| c.0).unwrap_or(text.len())
}

/// `p14`, `pp14`: the digits glued to a page abbreviation.
fn is_glued_page(chars: &[(usize, char)], digit: usize) -> bool {
    let letters: String = chars[..digit].iter().rev().take_while(|c| c.1.is_alphabetic()).map(|c| c.1).collect();
    let before = digit.checked_sub(letters.chars().count() + 1).map(|k| chars[k].1);
    matches!(letters.as_str(), "p" | "pp") && before.is_none_or(|c| !c.is_alphanumeric())
}

/// Where the number (or its range, or its `f.`/`ff.`) ends.
fn range_end(chars: &[(usize, char)], mut end: usize) -> usize {
    if end < chars.len() && matches!(chars[end].1, '-' | '–' | '—') && chars.get(end + 1).is_some_and(|c| c.1.is_ascii_digit()) {
        end += 1;
        while end < chars.len() && chars[end].1.is_ascii_digit() {
            end += 1;
        }
    }
    end
}

/// Start (byte) of the abbreviation or page word right before the number at `start`.
fn locator_word_before(text: &str, chars: &[(usize, char)], start: usize, number: &str) -> Option<usize> {
    let mut k = start;
    if is_glued_page(chars, start) {
        let letters = chars[..start].iter().rev().take_while(|c| c.1.is_alphabetic()).count();
        return Some(chars[start - letters].0);
    }
    if k > 0 && chars[k - 1].1 == '§' {
        return Some(chars[k - 1].0);
    }
    // At most one space (or none after a dot: "p.14").
    let mut spaces = 0;
    while k > 0 && chars[k - 1].1.is_whitespace() {
        k -= 1;
        spaces += 1;
    }
    if spaces > 1 || k == 0 {
        return None;
    }
    let dotted = chars[k - 1].1 == '.';
    if !dotted && spaces == 0 {
        return None;
    }
    let word_end = if dotted { k - 1 } else { k };
    let (word_start, word) = word_before(text, chars, word_end)?;
    if dotted && word_end - word_start <= crate::text::MAX_ABBREVIATION_LETTERS && !is_year(number) {
        return Some(chars[word_start].0);
    }
    (!dotted && PAGE_WORDS.contains(&word.as_str())).then_some(chars[word_start].0)
}

/// Rule `a-pinpoint-is-a-locator`: the bytes of a pinpoint around the number at `start..end`, its
/// word one space before it (`para 18`, `at 1203`), the number bracketed or not (`at [145]`, a
/// neutral citation's paragraph).
fn pinpoint_around(text: &str, chars: &[(usize, char)], start: usize, end: usize) -> Option<(usize, usize)> {
    let bracketed = start > 0 && chars[start - 1].1 == '[' && chars.get(end).is_some_and(|c| c.1 == ']');
    let (open, close) = if bracketed { (start - 1, end + 1) } else { (start, end) };
    if open < 2 || !chars[open - 1].1.is_whitespace() {
        return None;
    }
    let (word_start, word) = word_before(text, chars, open - 1)?;
    if GUARDED_PINPOINT_WORDS.contains(&word.as_str()) {
        let year = is_year(&text[chars[start].0..byte_at(text, chars, end)]);
        let quantity = chars[close..].iter().map(|c| c.1).find(|c| !c.is_whitespace()).is_some_and(|c| c.is_alphanumeric() || c == '%');
        if year || !bracketed && quantity {
            return None;
        }
    } else if !PINPOINT_WORDS.contains(&word.as_str()) {
        return None;
    }
    Some((chars[word_start].0, byte_at(text, chars, close)))
}

/// `2020: 14` and `2020, 14`: a year, a colon or comma, then the page number at `start`.
fn author_date_before(chars: &[(usize, char)], start: usize) -> Option<usize> {
    let mut k = start;
    while k > 0 && chars[k - 1].1 == ' ' {
        k -= 1;
    }
    if k == 0 || !matches!(chars[k - 1].1, ':') {
        return None;
    }
    let year_end = k - 1;
    let year_start = year_end.checked_sub(4)?;
    let year: String = chars[year_start..year_end].iter().map(|c| c.1).collect();
    let before_ok = year_start == 0 || !chars[year_start - 1].1.is_alphanumeric();
    (before_ok && is_year(&year)).then_some(year_start)
}

#[cfg(test)]
mod tests {
    use super::find_locator;

    #[test]
    fn locators_by_structure() {
        let found = |t: &str| find_locator(t);
        assert_eq!(found("p. 14 of Weber 2020 (ABCD2345) reports it").as_deref(), Some("p. 14"));
        assert_eq!(found("Weber (2020, S. 22–24) zeigt").as_deref(), Some("S. 22–24"));
        assert_eq!(found("见第14页").as_deref(), Some("第14页"));
        assert_eq!(found("14ページに").as_deref(), Some("14ページ"));
        assert_eq!(found("ở trang 37 của").as_deref(), Some("trang 37"));
        assert_eq!(found("на стр. 112").as_deref(), Some("стр. 112"));
        assert_eq!(found("see p14 there").as_deref(), Some("p14"));
        assert_eq!(found("(Kim 2021: 88)").as_deref(), Some("2021: 88"));
        assert_eq!(found("u Machnikowskiego (7E5F3WCM) to jest Nb 23, a nie Nb 10").as_deref(), Some("Nb 23"));
        assert_eq!(found("MüKo BGB/Emmerich § 311 Rn 72").as_deref(), Some("Rn 72"));
        assert_eq!(found("Weber et al. 2020 found 14 dogs"), None);
        assert_eq!(found("in 2020 we had 14 dogs"), None);
        assert_eq!(found("ABCD2345 is the key"), None);
    }

    /// Rule `a-pinpoint-is-a-locator`: a lawyer's paragraph and `at` pinpoints, Russian `с.` and
    /// Arabic `ص` pages; `at` and `para` before a quantity, a year or a noun are common words.
    #[test]
    fn pinpoints_and_the_page_letters_of_more_scripts() {
        let found = |t: &str| find_locator(t);
        assert_eq!(found("Lord Scott, para 18: no estoppel").as_deref(), Some("para 18"));
        assert_eq!(found("Bingham LJ at 1203: an invitation").as_deref(), Some("at 1203"));
        assert_eq!(found("Leggatt J is at [145] of Yam Seng").as_deref(), Some("at [145]"));
        assert_eq!(found("Cass. 27648/2011, punto 9: il danno").as_deref(), Some("punto 9"));
        assert_eq!(found("wyrok, pkt 5 uzasadnienia").as_deref(), Some("pkt 5"));
        assert_eq!(found("Определение СКЭС, с. 11: коллегия").as_deref(), Some("с. 11"));
        assert_eq!(found("نقض ١٨٧٦ — ص 4: اعتبرت المحكمة").as_deref(), Some("ص 4"));
        assert_eq!(found("mortality at 30 days was higher"), None);
        assert_eq!(found("the rate at 95% confidence"), None);
        assert_eq!(found("figures as at 2019, revised"), None);
        assert_eq!(found("usa datos para 12 países"), None);
        assert_eq!(found("adopté par 12 voix contre 3"), None);
        assert_eq!(found("Ad. plen. 5/2018 — par. 30: la PA risponde").as_deref(), Some("par. 30"));
        assert!(super::names_a_page("с. 11") && super::names_a_page("ص 4"));
        assert!(!super::names_a_page("para 18") && !super::names_a_page("at 1203"));
        assert!(super::names_a_pinpoint("para 18") && super::names_a_pinpoint("at [145]") && super::names_a_pinpoint("art. 1112"));
        assert!(!super::names_a_pinpoint("ch. 2") && !super::names_a_pinpoint("Vol. 2"));
    }

    #[test]
    fn a_page_is_named_by_its_word_not_by_any_abbreviation() {
        for page in ["p. 14", "pp. 3–5", "S. 22", "p14", "trang 37", "第14页", "14ページ", "стр. 112", "page 9", "pág. 4", "Rn 72", "Nb 10"] {
            assert!(super::names_a_page(page), "{page}");
        }
        for other in ["Fig. 3", "Vol. 2", "Tab. 1", "Eq. 4", "2021: 88", "§ 3"] {
            assert!(!super::names_a_page(other), "{other}");
        }
    }
}
