//! The embedded extractive summarizer: fills the eight sections from the request without a model.

use super::sections::{heading_section, SECTIONS};
use super::subject::{content_tokens, is_cjk, named_line, same_subject, shared_count, Candidate, Frames, Subject};
use crate::zotero::{LedgerKind, ResourceLedger};

// ---------------------------------------------------------------------------------------------
// The embedded extractive summarizer.
//
// Every line it writes has a source mark, and the mark says what kind of state the line is, so the
// next compaction can carry it forward, supersede it or trim it by kind without reinterpreting it:
// `(user)`, `(user, style)`, `(user, deadline)`, `(user, key)`, `(user, correction)`,
// `(user, open task)`, `(user, stated)`, `(user, verbatim)`, `(tool)`, `(tool, failed)`, `(inferred, decision)`,
// `(inferred, failed)`, `(inferred, open task)`, `(inferred, hypothesis, unverified)`, `(inferred)`,
// `(inferred, settled)` and `(user, settled)` (a verdict on a hypothesis, kept as the hypothesis was).

/// Longest sentence or excerpt copied into the extractive summary, in characters.
const EXCERPT_MAX_CHARS: usize = 300;
/// Longest tool error text kept on a failed-approach line, in characters.
const ERROR_MAX_CHARS: usize = 160;
/// Most lines carried over from the previous summary's findings, progress and context (the user's
/// statements, decisions, tasks, failures and hypotheses carry over whole; the budget trims them).
const MAX_CARRIED_LINES: usize = 40;
/// The answers' concluded lines take at most this part (1/N) of the summary budget.
const CONCLUDED_SHARE: u64 = 3;
/// A sentence shorter than this (characters) is an acknowledgement ("ok, later"), never state.
const MIN_STATE_CHARS: usize = 16;

/// A list of cues written as one string, `|` between them: the wasm then holds each list's text and
/// not a (pointer, length) pair for each of its thousand cues (docs/performance.md). Split once, on
/// first use.
struct Cues {
    joined: &'static str,
    split: std::sync::OnceLock<CueList>,
}

/// A list's cues in order, and by their first byte: a sentence's word is compared with the cues that
/// begin with its letter, not with all of them.
struct CueList {
    cues: Vec<Cue>,
    /// Positions in `cues`, in the order of their first byte (list order among equals).
    by_first: Vec<usize>,
    /// `by_first[starts[b]..starts[b + 1]]`: the cues whose first byte is `b`.
    starts: [usize; 257],
}

/// One cue of a list.
struct Cue {
    text: &'static str,
    /// Its first character outside ASCII: a sentence without it (or its capital) cannot hold the cue.
    first_outside_ascii: Option<char>,
}

/// A `Cues` of the cues given one by one (each a literal, joined with `|`).
macro_rules! cues {
    ($first:literal $(, $cue:literal)* $(,)?) => {
        Cues::new(concat!($first $(, "|", $cue)*))
    };
}

impl Cues {
    const fn new(joined: &'static str) -> Cues {
        Cues { joined, split: std::sync::OnceLock::new() }
    }

    fn list(&self) -> &CueList {
        self.split.get_or_init(|| {
            let cues: Vec<Cue> =
                self.joined.split('|').map(|text| Cue { text, first_outside_ascii: text.chars().find(|c| !c.is_ascii()) }).collect();
            let first = |at: usize| cues[at].text.as_bytes()[0];
            // Stable: list order holds among the cues of one byte.
            let mut by_first: Vec<usize> = (0..cues.len()).collect();
            crate::order::sort_positions(&mut by_first, &|a, b| first(a).cmp(&first(b)));
            let mut starts = [0usize; 257];
            for &at in &by_first {
                starts[first(at) as usize + 1] += 1;
            }
            for b in 1..257 {
                starts[b] += starts[b - 1];
            }
            CueList { cues, by_first, starts }
        })
    }
}

/// Words that make a user sentence a requirement or constraint, even in a question ("only
/// peer-reviewed studies, ok?"): explicit limits, exclusions, deadlines.
static REQUIREMENT_CUES: Cues = cues![
    "must", "only", "don't", "dont", "do not", "never", "always", "require", "required", "requires",
    "exclude", "excluding", "at least", "at most", "no more than", "make sure", "peer-reviewed", "peer reviewed",
    "citation style", "deadline", "due by", "inclusion criteria", "exclusion criteria", "skip", "forget", "stop",
    "ignore", "no longer", "anymore", "limit", "restrict",
    "必须", "只", "不要", "不能", "务必", "请勿", "截止", "だけ",
    // French, Portuguese, Spanish, Turkish, Indonesian, Korean.
    "uniquement", "seulement", "jamais", "obligatoire", "au moins", "pas plus de", "apenas", "somente", "nunca",
    "obrigatório", "pelo menos", "no máximo", "solamente", "únicamente", "al menos", "como máximo", "sadece", "yalnızca",
    "asla", "zorunlu", "en az", "en fazla", "hanya", "jangan", "wajib", "tidak boleh", "nggak boleh", "반드시", "절대",
    "제외", "최소", "최대",
];
/// Softer words that make a statement a constraint ("we need three cohort studies"), but not a
/// question ("should we look at paper 7 next?"): explicit cues outrank question words.
static SOFT_CONSTRAINT_CUES: Cues = cues![
    "need", "needs", "should", "avoid", "without", "prefer", "want", "wants", "需要",
];
/// Words that open a question in the languages the assistant is used in.
const QUESTION_OPENERS: [&str; 16] = [
    "should", "shall", "could", "can", "would", "will", "do", "does", "did", "is", "are", "what", "which", "how", "why",
    "where",
];
/// Words that mark a user sentence as a statement or refinement of the research objective.
static GOAL_CUES: Cues = cues![
    "research goal", "my goal", "our goal", "the goal", "objective", "research question", "i am writing", "i'm writing",
    "we are writing", "narrow", "broaden", "refine", "scope", "the review is about", "the review covers", "研究目标",
    "研究目的", "目标", "研究テーマ", "目的",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "forschungsfrage", "mein ziel", "unser ziel", "mon objectif", "notre objectif", "question de recherche",
    "mi objetivo", "nuestro objetivo", "pregunta de investigación", "meu objetivo", "nosso objetivo",
    "pergunta de pesquisa", "il mio obiettivo", "il nostro obiettivo", "domanda di ricerca", "моя цель", "наша цель",
    "цель исследования", "исследовательский вопрос", "mój cel", "nasz cel", "pytanie badawcze", "هدفي", "هدفنا",
    "هدف البحث", "سؤال البحث", "mục tiêu", "câu hỏi nghiên cứu", "목표", "연구 질문", "amacım", "amacımız",
    "araştırma sorusu", "tujuan saya", "tujuan kami", "pertanyaan penelitian", "mera goal", "लक्ष्य", "उद्देश्य",
    "mijn doel", "ons doel", "onderzoeksvraag",
];
/// Words that mark a sentence as a decision (Japanese in the polite form an assistant writes).
static DECISION_CUES: Cues = cues![
    "let's", "let us", "we will", "we'll", "decide", "decided", "decision", "go with", "going with", "instead", "choose",
    "chose", "focus on", "settled on", "switch to", "switching to", "i will use", "i'll use", "决定", "改用", "就用", "決定",
    "ことにしました", "ことにします", "決めました",
    "décidé", "décision", "on part sur", "decidi", "decidimos", "decisão", "optei", "optamos", "decidí", "decisión",
    "opté", "karar verdim", "karar verdik", "kararım", "kararımız", "memutuskan", "diputuskan", "keputusan", "결정했",
    "결정하", "하기로 했", "기로 했습니다", "기로 했어요",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "entschieden", "entscheidung", "wir nehmen", "nehmen wir", "quyết định", "sẽ dùng", "deciso", "decisione",
    "scelto", "useremo", "optato", "решил", "решено", "остановимся на", "выбрали", "будем использовать", "zdecydował",
    "zdecydowaliśmy", "decyzja", "wybieramy", "użyjemy", "قررت", "قررنا", "سنعتمد", "سنستخدم", "اخترنا", "decide kiya",
    "tay kiya", "तय किया", "फैसला", "निर्णय", "besloten", "beslissing", "we gaan voor", "kiezen voor",
];
/// Names and words of citation styles: a user sentence with one states the style (the newest wins).
/// The names are those of the styles Zotero installs (the legal ones too: OSCOLA, Bluebook, AGLC) and
/// of national standards; the words say "citation style" in each language the assistant is used in.
/// Chinese and Japanese write the names of places in their own script (哈佛, ハーバード). APA and AMA
/// are words elsewhere ("apa" is Indonesian for "what", "ama" Turkish for "but"): alone they name a
/// style in capitals or with an edition ("ama 11", "apa 7th"; `STYLE_ACRONYMS`).
static STYLE_CUES: Cues = cues![
    "citation style", "reference style", "referencing style", "bibliography style", "citation format", "reference format",
    "apa style", "ama style", "mla", "chicago", "vancouver", "harvard", "ieee", "turabian", "mhra", "apsa", "acs", "cite them right",
    "oscola", "bluebook", "aglc", "mcgill guide",
    "gb/t 7714", "iso 690", "din 1505", "abnt", "gost", "sist02", "csl", "zitierstil", "zitierweise", "style de citation",
    "style bibliographique", "normes bibliographiques", "estilo de citação", "estilo de citacao", "estilo de citación",
    "estilo de cita", "atıf stili", "atıf biçimi", "kaynak gösterme", "gaya sitasi", "gaya kutipan", "gaya selingkung",
    "인용 양식", "인용 스타일", "참고문헌 양식", "kiểu trích dẫn", "引用格式", "参考文献格式", "引用スタイル", "参考文献の書式",
    "哈佛", "温哥华", "芝加哥", "ハーバード", "バンクーバー", "シカゴ",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "stile di citazione", "оформление ссылок", "стиль цитирования", "styl cytowania", "نمط الاقتباس", "أسلوب التوثيق",
    "citeerstijl",
];
/// Notes in the plural, which name the note styles ("footnotes", "notes de bas de page"; "add a
/// footnote" states none): a newer style without a name must replace an older one with a name. Not
/// when the sentence names items of the library (rule `formatting-items-keeps-the-style`).
static NOTE_STYLE_CUES: Cues = cues![
    "footnotes", "endnotes", "notes de bas de page", "notas de rodapé", "notas de rodape", "notas al pie", "fußnoten", "dipnotlar",
    "note a piè di pagina", "сноски", "przypisy", "الحواشي", "voetnoten", "chú thích cuối trang",
];
/// Style names that are also common words of a language the assistant is used in.
const STYLE_ACRONYMS: [&str; 2] = ["APA", "AMA"];

/// Whether a user sentence names a citation style: a cue, or one of `STYLE_ACRONYMS` as a word written
/// in capitals or followed by an edition's number.
///
/// Rule `formatting-items-keeps-the-style`: a sentence whose only cue is the notes ("format Regalian
/// and Cobbe for the footnotes") that names items of `ledger` asks for their notes; the style stays
/// the one the user set. The request is still in the user's words.
fn names_a_style(sentence: &str, ledger: &ResourceLedger) -> bool {
    if has_cue(sentence, &STYLE_CUES) {
        return true;
    }
    if has_cue(sentence, &NOTE_STYLE_CUES) {
        return !names_items(sentence, ledger);
    }
    let mut words = sentence.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).peekable();
    while let Some(word) = words.next() {
        let named = STYLE_ACRONYMS.iter().any(|name| word.eq_ignore_ascii_case(name));
        if named && (STYLE_ACRONYMS.contains(&word) || words.peek().is_some_and(|next| next.as_bytes()[0].is_ascii_digit())) {
            return true;
        }
    }
    false
}

/// Words of a deadline; with a date or number in the sentence it states the deadline (the newest wins).
static DEADLINE_CUES: Cues = cues![
    "deadline", "due", "submit by", "submission", "截止", "期限", "締め切り", "締切",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    // Not the words a lawyer uses for any time limit (Frist, срок, thời hạn, consegna, teslim): a
    // deadline filed from a claim about the law hides the user's own.
    "abgabe", "abgabefrist", "abgabetermin", "date limite", "échéance", "fecha límite", "scadenza", "срок сдачи",
    "крайний срок", "дедлайн", "termin oddania", "termin złożenia", "najpóźniej", "الموعد النهائي", "موعد التسليم",
    "hạn chót", "hạn nộp", "마감", "기한", "son tarih", "tenggat", "batas waktu", "inleveren", "uiterlijk",
];
/// Month names (a stem where a case ending follows: "сентябр", "września"): a "due" sentence with one
/// names a date, and a day beside one is a date (rule `a-date-said-of-the-deadline-moves-it`).
static MONTH_CUES: Cues = cues![
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    // The other languages of the cue lists (Vietnamese, Korean, Chinese and Japanese count months).
    "januar", "jänner", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember", "janvier", "février",
    "mars", "avril", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre", "enero", "febrero",
    "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre",
    "diciembre", "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "dezembro",
    "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre", "dicembre", "январ",
    "феврал", "март", "апрел", "мая", "май", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр",
    "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października",
    "listopada", "grudnia", "januari", "februari", "maart", "mei", "augustus", "maret", "agustus", "desember",
    "ocak", "şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos", "eylül", "ekim", "kasım", "aralık",
    "يناير", "فبراير", "مارس", "أبريل", "ابريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
    "ديسمبر",
];
/// Words of a due date moved, later or earlier: an extension, a postponement, a date brought forward
/// (rule `a-moved-date-moves-the-deadline`). Not what is said of a rule or a model as well ("the court
/// extended the doctrine", "verlängert"), not "moved" alone (a family moves on a date too), nor
/// "report" (French for putting off, English for a text).
static MOVED_DATE_CUES: Cues = cues![
    "extension", "postponed", "pushed back", "moved up", "brought forward", "verlängerung", "verschoben", "aufschub",
    "vorgezogen", "prolongation", "reporté", "repoussé", "prórroga", "aplazado", "aplazada", "pospuesto",
    "adelantado", "adelantada", "prorrogação", "adiado", "adiada", "adiamento", "antecipado", "antecipada", "proroga",
    "prorogato", "prorogata", "rinviato", "rinviata", "posticipato", "posticipata", "anticipato", "anticipata",
    "отсрочк", "перенесли", "сдвинули", "przedłużeni", "odroczeni", "przesunięt", "przyspieszon", "تمديد", "تأجيل",
    "مهلة إضافية", "延期", "延长", "推迟", "宽限", "提前", "延長", "延ば", "猶予", "早まっ", "前倒し", "繰り上げ", "연장",
    "앞당겨", "gia hạn", "hoãn", "lùi lại", "dời lên", "uzatma", "ertelendi", "öne çekildi", "perpanjangan", "ditunda",
    "मोहलत", "verlenging", "uitstel", "uitgesteld", "vervroegd",
];
/// CJK date marks and week words: a "due" sentence with one of them (or a month, or a digit) names a date.
static DATE_CUES: Cues = cues!["月", "日", "week", "friday"];
/// Words of a user taking back what they said: the rule they name, or the one they reply to, goes.
/// Only the user's own taking back: no bare "forget" ("don't forget the table" keeps what it names);
/// no 算了, which 计算了 ("calculated") holds (a CJK cue matches inside words); nothing a researcher
/// says of the world: 撤回 (a journal retracting a paper), "no longer applies", "gilt nicht mehr".
static RETRACTION_CUES: Cues = cues![
    "scratch that", "never mind", "nevermind", "forget what i said", "forget what i wrote", "ignore what i said",
    "ignore the earlier", "ignore my earlier", "ignore that rule", "disregard what", "take that back", "cancel that",
    "vergiss das", "vergiss, was", "streich das", "oublie ça", "oubliez ça", "laisse tomber", "esquece isso",
    "esqueça isso", "deixa pra lá", "olvida eso", "olvídalo", "boşver", "vazgeçtim", "lupakan saja", "lupain aja",
    "abaikan yang tadi", "nggak jadi", "gak jadi", "없던 걸로", "취소할게", "取り消し", "忘れてください", "作废", "不要了",
    "当我没说",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "changed my mind", "thôi bỏ đi", "quên điều đó đi", "quên cái đó đi", "lascia perdere", "ho cambiato idea",
    "я передумал", "отбой", "rozmyśliłem się", "rozmyśliłam się", "cofam to", "تجاهل ما قلت", "انس ما قلت",
    "غيرت رأيي", "rehne do", "रहने दो", "laat maar zitten", "vergeet wat ik zei", "ik trek dat in",
];
/// Words of a user correcting what was said or done before.
static CORRECTION_CUES: Cues = cues![
    "actually", "correction", "i meant", "i mean", "that's wrong", "that is wrong", "not correct", "mistake", "rather than",
    "korrektur", "berichtigung", "rectification", "correção", "correcao", "corrección", "düzeltme", "duzeltme", "koreksi",
    "ralat", "정정", "đính chính", "不对", "更正", "其实", "訂正",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "correzione", "in realtà", "intendevo", "поправка", "на самом деле", "я имел в виду", "я имела в виду", "poprawka",
    "sprostowanie", "miałem na myśli", "miałam na myśli", "تصحيح", "في الواقع", "قصدت", "सुधार", "correctie",
    "eigenlijk", "ik bedoelde",
];
/// Negations: with a key and a locator, and a word of the claim, a user putting its page right ("not
/// where you had it", "bukan yang kamu sebut", "não onde"); rule `a-page-put-right-replaces-the-claim`.
static NEGATION_CUES: Cues = cues![
    "not", "no", "nicht", "kein", "non", "pas", "não", "nao", "değil", "degil", "bukan", "không phải", "아니", "不是",
    "ではな", "じゃな", "wrong", "falsch", "faux", "errado", "yanlış", "salah",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "sbagliato", "sbagliata", "errato", "errata", "не ", "нет", "неверн", "ошибочн", "неправильн", "nie", "błędn",
    "źle", "ليس", "ليست", " لا ", "خطأ", "nahi", "nahin", "नहीं", "galat", "गलत", "niet", "geen", "fout",
];
/// Words of a verdict on an idea: it holds or it does not (rule `a-verdict-settles-its-idea`).
static VERDICT_CUES: Cues = cues![
    "doesn't hold", "does not hold", "holds up", "ruled out", "rules out", "not supported", "is supported", "confirmed",
    "confirms", "refuted", "refutes", "disproved", "disproves", "drop that idea", "drop the idea", "drop this idea",
    "hält nicht", "widerlegt", "bestätigt", "verworfen", "trifft nicht zu", "trifft zu", "ne tient pas", "tient la route",
    "confirmé", "réfuté", "infirmé", "não se sustenta", "se sustenta", "confirmada", "confirmado",
    "refutada", "refutado", "no se sostiene", "se sostiene", "tutmuyor", "doğrulandı", "doğruluyor", "çürütül", "geçersiz",
    "tidak bertahan", "terbukti", "dikonfirmasi", "terkonfirmasi", "dibantah", "ditinggalkan", "성립하지 않", "성립합니다",
    "확인되었", "확인됐", "기각", "반박", "틀렸", "không đứng vững", "được xác nhận", "bác bỏ", "不成立", "证实", "推翻",
    "成り立たな", "裏付けられ", "否定され", "外れ",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "non regge", "regge", "confermato", "confermata", "confutato", "confutata", "smentito", "smentita", "подтверди", "подтвержда",
    "опроверг", "не выдерживает", "несостоятельн", "potwierdzona", "potwierdzony", "potwierdzone", "potwierdza",
    "obalona", "obalony", "obalone", "nie wytrzymuje", "تم تأكيد", "تأكدت", "دحض", "لا تصمد", "ثبتت صحة", "ثبت خطأ",
    "galat sabit", "sahi sabit", "साबित", "पुष्टि", "bevestigd", "weerlegd", "houdt geen stand", "houdt stand",
    // What evidence does to an idea, and an idea dropped by name.
    "bear out", "bears out", "borne out", "bear that out", "bears that out", "bear this out", "bear it out",
    "bears it out", "drop that hypothesis", "drop the hypothesis", "drop this hypothesis", "لا تؤيد", "لا يؤيد",
    "استبعاد الفرضية",
];
/// Words of a task reported done (rule `a-task-reported-done-closes-it`).
static DONE_CUES: Cues = cues![
    "done", "finished", "completed", "erledigt", "fertig", "abgeschlossen", "terminé", "fini", "c'est fait", "terminei",
    "terminamos", "concluí", "terminado", "listo", "bitirdim", "bitti", "tamamladım", "tamamlandı",
    "selesai", "sudah beres", "udah beres", "kelar", "끝났", "끝냈", "완료", "다 했", "xong", "đã hoàn thành", "完成了", "做完",
    "搞定", "終わりました", "終わった", "完了", "済み", "済ませ",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "completato", "completata", "ho finito", "abbiamo finito", "terminato", "готово", "сделано", "закончил",
    "выполнено", "завершен", "gotowe", "zrobione", "skończył", "skończyliśmy", "ukończone", "zakończone",
    "تم الانتهاء", "انتهيت", "أنجزت", "اكتمل", "kar diya", "kar liya", "poora ho gaya", "pura ho gaya", "पूरा हो गया",
    "पूरा कर लिया", "klaar", "gedaan", "afgerond", "voltooid",
];
/// Words of work still to do (user or assistant), in each language the assistant is used in.
/// Not a bare "next" in any language: "Đây là bài tiếp theo" is "here is the next paper".
static TASK_CUES: Cues = cues![
    "next step", "still need", "still to do", "to do", "todo", "remaining", "pending", "not yet", "later", "remember to",
    "will check", "remains to", "open task", "need to", "needs to", "have to", "has to", "nächster schritt", "als nächstes",
    "noch offen", "noch zu tun", "muss noch", "müssen noch", "steht noch", "später", "bước tiếp theo", "vẫn còn",
    "còn phải", "chưa xong", "下一步", "待办", "尚未", "稍后", "接下来", "还要", "还需要", "まだ", "次に", "必要があ",
    "à faire", "reste à", "prochaine étape", "plus tard", "pas encore", "a fazer", "ainda falta", "ainda preciso",
    "próximo passo", "mais tarde", "pendiente", "por hacer", "próximo paso", "más tarde", "yapılacak", "sonraki adım",
    "daha sonra", "henüz", "hatırlat", "nanti", "belum", "masih harus", "langkah berikutnya", "ingatkan", "할 일",
    "다음 단계", "나중에", "아직",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "da fare", "ancora da", "prossimo passo", "più tardi", "non ancora", "resta da", "нужно ещё", "надо ещё",
    "следующий шаг", "позже", "ещё не", "осталось", "do zrobienia", "następny krok", "później", "jeszcze nie",
    "trzeba jeszcze", "الخطوة التالية", "لاحقا", "لاحقًا", "ما زال علينا", "لم نقم بعد", "baad mein", "abhi baaki",
    "baaki hai", "बाद में", "अभी बाकी", "बाकी है", "nog te doen", "volgende stap", "nog niet", "moet nog",
];
/// Words of an approach that failed (assistant text; tool errors are failures by their state); the
/// Japanese also in the polite form an assistant writes (できませんでした, うまくいきませんでした).
static FAILURE_CUES: Cues = cues![
    "failed", "fails", "did not work", "didn't work", "does not work", "doesn't work", "no results", "returned nothing",
    "dead end", "gave up", "abandoned", "not possible", "could not", "couldn't", "unable to", "timed out", "fehlgeschlagen",
    "nicht funktioniert", "keine ergebnisse", "sackgasse", "aufgegeben", "nicht möglich", "konnte nicht", "thất bại",
    "không thành công", "không có kết quả", "bế tắc", "失败", "无法", "走不通", "没有结果", "放弃", "失敗", "できなかった",
    "うまくいかな", "断念", "できませんでした", "うまくいきません",
    "échoué", "échec", "pas marché", "ne marche pas", "ne fonctionne pas", "aucun résultat", "impossible de",
    "não funcion", "falhou", "sem resultado", "nenhum resultado", "não deu certo", "não consegui", "no funciona",
    "no funcionó", "falló", "sin resultados", "no pude", "işe yaramadı", "başarısız", "sonuç vermedi", "çalışmadı",
    "yapamadım", "gagal", "tidak berhasil", "tidak ada hasil", "실패", "통하지 않", "되지 않았", "결과가 없", "못했습니다",
    "할 수 없었",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "fallito", "fallita", "non funziona", "non ha funzionato", "nessun risultato", "non sono riuscito",
    "non è stato possibile", "не удалось", "не сработал", "не работает", "ничего не нашл", "безрезультатн",
    "nie udało się", "nie działa", "nie zadziała", "brak wyników", "niepowodzenie", "nie powiodło się", "فشل",
    "لم ينجح", "لم تنجح", "لا توجد نتائج", "لم أتمكن", "تعذر", "kaam nahi kiya", "fail ho gaya", "nahi mila",
    "नहीं मिला", "विफल", "असफल", "mislukt", "werkt niet", "geen resultaten", "lukte niet",
];
/// Words of a hypothesis: such a sentence stays marked as one, never a finding. The hedges of each
/// language the assistant is used in (an idea without one was filed as concluded).
static HYPOTHESIS_CUES: Cues = cues![
    "hypothesis", "hypothesize", "hypothesise", "hypothesized", "i suspect", "we suspect", "might", "may be", "maybe",
    "perhaps", "possibly", "plausibly", "could be", "i think", "i guess", "my guess", "my bet", "i bet", "unverified",
    "tentative", "possibility", "i wonder", "worth testing", "worth checking", "untested", "conjecture", "speculative",
    "hypothese", "ich vermute", "wir vermuten", "ich glaube", "ich denke", "ich tippe", "vielleicht", "vermutlich",
    "wahrscheinlich", "möglicherweise", "unbestätigt", "có lẽ", "giả thuyết", "tôi đoán", "tôi nghĩ", "tôi cho rằng",
    "chưa kiểm chứng", "假设", "推测", "可能", "也许", "或许", "说不定", "我猜", "猜测", "我认为", "我觉得", "未经证实", "仮説",
    "かもしれ", "のではないか", "おそらく", "と思",
    // French, Portuguese, Spanish, Turkish, Indonesian, Korean.
    "hypothèse", "peut-être", "il se peut", "il est possible", "probablement", "je soupçonne", "hipótese", "talvez",
    "possivelmente", "provavelmente", "suspeito", "hipótesis", "quizás", "quizá", "tal vez", "posiblemente",
    "probablemente", "sospecho", "hipotez", "ihtimal", "olabilir", "belki", "muhtemelen", "sanırım", "hipotesis",
    "dugaan", "mungkin", "kemungkinan", "barangkali", "sepertinya", "가설", "가능성", "아마", "추측", "지도 모르", "것 같",
    "일지도", "인 듯",
    // Italian, Russian, Polish, Arabic, Hindi (and Hinglish), Dutch, and the other languages above with no cue here.
    "ipotesi", "forse", "probabilmente", "magari", "sospetto", "potrebbe", "credo che", "penso che", "гипотез",
    "возможно", "может быть", "вероятно", "предполагаю", "подозреваю", "наверное", "hipoteza", "hipotezę", "być może",
    "może być", "prawdopodobnie", "przypuszczam", "podejrzewam", "chyba", "wydaje mi się", "فرضية", "ربما", "قد يكون",
    "من المحتمل", "أظن", "أعتقد", "shayad", "शायद", "ho sakta hai", "हो सकता है", "mujhe lagta hai", "मुझे लगता है",
    "misschien", "waarschijnlijk", "vermoedelijk", "wellicht", "ik vermoed",
];

/// One message of a serialized history (see `serialize`) as the rules read it: its role, its text
/// blocks' lines joined, and the tool blocks that say more than that a result came (most of a long
/// history is tool results no rule reads, and they are not copied).
#[derive(Debug, Default)]
struct HistoryMessage {
    role: String,
    text: String,
    /// How many text lines `text` joins (a first line may be empty).
    text_lines: usize,
    tools: Vec<ToolBlock>,
}

/// A tool block whose status a rule files (a failure, a denial, a pending approval, an interruption).
#[derive(Debug, Default)]
struct ToolBlock {
    name: String,
    status: String,
    /// Its lines joined by spaces.
    content: String,
    lines: usize,
}

/// The block a history line belongs to, while the history is read.
#[derive(Debug, Default)]
enum Reading {
    /// Before the first message header, and in blocks no rule reads.
    #[default]
    Skipped,
    Text,
    Tool(ToolBlock),
}

/// The statuses of a tool block that a rule files (the tool loop of `ExtractiveFold::finish`).
const FILED_TOOL_STATUSES: [&str; 5] = ["error", "denied by the user", "approval refused", "awaiting approval", "interrupted, no result"];

/// Reads the history's lines from byte `from` on, at least `budget` bytes, into `messages`, and
/// stops before a message header; returns where it stopped (`history.len()` at the end).
fn read_history(history: &str, from: usize, budget: usize, messages: &mut Vec<HistoryMessage>, reading: &mut Reading) -> usize {
    let mut at = from;
    for piece in history[from..].split_inclusive('\n') {
        // `str::lines`: a line ends at "\n" or "\r\n".
        let line = piece.strip_suffix('\n').map_or(piece, |l| l.strip_suffix('\r').unwrap_or(l));
        let header = structural_header(line);
        if at - from >= budget && header.is_some_and(|h| h.starts_with("message ")) {
            return at;
        }
        at += piece.len();
        if let Some(header) = header {
            end_block(messages, reading);
            if let Some(rest) = header.strip_prefix("message ") {
                let role = rest.split(" | ").nth(1).unwrap_or("");
                messages.push(HistoryMessage { role: role.to_string(), ..HistoryMessage::default() });
                *reading = Reading::Text;
            } else if !messages.is_empty() {
                *reading = match header.strip_prefix("tool ") {
                    None if header == "text" => Reading::Text,
                    None => Reading::Skipped,
                    Some(tool) => {
                        let fields: Vec<&str> = tool.split(" | ").collect();
                        let status = fields.get(2).copied().unwrap_or("");
                        if FILED_TOOL_STATUSES.contains(&status) {
                            let name = fields.first().copied().unwrap_or("tool");
                            Reading::Tool(ToolBlock { name: name.to_string(), status: status.to_string(), ..ToolBlock::default() })
                        } else {
                            Reading::Skipped
                        }
                    }
                };
            }
            continue;
        }
        let line = match line.strip_prefix('\\') {
            Some(rest) if super::serialize::looks_structural(rest) => rest,
            _ => line,
        };
        match reading {
            Reading::Skipped => {}
            Reading::Text => {
                if let Some(message) = messages.last_mut() {
                    if message.text_lines > 0 {
                        message.text.push('\n');
                    }
                    message.text.push_str(line);
                    message.text_lines += 1;
                }
            }
            Reading::Tool(block) => {
                if block.lines > 0 {
                    block.content.push(' ');
                }
                block.content.push_str(line);
                block.lines += 1;
            }
        }
    }
    end_block(messages, reading);
    history.len()
}

/// Files the tool block being read with its message.
fn end_block(messages: &mut [HistoryMessage], reading: &mut Reading) {
    if let (Reading::Tool(block), Some(message)) = (std::mem::take(reading), messages.last_mut()) {
        message.tools.push(block);
    }
}

/// The text of a structural line (`--- text ---` gives `text`).
fn structural_header(line: &str) -> Option<&str> {
    let inner = line.strip_prefix("--- ")?.strip_suffix(" ---")?;
    inner.chars().next().is_some_and(char::is_alphabetic).then_some(inner)
}

/// Sentences of `text`. Not split at `;`: "Forget the scraping idea; never do that again" is one
/// statement, and its head is what the tail refers to.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for span in crate::text::sentence_spans(text, false) {
        push_sentence(&mut out, span);
    }
    out
}

fn push_sentence(out: &mut Vec<String>, sentence: &str) {
    // The list and quote marks off first, then one copy with its whitespace folded.
    let body = sentence.trim_start_matches(|c: char| matches!(c, '-' | '*' | '#' | '>') || c.is_whitespace());
    let sentence = crate::text::single_line(body);
    if sentence.chars().count() >= 3 {
        out.push(sentence);
    }
}

fn has_cue(sentence: &str, cues: &Cues) -> bool {
    find_cue(sentence, cues).is_some()
}

/// What `find_cue` reads of a sentence, made once: a summary asks up to fifteen lists about one
/// sentence in a row, and remade for each list these scans were most of a long round's summary
/// (docs/performance.md, "The main thread").
#[derive(Default)]
struct PreparedSentence {
    text: String,
    /// The characters outside ASCII the sentence holds, and their lower case, as bits: only a cue
    /// whose first such character may be among them is looked for (an English sentence with a dash
    /// is not searched for a thousand cues in other scripts).
    held: u64,
    /// The sentence's first letter, when it is a capital outside ASCII (`find_spelled`).
    opening: Option<(usize, char)>,
    /// Where an ASCII cue may begin: the ASCII characters that start a word.
    word_starts: Vec<usize>,
}

impl PreparedSentence {
    fn prepare(&mut self, sentence: &str) {
        self.text.clear();
        self.text.push_str(sentence);
        self.held = 0;
        self.opening = None;
        if !sentence.is_ascii() {
            for c in sentence.chars().filter(|c| !c.is_ascii()) {
                self.held |= char_bit(c) | char_bit(crate::text::fold_char(c));
            }
            self.opening = sentence.char_indices().find(|(_, c)| c.is_alphabetic()).filter(|&(_, c)| crate::text::fold_char(c) != c);
        }
        self.word_starts.clear();
        let mut after_word = false;
        for (at, c) in sentence.char_indices() {
            if !after_word && c.is_ascii() {
                self.word_starts.push(at);
            }
            after_word = continues_word(c);
        }
    }
}

std::thread_local! {
    /// The sentence `find_cue` was last asked about (the wasm has one thread).
    static PREPARED: std::cell::RefCell<PreparedSentence> = std::cell::RefCell::new(PreparedSentence::default());
}

/// Where the first cue of `cues` is in `sentence`: its byte range. Not inlined: `has_cue` is asked
/// in twenty places.
#[inline(never)]
fn find_cue(sentence: &str, cues: &Cues) -> Option<(usize, usize)> {
    let list = cues.list();
    PREPARED.with(|prepared| {
        let mut prepared = prepared.borrow_mut();
        if prepared.text != sentence {
            prepared.prepare(sentence);
        }
        if prepared.held != 0 {
            let held = prepared.held;
            let mut candidates = list.cues.iter().filter(|cue| cue.first_outside_ascii.is_some_and(|c| held & char_bit(c) != 0));
            if let Some(found) = candidates.find_map(|cue| find_spelled(sentence, cue.text, prepared.opening)) {
                return Some(found);
            }
        }
        // ASCII cues match as whole words, ignoring ASCII case (the cues are ASCII; full Unicode
        // lowering pulls its case tables into the wasm, 8 KB gzipped), compared in place at each word
        // start: a summary asks this of every sentence for every kind, so it allocates nothing (the
        // prepared sentence reuses its buffers). A word ends at a CJK character too: Chinese and
        // Japanese write a Latin name between their own characters, with no space
        // ("期刊只接受Vancouver编号", "はAPAで").
        let bytes = sentence.as_bytes();
        for &at in &prepared.word_starts {
            let rest = &bytes[at..];
            let first = rest[0].to_ascii_lowercase() as usize;
            let same_first = &list.by_first[list.starts[first]..list.starts[first + 1]];
            let found = same_first.iter().map(|&i| list.cues[i].text).find(|cue| {
                // The cues are lower case and begin with `first` (a non-ASCII cue's first byte is no ASCII letter).
                rest.len() >= cue.len()
                    && rest[..cue.len()].eq_ignore_ascii_case(cue.as_bytes())
                    // The matched bytes are the cue's, so `at + cue.len()` is a character boundary.
                    && sentence[at + cue.len()..].chars().next().is_none_or(|next| !continues_word(next))
            });
            if let Some(cue) = found {
                return Some((at, at + cue.len()));
            }
        }
        None
    })
}

/// Where non-ASCII `cue` is in `sentence`. CJK, Hangul, Arabic and Indic cues have no word
/// boundaries to ask (Arabic joins "and" and "the" to its words, Korean cues are endings): a substring
/// is a match. A cue of a cased alphabet (Latin, Greek, Cyrillic) matches at a word's start, so a
/// stem ("гипотез") takes its endings but "возможно" is not found in "невозможно"; one that opens
/// the sentence matches its capital ("Возможно, …", "Möglicherweise …").
fn find_spelled(sentence: &str, cue: &str, opening: Option<(usize, char)>) -> Option<(usize, usize)> {
    let first = cue.chars().next()?;
    if !(first.is_alphabetic() && (first as u32) < 0x590) {
        return sentence.find(cue).map(|at| (at, at + cue.len()));
    }
    let starts_word = |at: usize| sentence[..at].chars().next_back().is_none_or(|before| !continues_word(before));
    if let Some(at) = sentence.match_indices(cue).map(|(at, _)| at).find(|&at| starts_word(at)) {
        return Some((at, at + cue.len()));
    }
    // `opening`: the sentence's first letter, when it is a capital.
    let (at, capital) = opening?;
    let rest = &sentence[at + capital.len_utf8()..];
    let spelled = crate::text::fold_char(capital) == first && rest.starts_with(&cue[first.len_utf8()..]);
    spelled.then(|| (at, at + capital.len_utf8() + cue.len() - first.len_utf8()))
}

/// One of 64 bits for a character (a set of characters in a `u64`; two may share a bit).
fn char_bit(c: char) -> u64 {
    1 << (c as u32 % 64)
}

/// A character that goes on the word before it, for whole-word cues: a letter or digit of a script
/// that puts spaces between its words.
fn continues_word(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Rule `requirement-cues-outrank-questions`: a sentence with an explicit requirement cue is a
/// constraint; one with only a soft cue is a constraint unless it is a question.
fn is_constraint(sentence: &str) -> bool {
    if has_cue(sentence, &REQUIREMENT_CUES) {
        return true;
    }
    has_cue(sentence, &SOFT_CONSTRAINT_CUES) && !is_question(sentence)
}

fn is_question(sentence: &str) -> bool {
    let trimmed = sentence.trim_end();
    if trimmed.ends_with(['?', '？', '؟', '吗']) {
        return true;
    }
    // "What I'm after, really, is X." opens like a question and ends like a statement.
    if trimmed.ends_with(['.', '。', '!', '！', '।']) {
        return false;
    }
    let first: String = trimmed.chars().take_while(|c| c.is_alphabetic()).collect::<String>().to_ascii_lowercase(); // the openers are ASCII words
    QUESTION_OPENERS.contains(&first.as_str())
}

/// Rule `state-is-a-sentence`: a table row (cells between bars, tabs) or an acknowledgement is
/// never filed as state, whatever words it holds.
fn is_state_sentence(sentence: &str) -> bool {
    // A CJK character carries about a word: it counts three.
    let weight: usize = sentence.chars().map(|c| if (c as u32) >= 0x2E80 { 3 } else { 1 }).sum();
    weight >= MIN_STATE_CHARS && sentence.matches('|').count() < 2 && !sentence.contains('\t')
}

/// Rule `labelled-is-state`: a sentence that opens with a short label and a colon ("Still open:",
/// "Checked:", "Hypothesis:") is state the writer marked as such, whatever the label's words.
fn is_labelled(sentence: &str) -> bool {
    let Some((label, rest)) = sentence.split_once([':', '：']) else { return false };
    let words = label.split_whitespace().count();
    (1..=4).contains(&words) && label.chars().count() <= 32 && rest.trim().chars().count() >= MIN_STATE_CHARS && !label.contains(char::is_numeric)
}

fn is_deadline(sentence: &str) -> bool {
    has_cue(sentence, &DEADLINE_CUES) && (sentence.chars().any(|c| c.is_ascii_digit()) || has_cue(sentence, &MONTH_CUES) || has_cue(sentence, &DATE_CUES))
}

/// Whether one or two ASCII digits are a number from 1 to `most` (a day: 31, a month: 12).
fn day_or_month(digits: &[u8], most: u32) -> bool {
    (1..=2).contains(&digits.len()) && (1..=most).contains(&digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
}

/// Whether a sentence names a calendar day, in the forms that say so without a word list of every
/// language: a day and month in digits ("12/5", "12.05", "12.5.", "2026-05-12"; not a page range
/// "12-15" or a decimal "3.5"), a day beside an English month name ("the 12th of May"), or a day
/// before 日 or a month before 月.
fn names_a_date(sentence: &str) -> bool {
    let bytes = sentence.as_bytes();
    let digits_at = |at: usize| bytes.get(at..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
    let mut at = 0;
    while at < bytes.len() {
        let len = digits_at(at);
        if len == 0 || at > 0 && (bytes[at - 1].is_ascii_digit() || bytes[at - 1] == b'.') {
            at += len.max(1);
            continue;
        }
        let next = at + len + 1;
        let second = digits_at(next);
        let month = day_or_month(bytes.get(next..next + second).unwrap_or_default(), 12);
        let day = day_or_month(&bytes[at..at + len], 31);
        let after = bytes.get(next + second).copied();
        let dated = match bytes.get(at + len) {
            Some(b'-') if month => len == 4 && after == Some(b'-'),
            Some(b'/') if month => day,
            // "12.05" (a padded month) or "12.5." (a month closed by its dot), not "3.5".
            Some(b'.') if month => day && (second == 2 || after == Some(b'.')),
            // A month before 月 (월), a day before 日 (일).
            _ => sentence[at + len..].starts_with(['月', '월']) || day && sentence[at + len..].starts_with(['日', '일']),
        };
        if dated {
            return true;
        }
        at += len;
    }
    // A day beside a month's name ("the 12th of May", "4 June", "May 12", "12 de mayo", "4 сентября",
    // "٢٣ مارس": Arabic-Indic digits too).
    if !sentence.chars().any(|c| c.is_ascii_digit() || arabic_indic_digit(c).is_some()) {
        return false;
    }
    let is_day = |word: &str| {
        // Its digits as ASCII, three at most: a day has two, and a longer number is none.
        let (mut digits, mut count) = ([0u8; 3], 0);
        for digit in word.chars().map_while(|c| c.to_digit(10).or_else(|| arabic_indic_digit(c))).take(3) {
            digits[count] = b'0' + digit as u8;
            count += 1;
        }
        // An ordinal's letters or a comma may follow ("12th", "12,").
        day_or_month(&digits[..count], 31) && word.chars().count() - count <= 3
    };
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let month = |at: usize| words.get(at).is_some_and(|w| has_cue(w, &MONTH_CUES));
    (0..words.len()).any(|at| {
        is_day(words[at]) && (month(at + 1) || matches!(words.get(at + 1), Some(&"of" | &"de")) && month(at + 2) || at > 0 && month(at - 1))
    })
}

/// The value of an Arabic-Indic digit (٠-٩, and the Persian forms ۰-۹).
fn arabic_indic_digit(c: char) -> Option<u32> {
    match c {
        '\u{660}'..='\u{669}' => Some(c as u32 - 0x660),
        '\u{6F0}'..='\u{6F9}' => Some(c as u32 - 0x6F0),
        _ => None,
    }
}

/// What the fold's ledger knows, for the user's sentences: the keys (`named_keys`) and the items.
struct Known<'a> {
    keys: std::collections::HashSet<&'a str>,
    ledger: &'a ResourceLedger,
}

/// Whether `sentence` names items of `ledger`: two capitalized words of their titles (a case's party,
/// a book's subject), as researchers name what they ask about. A capital is where a name is told from
/// a word of the topic ("liability" is in many titles). One such word is not enough: a journal whose
/// own style the user takes up ("the Annales du Midi's protocol, with footnotes") may share a word
/// with a title in the library.
fn names_items(sentence: &str, ledger: &ResourceLedger) -> bool {
    let mut capitalized = String::new();
    for word in sentence.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().next().is_some_and(char::is_uppercase)) {
        capitalized.push_str(word);
        capitalized.push(' ');
    }
    let names = content_tokens(&capitalized);
    let mut titles = String::new();
    if names.0.len() >= 2 {
        for label in ledger.entries.iter().filter(|e| e.kind == LedgerKind::Item).filter_map(|e| e.label.as_deref()) {
            titles.push_str(label);
            titles.push('\n');
        }
    }
    shared_count(&content_tokens(&titles).0, &names.0) >= 2
}

/// Words of `text` shaped like Zotero keys: 8 characters of the key alphabet (no 0, 1 or O), with a
/// digit or known to the ledger ("DEADLINE" is a word, "ABCD2345" a key).
fn named_keys(text: &str, known: &std::collections::HashSet<&str>) -> Vec<String> {
    crate::zotero::key_words(text)
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || known.contains(w))
        .map(str::to_string)
        .collect()
}

/// What a summary line is: it decides the line's trim order and whether a newer line replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// Ledger lines under Key Zotero Resources (the checkpoint keeps the whole ledger).
    Resource,
    /// Tool results: what was found (the ledger keeps every key).
    Finding,
    /// Tool call counts, the latest answer, what is active.
    Progress,
    /// The coverage notes and earlier context.
    Context,
    /// The user's other questions, verbatim, within their share of the budget.
    UserWords,
    Hypothesis,
    /// The last sentence of an assistant's answer that no kind files: where an answer states what it
    /// concluded (a decision, a failed route, what comes next), in any language.
    Concluded,
    /// A sentence the assistant labelled ("Still open: ...", "Checked: ...") that no kind files.
    Noted,
    Task,
    Decision,
    /// The user's other statements (not questions), verbatim: instructions no cue list knows.
    UserStatement,
    Failed,
    Constraint,
    Designation,
    /// Citation style and deadline: one of each, the newest.
    Current,
    Goal,
    /// What the text is and what was left out: never trimmed.
    Note,
}

/// Kinds of which only the newest line stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Singleton {
    Style,
    Deadline,
    LatestAnswer,
    LatestRequest,
}

#[derive(Debug, Clone)]
struct Line {
    section: usize,
    tier: Tier,
    singleton: Option<Singleton>,
    text: String,
    /// The content tokens of the body, computed once: every new sentence is compared with the lines.
    subject: std::cell::OnceCell<Subject>,
    /// The history message (1-based) whose sentence wrote the line; 0 when carried or not a message's.
    message: usize,
}

impl Line {
    fn new(section: usize, tier: Tier, singleton: Option<Singleton>, text: String) -> Line {
        Line { section, tier, singleton, text, subject: std::cell::OnceCell::new(), message: 0 }
    }

    fn subject(&self) -> &Subject {
        self.subject.get_or_init(|| content_tokens(line_body(&self.text)))
    }

    /// A verdict that settled a hypothesis (rule `a-verdict-settles-its-idea`): closed, it stays
    /// closed (rule `closed-stays-closed`), and a newer idea on its subject is news of its own.
    fn is_settled(&self) -> bool {
        self.text.starts_with("- (inferred, settled)") || self.text.starts_with("- (user, settled)")
    }
}

const GOAL: usize = 0;
const CONSTRAINTS: usize = 1;
const PROGRESS: usize = 2;
const FINDINGS: usize = 3;
const RESOURCES: usize = 4;
const DECISIONS: usize = 5;
const NEXT_STEPS: usize = 6;
const CONTEXT: usize = 7;

/// The marks that name a carried line's kind (the line stays in the section it was in).
const MARKS: [(&str, Tier, Option<Singleton>); 19] = [
    ("- (inferred, noted)", Tier::Noted, None),
    ("- (inferred, concluded)", Tier::Concluded, None),
    ("- (user, stated)", Tier::UserStatement, None),
    ("- (user, style)", Tier::Current, Some(Singleton::Style)),
    ("- (user, deadline)", Tier::Current, Some(Singleton::Deadline)),
    ("- (user, key)", Tier::Designation, None),
    ("- (user, correction)", Tier::Constraint, None),
    ("- (user, open task)", Tier::Task, None),
    ("- (user, verbatim)", Tier::UserWords, None),
    ("- (tool, failed)", Tier::Failed, None),
    ("- (inferred, failed)", Tier::Failed, None),
    ("- (inferred, decision)", Tier::Decision, None),
    ("- (inferred, open task)", Tier::Task, None),
    ("- (inferred, hypothesis", Tier::Hypothesis, None),
    ("- (inferred, settled)", Tier::Hypothesis, None),
    ("- (user, settled)", Tier::Hypothesis, None),
    ("- (inferred) Latest assistant answer", Tier::Progress, Some(Singleton::LatestAnswer)),
    ("- (user) Open request", Tier::Progress, Some(Singleton::LatestRequest)),
    ("- (user) Latest request", Tier::Progress, Some(Singleton::LatestRequest)),
];

/// The tier of an unmarked line by its section (a model's summary, or a plain `(user)` line).
fn section_tier(section: usize) -> Tier {
    match section {
        GOAL => Tier::Goal,
        CONSTRAINTS => Tier::Constraint,
        PROGRESS => Tier::Progress,
        FINDINGS => Tier::Finding,
        RESOURCES => Tier::Resource,
        DECISIONS => Tier::Decision,
        NEXT_STEPS => Tier::Task,
        _ => Tier::Context,
    }
}

/// The previous summary's lines, each in its section with the tier its mark gives.
fn previous_lines(summary: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current: Option<usize> = None;
    for line in summary.lines() {
        if let Some(section) = heading_section(line) {
            current = Some(section);
            continue;
        }
        let text = line.trim_end();
        let trimmed = text.trim();
        // Notes are written again; the coverage lines of earlier versions ("- Summarized N messages") are not state.
        let is_note = trimmed.contains("extractive summarizer")
            || trimmed.starts_with("- Left out")
            || trimmed.starts_with(LEDGER_POINTER)
            || trimmed.starts_with("- Summarized ");
        let Some(section) = current else { continue };
        if trimmed.is_empty() || trimmed == "None." || is_note || section == RESOURCES {
            continue; // the resource list is rebuilt from the ledger
        }
        let text = if heading_section(trimmed).is_some() { format!("- {trimmed}") } else { text.to_string() };
        let marked = MARKS.iter().find(|(mark, ..)| trimmed.starts_with(mark));
        let line = match marked {
            Some(&(_, tier, singleton)) => Line::new(section, tier, singleton, text),
            None => Line::new(section, section_tier(section), None, text),
        };
        lines.push(line);
    }
    // Findings, progress and context keep their newest lines; the rest carries over whole.
    let mut kept_per_section = [[0usize; 3]; SECTIONS.len()];
    let mut keep = vec![true; lines.len()];
    for (at, line) in lines.iter().enumerate().rev() {
        let slot = match line.tier {
            Tier::Finding => 0,
            Tier::Progress => 1,
            Tier::Context | Tier::Concluded => 2,
            _ => continue,
        };
        let count = &mut kept_per_section[line.section][slot];
        *count += 1;
        keep[at] = *count <= MAX_CARRIED_LINES;
    }
    lines.into_iter().zip(keep).filter(|(_, k)| *k).map(|(l, _)| l).collect()
}

/// The summary under construction: lines in order of arrival; a singleton replaces its predecessor.
#[derive(Default)]
struct Draft {
    lines: Vec<Line>,
    /// The user message being filed (1-based), and the first message a retraction may reply to
    /// (the user's previous one): what a retraction that names nothing takes back.
    message: usize,
    reply_from: usize,
}

impl Draft {
    #[inline(never)]
    fn push(&mut self, section: usize, tier: Tier, singleton: Option<Singleton>, text: String) {
        if let Some(kind) = singleton {
            self.lines.retain(|l| l.singleton != Some(kind));
        }
        let mut line = Line::new(section, tier, singleton, text);
        line.message = self.message;
        self.lines.push(line);
    }

    /// Adds a line; rule `newer-replaces-same-subject`: a constraint, decision, task or hypothesis
    /// replaces the earlier lines of its tier about the same thing (`subject::same_subject`), so a
    /// rule reversed twice shows only its newest form.
    #[inline(never)]
    fn add(&mut self, section: usize, tier: Tier, source: &str, text: &str) {
        if matches!(tier, Tier::Constraint | Tier::Decision | Tier::Task | Tier::Hypothesis | Tier::Noted | Tier::Concluded) {
            let tokens = content_tokens(text);
            self.lines.retain(|l| l.tier != tier || l.is_settled() || !same_subject(l.subject(), &tokens));
        }
        self.push(section, tier, None, bullet(source, text));
    }

    /// Rule `later-message-closes`: a sentence no kind files that is about an earlier line of one of
    /// `tiers` (a task done, a hypothesis tested, for the user also a rule changed) replaces it with
    /// itself, marked `(<source>, update)`: a closed task moves to Research Progress. `concludes`:
    /// the sentence ends a paragraph of an answer; `tokens` are its content tokens. `true` when it
    /// closed one.
    #[inline(never)]
    fn close_with(&mut self, sentence: &str, tokens: &Subject, source: &str, tiers: &[Tier], concludes: bool) -> bool {
        // A bit per tier: every sentence scans every line, and a long fold has thousands.
        let wanted = tiers.iter().fold(0u32, |mask, &tier| mask | 1 << tier as u32);
        let mut about: Vec<usize> = (0..self.lines.len())
            .filter(|&i| wanted & 1 << self.lines[i].tier as u32 != 0 && !self.lines[i].is_settled() && same_subject(self.lines[i].subject(), &tokens))
            .collect();
        if about.is_empty() {
            // Rule `names-only-that-line`: a reply in other words shares fewer words, but two that no
            // other line holds name that one assistant line (the user's own lines need `same-subject`,
            // but for an open task: `news-from-either-side` below).
            // Rule `closed-stays-closed`: not a line that closed another (a task done, an idea
            // rejected): a later plan that shares its term ("the subgroup plot") is no news of it.
            // Rule `news-of-an-idea-closes-it`: an open hypothesis or task waits for news, so the
            // assistant's next word on it (a result that settles it, a rejection, a task reported
            // done) replaces it when two tokens name it, however long it is: a Chinese idea has a
            // token per character pair, and the verdict names it by one word ("纯夜班") of them. A
            // hypothesis only by an answer's conclusion (`concludes`): a sentence on the way that
            // names two of its words ("the lazaret files of 1849 are in box 2") is no verdict.
            // Rule `news-from-either-side`: an open task waits for news whoever gives it, so the
            // user's statement ("the comparative table is in the chapter now") names it by two such
            // tokens as an answer's conclusion does, and an answer's conclusion names a task the user
            // set ("your Cassazione collection is ready"). The user's word on an open idea counts so
            // when it denies ("no, the minutes show the merchants had no vote"): a statement that
            // names the idea's court or author without denying it is no verdict.
            let lines = &self.lines;
            let by_assistant = source == "inferred";
            // Read only for the user's sentences: an answer's word on an idea needs no denial.
            let denies = !by_assistant && has_cue(sentence, &NEGATION_CUES);
            let candidate = |i: usize| {
                let line = &lines[i];
                let waits = line.text.starts_with("- (user, open task)")
                    || line.text.starts_with("- (inferred, open task)")
                    || line.text.starts_with("- (inferred, hypothesis") && (by_assistant || denies);
                if wanted & 1 << line.tier as u32 == 0 || line.is_settled() {
                    Candidate::No
                } else if waits && (!by_assistant || concludes) {
                    Candidate::ByTwo
                } else if !line.text.starts_with("- (inferred") || line.text.starts_with("- (inferred, update)") {
                    Candidate::No
                } else if by_assistant && line.tier == Tier::Task {
                    Candidate::ByTwo
                } else {
                    Candidate::ByShare
                }
            };
            about.extend(named_line(&tokens, lines.iter().map(Line::subject), candidate));
        }
        self.replace(&about, sentence, source)
    }

    /// Rule `a-verdict-settles-its-idea`: a sentence that gives a verdict (`VERDICT_CUES`: "doesn't
    /// hold up", "ne tient pas", "성립하지 않") takes the place of the open hypothesis it shares most
    /// words with (none when two share as many): a verdict names its idea in other words ("the
    /// railway explanation"), one word is enough (two in CJK, whose character pairs include endings),
    /// and open ideas are few; the verdict is kept as the idea was, marked `settled`. Rule
    /// `a-task-reported-done-closes-it`: a report that a task is done (`DONE_CUES`: "TERMINEI de
    /// transcrever os ofícios") closes the open task it names so, as `later-message-closes` does.
    /// `true` when it settled one.
    #[inline(never)]
    fn settle(&mut self, sentence: &str, by_user: bool) -> bool {
        let open: fn(&Line) -> bool = if has_cue(sentence, &VERDICT_CUES) {
            |l| l.tier == Tier::Hypothesis && l.text.starts_with("- (inferred, hypothesis")
        } else if has_cue(sentence, &DONE_CUES) {
            |l| l.tier == Tier::Task && (l.text.starts_with("- (user, open task)") || l.text.starts_with("- (inferred, open task)"))
        } else {
            return false;
        };
        let least = if sentence.chars().any(is_cjk) { 2 } else { 1 };
        let Some(at) = self.most_shared(&content_tokens(sentence), least, open) else { return false };
        let source = if by_user { "user" } else { "inferred" };
        if self.lines[at].tier == Tier::Task {
            return self.replace(&[at], sentence, source);
        }
        let section = self.lines.remove(at).section;
        self.push(section, Tier::Hypothesis, None, bullet(&format!("{source}, settled"), sentence));
        true
    }

    /// Replaces the lines at `about` (sorted) with `sentence`, marked `(<source>, update)`, of the
    /// newest one's kind: a closed task moves to Research Progress. `false` when `about` is empty.
    fn replace(&mut self, about: &[usize], sentence: &str, source: &str) -> bool {
        let Some(&newest) = about.last() else { return false };
        let (tier, section) = (self.lines[newest].tier, self.lines[newest].section);
        let section = if tier == Tier::Task { PROGRESS } else { section };
        let mut index = 0;
        self.lines.retain(|_| {
            index += 1;
            !about.contains(&(index - 1))
        });
        self.push(section, tier, None, bullet(&format!("{source}, update"), sentence));
        true
    }

    /// Rule `retraction-closes-the-rule-it-names`: a user sentence that takes back what they said
    /// ("scratch that", "forget what I said about the size", "規模の件は取り消し") closes the user's
    /// rule (constraint, decision or task) it names by the most shared words, the newest of equals;
    /// naming none, the one rule the user's previous message (or this one, before it) stated, and
    /// nothing when that is not one. Its words are looked for where the languages put the thing
    /// taken back: after an English or German cue, before a Japanese or Chinese one (so the polite
    /// ending "ください" names nothing). `true` when it closed a line.
    #[inline(never)]
    fn retract(&mut self, sentence: &str) -> bool {
        let Some((start, end)) = find_cue(sentence, &RETRACTION_CUES) else { return false };
        let named = if sentence[start..end].is_ascii() { &sentence[end..] } else { &sentence[..start] };
        let tokens = content_tokens(named);
        // A character pair can be a grammatical ending: a CJK subject needs two.
        let least = if named.chars().any(is_cjk) { 2 } else { 1 };
        let rule = |l: &Line| matches!(l.tier, Tier::Constraint | Tier::Decision | Tier::Task) && l.text.starts_with("- (user");
        let mut best: (usize, Option<usize>) = (least, None);
        for (at, line) in self.lines.iter().enumerate().filter(|(_, l)| rule(l)) {
            let shared = shared_count(&line.subject().0, &tokens.0);
            if shared >= best.0 {
                best = (shared, Some(at));
            }
        }
        let about = match best.1 {
            Some(at) => vec![at],
            None => {
                let replied: Vec<usize> =
                    (0..self.lines.len()).filter(|&i| rule(&self.lines[i]) && self.lines[i].message >= self.reply_from.max(1)).collect();
                if replied.len() != 1 {
                    return false;
                }
                replied
            }
        };
        self.replace(&about, sentence, "user")
    }

    /// Rule `a-page-put-right-replaces-the-claim`: a user sentence that names a key with a locator
    /// and puts a page right replaces the line that gave that key another locator, of those the one
    /// sharing most words with it (none when two share as many): the claim stays once, at the
    /// user's page. Putting right is a correction word ("koreksi kecil: ... hlm. 12–15 di KEY"), or a
    /// negation and a word of the claim besides the key ("the six-day delay is on pp. 374–375 of KEY,
    /// not where you had it"). Not a designation or the current style or deadline. A sentence naming
    /// two keys does not say whose page it gives ("… drop Walford (KEY1) … Regalian (KEY2) at 230"),
    /// and puts none right. `true` when it replaced one.
    #[inline(never)]
    fn put_page_right(&mut self, sentence: &str, keys: &[String]) -> bool {
        let Some(locator) = (keys.len() == 1).then(|| crate::registers::find_locator(sentence)).flatten() else { return false };
        let least = if has_cue(sentence, &CORRECTION_CUES) {
            1
        } else if has_cue(sentence, &NEGATION_CUES) {
            2
        } else {
            return false;
        };
        let claims = |line: &Line| {
            let body = line_body(&line.text);
            !matches!(line.tier, Tier::Designation | Tier::Current | Tier::Note | Tier::Resource)
                && keys.iter().any(|k| body.contains(k.as_str()))
                && crate::registers::find_locator(body).is_some_and(|other| other != locator)
        };
        let Some(at) = self.most_shared(&content_tokens(sentence), least, claims) else { return false };
        self.replace(&[at], sentence, "user, correction")
    }

    /// Of the lines `about` admits, the one sharing most of `tokens`, at least `least`; none when
    /// two share as many (the sentence names neither).
    fn most_shared(&self, tokens: &Subject, least: usize, about: impl Fn(&Line) -> bool) -> Option<usize> {
        let (mut best, mut tied): (Option<(usize, usize)>, bool) = (None, false);
        for (at, line) in self.lines.iter().enumerate().filter(|(_, l)| about(l)) {
            let shared = shared_count(&line.subject().0, &tokens.0);
            if shared >= least && best.is_none_or(|(most, _)| shared >= most) {
                tied = best.is_some_and(|(most, _)| shared == most);
                best = Some((shared, at));
            }
        }
        best.filter(|_| !tied).map(|(_, at)| at)
    }

    /// A designation replaces the earlier ones whose keys it names again (the newest word on a key,
    /// such as its retraction, is what is shown).
    fn designate(&mut self, sentence: &str, keys: &[String]) {
        let known: std::collections::HashSet<&str> = keys.iter().map(String::as_str).collect();
        self.lines.retain(|l| {
            let named = named_keys(line_body(&l.text), &known);
            l.tier != Tier::Designation || named.is_empty() || !named.iter().all(|k| keys.contains(k))
        });
        self.push(CONSTRAINTS, Tier::Designation, None, bullet("user, key", sentence));
    }

    /// Rule `a-date-said-of-the-deadline-moves-it`: a user sentence that names a date and shares a
    /// word (its digits aside; two character pairs in CJK) with the current deadline says when that
    /// thing is due now, with or without a deadline word ("the draft has to reach her earlier — the
    /// 12th of May at the latest", "il relatore mi ha anticipato la consegna al 12/5").
    /// Rule `a-moved-date-moves-the-deadline`: a user sentence that names a date in a message that says
    /// a date moved (`date_moved`, `MOVED_DATE_CUES`: "Extension granted!! … is now 2026-09-25")
    /// is the newer deadline, whatever words it shares with the old one: the news and the date are
    /// often sentences of their own.
    fn moves_the_deadline(&self, sentence: &str, date_moved: bool) -> bool {
        if !names_a_date(sentence) {
            return false;
        }
        if date_moved {
            return true;
        }
        let Some(deadline) = self.lines.iter().find(|l| l.singleton == Some(Singleton::Deadline)) else { return false };
        // Two dates share their numbers and the calendar's words, not a subject.
        let subject = |text: &str| content_tokens(&text.chars().map(|c| if c.is_ascii_digit() { ' ' } else { c }).collect::<String>());
        let calendar = content_tokens(&[MONTH_CUES.joined, "monday tuesday wednesday thursday friday saturday sunday"].join(" "));
        let shared = subject(line_body(&deadline.text)).0.into_iter().filter(|t| calendar.0.binary_search(t).is_err()).collect::<Vec<_>>();
        let least = if sentence.chars().any(is_cjk) { 2 } else { 1 };
        shared_count(&shared, &subject(sentence).0) >= least
    }

    fn has(&self, tier: Tier) -> bool {
        self.lines.iter().any(|l| l.tier == tier)
    }
}

/// A line's text without its bullet and source mark.
fn line_body(line: &str) -> &str {
    let rest = line.trim_start().trim_start_matches("- ");
    match rest.strip_prefix('(').and_then(|r| r.find(") ").map(|at| &r[at + 2..])) {
        Some(body) => body,
        None => rest,
    }
}

/// A bullet line that can never be read as a section heading.
fn bullet(source: &str, text: &str) -> String {
    let text = crate::text::clip(&crate::text::single_line(text), EXCERPT_MAX_CHARS);
    if source.is_empty() {
        format!("- {text}")
    } else {
        format!("- ({source}) {text}")
    }
}

/// Files one user sentence under the kind it states; `None` when it states none (a question, a
/// request): the caller keeps such words verbatim. `date_moved`: its message says a date moved.
fn user_sentence(draft: &mut Draft, sentence: &str, known: &Known, goal_allowed: bool, date_moved: bool) -> bool {
    let keys = named_keys(sentence, &known.keys);
    if !keys.is_empty() {
        if !draft.put_page_right(sentence, &keys) {
            draft.designate(sentence, &keys);
        }
    } else if names_a_style(sentence, known.ledger) && !is_question(sentence) {
        draft.push(CONSTRAINTS, Tier::Current, Some(Singleton::Style), bullet("user, style", sentence));
    } else if (is_deadline(sentence) || draft.moves_the_deadline(sentence, date_moved)) && !is_question(sentence) {
        draft.push(CONSTRAINTS, Tier::Current, Some(Singleton::Deadline), bullet("user, deadline", sentence));
    } else if draft.retract(sentence) {
    } else if has_cue(sentence, &CORRECTION_CUES) {
        draft.add(CONSTRAINTS, Tier::Constraint, "user, correction", sentence);
    } else if is_constraint(sentence) {
        draft.add(CONSTRAINTS, Tier::Constraint, "user", sentence);
    } else if goal_allowed && has_cue(sentence, &GOAL_CUES) && !is_question(sentence) {
        draft.add(GOAL, Tier::Goal, "user", sentence);
    } else if has_cue(sentence, &DECISION_CUES) {
        draft.add(DECISIONS, Tier::Decision, "user", sentence);
    } else if has_cue(sentence, &TASK_CUES) {
        draft.add(NEXT_STEPS, Tier::Task, "user, open task", sentence);
    } else {
        return false;
    }
    true
}

/// Files one assistant sentence: a hypothesis (always marked so), a failed approach, an open task or
/// a decision; `false` for anything else (the latest answer keeps those).
fn assistant_sentence(draft: &mut Draft, sentence: &str) -> bool {
    if has_cue(sentence, &HYPOTHESIS_CUES) {
        draft.add(FINDINGS, Tier::Hypothesis, "inferred, hypothesis, unverified", sentence);
    } else if has_cue(sentence, &FAILURE_CUES) {
        draft.add(PROGRESS, Tier::Failed, "inferred, failed", sentence);
    } else if has_cue(sentence, &TASK_CUES) {
        draft.add(NEXT_STEPS, Tier::Task, "inferred, open task", sentence);
    } else if has_cue(sentence, &DECISION_CUES) {
        draft.add(DECISIONS, Tier::Decision, "inferred, decision", sentence);
    } else {
        return false;
    }
    true
}

/// Fills the eight sections from the request's previous summary, serialized history and ledger,
/// deterministically and without a model. The text says that it is extractive. The same text as
/// `ExtractiveFold` makes in slices, made in one.
pub fn extractive_summary(request: &super::request::SummaryRequest) -> String {
    ExtractiveFold::new(request).finish(request)
}

/// Where a fold is: the history read up to a byte, each side's messages counted for their frames,
/// the messages filed in the order they were said, up to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Read(usize),
    Frames(usize),
    File(usize),
    Done,
}

/// The extractive summary of one request, made in slices (rule `summarized-in-slices`): each `step`
/// does about as much text as it is given and says whether anything is left, and `finish` writes
/// the summary, the same text however the work was sliced, since every step goes on from where the
/// one before stopped, in the order one piece would take. A page or Zotero's window runs between
/// the steps (`extractiveSummaryInSlices` in the glue), which a long request on a large window held
/// for over 100 ms in one piece. Every call is given the same request.
///
/// The user's words are the spine: every user sentence is filed by the kind it states (goal, style,
/// deadline, designated keys, correction, constraint, decision, task), a newer style or deadline
/// replacing the older, and the rest of each message is kept verbatim within a share of the budget.
/// The assistant's decisions, failures, open tasks and hypotheses (marked as such) are filed too.
/// Everything carries over from the previous summary by its mark.
pub struct ExtractiveFold {
    stage: Stage,
    messages: Vec<HistoryMessage>,
    reading: Reading,
    draft: Draft,
    carried_goal: bool,
    /// The first user message with text (without a carried goal, it gives the goal).
    first_user: Option<usize>,
    /// Rule `said-in-a-frame-is-routine`, within each side's messages of this history.
    user_frames: Frames,
    assistant_frames: Frames,
}

impl ExtractiveFold {
    pub fn new(request: &super::request::SummaryRequest) -> ExtractiveFold {
        let draft = Draft { lines: request.previous_summary.as_deref().map(previous_lines).unwrap_or_default(), ..Draft::default() };
        ExtractiveFold {
            stage: Stage::Read(0),
            messages: Vec::new(),
            reading: Reading::Skipped,
            carried_goal: draft.has(Tier::Goal),
            draft,
            first_user: None,
            user_frames: Frames::default(),
            assistant_frames: Frames::default(),
        }
    }

    /// Goes on with at least `budget` bytes of text (whole messages), or to the end; `true` when
    /// nothing is left but `finish`.
    pub fn step(&mut self, request: &super::request::SummaryRequest, budget: usize) -> bool {
        // At least a message a step, so that every step goes on.
        let budget = budget.max(1);
        let mut done = 0usize;
        while done < budget {
            match self.stage {
                Stage::Read(from) => {
                    let to = read_history(&request.history, from, budget - done, &mut self.messages, &mut self.reading);
                    done += to - from;
                    self.stage = if to < request.history.len() { Stage::Read(to) } else { Stage::Frames(0) };
                    if to == request.history.len() {
                        self.first_user = self.messages.iter().position(|m| m.role == "user" && !m.text.trim().is_empty());
                    }
                }
                Stage::Frames(from) => {
                    let (mut user, mut assistant) = (Vec::new(), Vec::new());
                    let at = self.visit(from, budget, &mut done, |fold, at| {
                        let message = &fold.messages[at];
                        match message.role.as_str() {
                            "user" => user.push(content_tokens(&message.text)),
                            "assistant" => assistant.push(content_tokens(&message.text)),
                            _ => {}
                        }
                    });
                    self.user_frames.add(&user);
                    self.assistant_frames.add(&assistant);
                    self.stage = if at < self.messages.len() { Stage::Frames(at) } else { Stage::File(0) };
                }
                Stage::File(from) => {
                    // In the order they were said: a later message closes an earlier line of either
                    // side (the user's "the table is in the chapter now" closes the answer's plan).
                    let known = Known { keys: request.ledger.keys().collect(), ledger: &request.ledger };
                    let at = self.visit(from, budget, &mut done, |fold, at| match fold.messages[at].role.as_str() {
                        "user" => fold.file_user_message(at, &known),
                        "assistant" => fold.file_assistant_message(at),
                        _ => {}
                    });
                    self.stage = if at < self.messages.len() { Stage::File(at) } else { Stage::Done };
                }
                Stage::Done => return true,
            }
        }
        self.stage == Stage::Done
    }

    /// `visit`s the messages from `from` while `done` is under `budget`, counting each message and
    /// its text; answers where it stopped.
    fn visit(&mut self, from: usize, budget: usize, done: &mut usize, mut visit: impl FnMut(&mut Self, usize)) -> usize {
        let mut at = from;
        while at < self.messages.len() && *done < budget {
            visit(self, at);
            *done += self.messages[at].text.len() + 1;
            at += 1;
        }
        at
    }

    /// A user message: each sentence filed by the kind it states; the first one (without a carried
    /// goal) gives the goal from what it says besides its other statements.
    fn file_user_message(&mut self, at: usize, known: &Known) {
        let draft = &mut self.draft;
        let text = &self.messages[at].text;
        let is_first = Some(at) == self.first_user && !self.carried_goal;
        draft.reply_from = if draft.message == 0 { at + 1 } else { draft.message };
        draft.message = at + 1;
        let mut unfiled = Vec::new();
        let date_moved = has_cue(text, &MOVED_DATE_CUES);
        // A retraction is state however short ("scratch that", "不要了").
        for sentence in sentences(text).into_iter().filter(|s| is_state_sentence(s) || has_cue(s, &RETRACTION_CUES)) {
            if !user_sentence(draft, &sentence, known, !is_first, date_moved) {
                unfiled.push(sentence);
            }
        }
        if is_first {
            // The first message's statements are the goal (its questions are in the user's words).
            let statements: Vec<String> = unfiled.iter().filter(|s| !is_question(s)).cloned().collect();
            let goal = if statements.is_empty() { crate::text::single_line(text) } else { statements.join(" ") };
            draft.add(GOAL, Tier::Goal, "user", &goal);
            return;
        }
        // The rest is in the user's words, which the checkpoint carries by code beside the summary;
        // a statement here may still close or change an earlier line.
        for sentence in unfiled.iter().filter(|s| !is_question(s)) {
            if draft.settle(sentence, true) {
                continue;
            }
            // A request in the frame of many ("find what I have on «X»") changes no rule that
            // shares its topic words.
            let tokens = content_tokens(sentence);
            if !self.user_frames.is_routine(&tokens) {
                draft.close_with(sentence, &tokens, "user", &[Tier::Task, Tier::Hypothesis, Tier::Constraint, Tier::Decision, Tier::Concluded], false);
            }
        }
    }

    /// An assistant message: decisions, failures, tasks, hypotheses, and what it closes (the answers
    /// themselves are not state: the verbatim tail keeps the newest, the cited pages their findings).
    fn file_assistant_message(&mut self, at: usize) {
        let draft = &mut self.draft;
        let text = &self.messages[at].text;
        if text.trim().is_empty() {
            return;
        }
        // Each sentence, and whether it ends its paragraph (or list item, a line of its own).
        let mut said: Vec<String> = Vec::new();
        let mut ends_paragraph = Vec::new();
        for line in text.lines() {
            let start = said.len();
            said.extend(sentences(line).into_iter().filter(|s| is_state_sentence(s)));
            // Rule `a-sign-off-concludes-nothing`: a paragraph that ends in the frame of many answers
            // ("Tell me if you need more", "Mogę pogłębić każdy z tych punktów") ends with its
            // conclusion just before.
            let mut end = said.len();
            while end > start + 1 && self.assistant_frames.is_routine(&content_tokens(&said[end - 1])) {
                end -= 1;
            }
            ends_paragraph.push(end.wrapping_sub(1));
        }
        // Rule `each-paragraph-ends-with-its-conclusion`: the last sentences of the answer's last two
        // paragraphs (an answer that makes two points puts each in its own), never its opening line
        // (a formula: "I read the paper.") unless it is all the answer says.
        let mut concluding: Vec<usize> = ends_paragraph.into_iter().filter(|&at| at < said.len() && (at > 0 || said.len() == 1)).collect();
        concluding.dedup();
        let concluding = &concluding[concluding.len().saturating_sub(2)..];
        for (at, sentence) in said.iter().enumerate() {
            // Rule `said-again-is-a-formula`: a sentence the summary already holds word for word
            // ("Here is the next paper.") closes and concludes nothing, and the line that holds it
            // moves to the front, the first a budget leaves out: a formula is said again, a conclusion
            // once.
            if let Some(held) = draft.lines.iter().position(|l| l.text.ends_with(sentence.as_str()) && line_body(&l.text) == sentence) {
                if matches!(draft.lines[held].tier, Tier::Concluded | Tier::Noted) {
                    let line = draft.lines.remove(held);
                    draft.lines.insert(0, line);
                }
                continue;
            }
            if draft.settle(sentence, false) || assistant_sentence(draft, sentence) {
                continue;
            }
            // A sentence in the frame of many answers ("Found 3 records; the first is Y", "Tell me if
            // you need more") concludes and closes nothing: only its cue files it.
            let tokens = content_tokens(sentence);
            if self.assistant_frames.is_routine(&tokens)
                || draft.close_with(sentence, &tokens, "inferred", &[Tier::Task, Tier::Hypothesis, Tier::Noted, Tier::Concluded], concluding.contains(&at))
            {
                continue;
            }
            if is_labelled(sentence) {
                draft.add(CONTEXT, Tier::Noted, "inferred, noted", sentence);
            } else if concluding.contains(&at) && !is_question(sentence) && !sentence.ends_with([':', '：']) {
                // Rule `answer-ends-with-its-conclusion`: by its place, not its words.
                draft.add(PROGRESS, Tier::Concluded, "inferred, concluded", sentence);
            }
        }
    }

    /// The summary: what is left of the history filed, then the tool blocks, the open request, the
    /// resources the state names and the note, within the request's budget.
    pub fn finish(mut self, request: &super::request::SummaryRequest) -> String {
        while !self.step(request, usize::MAX) {}
        let (messages, mut draft) = (self.messages, self.draft);
        // Progress, findings, failures, approvals: from the tool blocks.
        // Tool call counts are not research state: lines of them carried from earlier versions go.
        draft.lines.retain(|l| !l.text.starts_with("- (tool) Completed tool calls"));
        for block in messages.iter().flat_map(|m| &m.tools) {
            let name = block.name.as_str();
            let content = || crate::text::single_line(&block.content);
            match block.status.as_str() {
                "error" => {
                    // A tool that fails again replaces its earlier line: the latest error says what
                    // not to repeat, and a flaky tool does not fill the budget with its history.
                    let error = crate::text::clip(&content(), ERROR_MAX_CHARS);
                    let opening = format!("- (tool, failed) Blocked: {name} failed:");
                    draft.lines.retain(|l| !l.text.starts_with(&opening));
                    draft.add(PROGRESS, Tier::Failed, "tool, failed", &format!("Blocked: {name} failed: {error}"));
                }
                "denied by the user" => draft.add(DECISIONS, Tier::Decision, "user", &format!("Denied the tool call {name}. {}", content())),
                "approval refused" => draft.add(DECISIONS, Tier::Decision, "user", &format!("Refused approval for {name}. {}", content())),
                "awaiting approval" => draft.add(PROGRESS, Tier::Progress, "", &format!("Active: {name} awaits the user's approval")),
                "interrupted, no result" => draft.add(PROGRESS, Tier::Progress, "", &format!("Interrupted: {name} ended without a result")),
                // What a result returned is not copied: the ledger keeps every Zotero object, the
                // cited pages what was found where, the verbatim tail the newest results.
                _ => {}
            }
        }
        // An answered request is not state; the previous one goes (the user's words keep it).
        draft.lines.retain(|l| l.singleton != Some(Singleton::LatestRequest) && l.singleton != Some(Singleton::LatestAnswer));
        // Next Steps: the latest user request when nothing answered it.
        if let Some(at) = messages.iter().rposition(|m| m.role == "user") {
            if !messages[at + 1..].iter().any(|m| m.role == "assistant") {
                let text = &messages[at].text;
                draft.push(NEXT_STEPS, Tier::Progress, Some(Singleton::LatestRequest), bullet("user", &format!("Open request (not yet answered): {text}")));
            }
        }

        // Key Zotero Resources: the ledger entries the state names (the checkpoint keeps and projects
        // the whole ledger beside the summary), and a line saying where the rest is.
        let named: String = draft.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n");
        for entry in request.ledger.entries.iter().filter(|e| !e.key.is_empty() && named.contains(e.key.split('#').next().unwrap_or(&e.key))) {
            let mut line = String::new();
            crate::ledger::render_line(&mut line, entry);
            draft.push(RESOURCES, Tier::Resource, None, line.trim_end().to_string());
        }
        // The rest is projected beside the summary from the checkpoint's ledger: no line here for it.

        // Critical Context: what this text is, and what it covers.
        draft.push(
            CONTEXT,
            Tier::Note,
            None,
            "- Written by the embedded extractive summarizer (no model): sentences copied from the history, not \
interpreted; (inferred) marks the assistant's text."
                .to_string(),
        );

        let mut seen = std::collections::HashSet::new();
        draft.lines.retain(|l| seen.insert(crate::text::tuple_key(&[&l.section.to_string(), l.text.trim()])));
        fit_budget(&mut draft.lines, request.max_output_tokens);
        render_lines(&draft.lines)
    }
}

/// Rule `extractive-within-budget`: like a model's answer, the extractive summary stays within the
/// request's `maxOutputTokens`, which the plan counts on for the projection after the compaction.
/// Rule `user-state-trimmed-last`: lines are left out by tier, lowest first: the resource list (the
/// checkpoint keeps the whole ledger), tool findings, progress, context, the user's other questions,
/// hypotheses, tasks, decisions, the user's other statements, failed approaches, constraints, designated keys, the current style
/// and deadline and, last, the goal. Inside a tier the oldest go first, except constraints and goal,
/// whose newest go first (the first ones are what everything since builds on). The note saying what
/// the text is, and how many lines were left out, stays.
fn fit_budget(lines: &mut Vec<Line>, budget: u64) {
    let mut left_out = 0usize;
    // Rule `conclusions-leave-the-users-room`: the answers' concluded lines take at most a third of the
    // budget, the oldest left out first: on a small window the room goes to the user's words and
    // the cited pages (`registers-take-unused-summary`), which nothing else can give back, where an
    // older conclusion can be read again (the recall tool) or stated again.
    while let Some(at) = lines.iter().position(|l| l.tier == Tier::Concluded) {
        let taken: u64 = lines.iter().filter(|l| l.tier == Tier::Concluded).map(|l| crate::tokens::estimate_text(&l.text)).sum();
        if taken <= budget / CONCLUDED_SHARE {
            break;
        }
        lines.remove(at);
        left_out += 1;
    }
    if left_out > 0 {
        lines.push(Line::new(CONTEXT, Tier::Note, None, left_out_note(left_out, budget)));
    }
    loop {
        let tokens = crate::tokens::estimate_text(&render_lines(lines));
        if tokens <= budget {
            break;
        }
        // The resource list is trimmed first; say where it is instead of leaving the section "None.".
        let resources = lines.iter().filter(|l| l.tier == Tier::Resource).count();
        if resources > 0 && !lines.iter().any(|l| l.text.starts_with(LEDGER_POINTER)) {
            let at = lines.iter().position(|l| l.tier == Tier::Resource).unwrap_or(lines.len());
            let text = format!("{LEDGER_POINTER} ({resources} entries) is kept with this checkpoint.");
            lines.insert(at, Line::new(RESOURCES, Tier::Note, None, text));
        }
        let mut excess = tokens - budget;
        let mut removed = false;
        // One tier per pass, then measure again: the lines' own estimates need not add up to the
        // text's, and a pass that went on would take the next tier for the last one's shortfall.
        let lowest = lines.iter().map(|l| l.tier).filter(|&t| t != Tier::Note).min();
        while excess > 0 {
            let Some(tier) = lowest else { break };
            let newest_first = matches!(tier, Tier::Constraint | Tier::Goal);
            let found = if newest_first {
                lines.iter().rposition(|l| l.tier == tier)
            } else {
                lines.iter().position(|l| l.tier == tier)
            };
            let Some(at) = found else { break };
            let line = lines.remove(at);
            excess = excess.saturating_sub(crate::tokens::estimate_text(&line.text).max(1));
            left_out += 1;
            removed = true;
        }
        let note = left_out_note(left_out, budget);
        match lines.iter_mut().find(|l| l.text.starts_with("- Left out")) {
            Some(line) => line.text = note,
            None if left_out > 0 => lines.push(Line::new(CONTEXT, Tier::Note, None, note)),
            None => {}
        }
        if !removed {
            break; // only the headings and notes are left
        }
    }
}

/// Opens the line that stands for the trimmed resource list.
const LEDGER_POINTER: &str = "- The exact Zotero resource ledger";

fn left_out_note(lines: usize, budget: u64) -> String {
    format!("- Left out {lines} lines to fit the summary budget of {budget} tokens.")
}

fn render_lines(lines: &[Line]) -> String {
    let mut out = String::new();
    for (index, name) in SECTIONS.iter().enumerate() {
        out.push_str("## ");
        out.push_str(name);
        out.push('\n');
        let mut any = false;
        for line in lines.iter().filter(|l| l.section == index) {
            out.push_str(&line.text);
            out.push('\n');
            any = true;
        }
        if !any {
            out.push_str("None.\n");
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `has_cue` compares a sentence's bytes with a cue's in place, ignoring ASCII case: that holds
    /// for cues in lower case (one that opens with an ASCII letter, "có lẽ", is also a whole word).
    #[test]
    fn every_cue_is_lower_case() {
        let lists: [&Cues; 18] = [
            &REQUIREMENT_CUES, &SOFT_CONSTRAINT_CUES, &GOAL_CUES, &DECISION_CUES, &STYLE_CUES, &NOTE_STYLE_CUES, &DEADLINE_CUES, &MONTH_CUES, &DATE_CUES,
            &MOVED_DATE_CUES, &CORRECTION_CUES, &TASK_CUES, &FAILURE_CUES, &HYPOTHESIS_CUES, &NEGATION_CUES, &VERDICT_CUES, &DONE_CUES,
            &RETRACTION_CUES,
        ];
        for cue in lists.iter().flat_map(|l| l.list().cues.iter().map(|cue| &cue.text)).chain(QUESTION_OPENERS.iter()) {
            assert_eq!(cue.to_lowercase(), *cue, "{cue}");
            assert!(!cue.is_empty(), "an empty cue, or one with the separator `|` in it");
        }
    }

    #[test]
    fn cues_match_whole_words_in_any_ascii_case() {
        assert!(has_cue("We MUST keep the page labels.", &REQUIREMENT_CUES));
        assert!(has_cue("Only peer-reviewed", &REQUIREMENT_CUES));
        assert!(has_cue("keep it short, at least.", &REQUIREMENT_CUES));
        assert!(!has_cue("The mustard study is one.", &REQUIREMENT_CUES));
        assert!(!has_cue("A commonly cited paper.", &REQUIREMENT_CUES), "'only' inside a word");
        assert!(has_cue("Café: we decided to go with APA.", &DECISION_CUES), "after a non-ASCII word");
        assert!(has_cue("引用格式用APA", &STYLE_CUES));
        assert!(!has_cue("Ｍust", &REQUIREMENT_CUES), "a full-width letter is not ASCII");
        assert!(has_cue("Có lẽ hiệu quả lớn hơn.", &HYPOTHESIS_CUES), "a cue outside ASCII that opens with an ASCII letter, capitalized");
        assert!(has_cue("Der Effekt ist möglicherweise größer.", &HYPOTHESIS_CUES));
        assert!(!has_cue("Die Wahrscheinlichkeit ist klein.", &HYPOTHESIS_CUES), "an ASCII cue inside a word");
    }

    /// A cue of a cased alphabet matches at a word's start, a stem with its endings, and the capital
    /// that opens a sentence; an Arabic cue inside the word its conjunction joins.
    #[test]
    fn a_long_number_beside_a_month_is_no_day() {
        assert!(names_a_date("due on 12 May") && names_a_date("к 4 сентября") && names_a_date("١٢ مايو"));
        // Found by the fuzzer: the day's value overflowed on a long run of digits.
        assert!(!names_a_date("due on 123456789012345678901234567890 May"));
        assert!(!names_a_date("due on 123 May"));
    }

    #[test]
    fn cues_of_cased_alphabets_match_at_a_word_start() {
        assert!(has_cue("Возможно, эффект связан с сезоном.", &HYPOTHESIS_CUES), "a capital that opens the sentence");
        assert!(has_cue("Möglicherweise ist der Effekt größer.", &HYPOTHESIS_CUES));
        assert!(has_cue("Эту гипотезу опровергли данные за 1998 год.", &VERDICT_CUES), "a stem with its ending");
        assert!(!has_cue("Это невозможно проверить по архиву.", &HYPOTHESIS_CUES), "a cue inside a word");
        assert!(!has_cue("Это невозможно проверить по архиву.", &NEGATION_CUES), "'не' opens no word here");
        assert!(has_cue("Страница указана не та.", &NEGATION_CUES));
        assert!(has_cue("وفشل البحث في الأرشيف", &FAILURE_CUES), "Arabic joins 'and' to the word");
        assert!(has_cue("사용하기로 했습니다", &DECISION_CUES), "a Korean ending inside its word");
    }
}
