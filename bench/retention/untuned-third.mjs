// Issue 40, a third held-out corpus: written without reading the rules, the controller docs or the
// other corpora's sentences, and not to be run while changing the rules. Topic: microplastics in the
// guts of freshwater fish (a PhD review: feeding guild, particle load, gut damage). Languages: en, de,
// zh, ja, vi and 'mixed', a francophone user who switches between French and English inside one
// message (the assistant answers that user in English). Users write in lowercase chat with typos, put
// several statements in one message, state requirements without cue words and later replace them in
// other words; the deadline and the reference format change twice; three Zotero keys are made central
// and two of them are withdrawn later. Tool shapes: a Zotero Web API item array
// ({ key, version, library, links, meta, data }), a PDF full-text tool answering
// { itemKey, pages: [{ pageLabel, text }] } with pages of about 15% of the window per turn, annotations
// as Zotero annotation objects (annotationText, annotationComment, annotationPageLabel, parentItem),
// child notes through a `dynamic-tool` part (note HTML), failing tools answering
// { isError: true, content: [...] } and `output-error` parts with errorText, plus step-start and
// reasoning parts. Same fact kinds and fact record as untuned-heldout.mjs; tags look like `«AB3D»`.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'de', 'zh', 'ja', 'vi', 'mixed'];
const TAG_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ3479';

// ---------------------------------------------------------------------------------------------------
// What the user says. {t} is the tag, {x} a date, {k} a Zotero key.
const U = {
  goal: {
    en: 'hi! so im writing a review for my phd on microplastics in freshwater fish. what i actually want to know {t}: does what a fish eats (its feeding guild) change how many particles end up in its gut, and does a bigger load go along with gut damage? the library is already in zotero',
    de: 'hallo! ich schreib für die diss ein review zu mikroplastik in süßwasserfischen. was mich eigentlich interessiert {t}: hängt die partikelmenge im darm davon ab, wie sich der fisch ernährt (räuber, allesfresser, filtrierer), und geht mehr plastik mit schäden am darm einher? die literatur ist schon in zotero',
    zh: '你好～我在写博士综述，题目是淡水鱼体内的微塑料。我真正想弄清楚的是{t}：鱼的食性（肉食、杂食、滤食）会不会影响肠道里的颗粒数量，颗粒多是不是就伴随肠道组织损伤。文献都已经在zotero里了',
    ja: 'こんにちは。博士論文のレビューで淡水魚のマイクロプラスチックを扱っています。知りたいのは、食性（魚食・雑食・濾過食）によって消化管内の粒子数が変わるのか、そして粒子が多い魚ほど腸の組織に傷みが出ているのか、ということです{t}。文献はZoteroに入れてあります',
    vi: 'chào bạn, mình đang viết bài tổng quan cho luận án tiến sĩ về vi nhựa trong cá nước ngọt. điều mình thực sự muốn biết {t}: tập tính ăn của cá (ăn thịt, ăn tạp, ăn lọc) có làm số hạt trong ruột khác nhau không, và cá nhiều hạt hơn thì ruột có bị tổn thương hơn không. tài liệu để hết trong zotero rồi',
    mixed: "salut! so je fais une review pour ma thèse sur les microplastics chez les poissons d'eau douce. ce que je veux savoir {t}: est-ce que le feeding guild change combien de particles finissent dans le gut, et est-ce qu'une charge plus élevée va avec des lésions intestinales? tout est déjà dans zotero",
  },
  wildOnly: {
    en: 'fyi my committee only cares about fish that were actually caught out there, tank feeding experiments dont count {t}',
    de: 'nur fische, die wirklich draußen im gewässer gefangen wurden {t} – fütterungsversuche im aquarium zählen für mein komitee nicht',
    zh: '只要野外实际捕获的鱼，实验室里喂塑料的那种我导师不认 {t}',
    ja: '対象は実際に川や湖で獲られた魚だけでお願いします{t}。水槽で餌に混ぜて与える実験は委員会的にナシです',
    vi: 'chỉ tính cá bắt ngoài tự nhiên thôi nhé, mấy thí nghiệm cho cá ăn nhựa trong bể thì hội đồng không chịu {t}',
    mixed: 'petite précision {t}: only fish caught in the wild, les feeding trials en aquarium ça compte pas pour mon comité',
  },
  labToo: {
    en: "update from the committee meeting: lab exposure studies are fine after all as long as the doses are something you'd find in a real river {t}",
    de: 'neues vom komitee {t}: laborexpositionen dürfen doch rein, solange die konzentrationen so auch in einem echten fluss vorkommen könnten',
    zh: '开完会了，实验室暴露研究也可以收，只要浓度是真实河流里会出现的水平就行 {t}',
    ja: '委員会の結論が変わりました。濃度が実際の河川レベルなら、室内の曝露実験も入れてよいそうです{t}',
    vi: 'họp xong rồi: nghiên cứu phơi nhiễm trong phòng thí nghiệm cũng được nhận, miễn nồng độ giống ngoài sông thật {t}',
    mixed: 'update du comité {t}: finalement les lab exposure studies sont ok, tant que les concentrations sont realistic pour une vraie rivière',
  },
  spectro: {
    en: 'if a paper just counted bits under a stereo microscope and never checked the polymer with ftir or raman i dont trust the numbers, leave those out {t}',
    de: 'wer nur unterm binokular gezählt und das polymer nie per ftir oder raman bestätigt hat, fliegt raus {t}, den zahlen trau ich nicht',
    zh: '光在体视显微镜下数颗粒、没用FTIR或拉曼确认聚合物的，数字我不信，那些就别算了{t}',
    ja: '実体顕微鏡で数えただけでFTIRやラマンで材質を確かめていない論文は、数字が信用できないので外しましょう{t}',
    vi: 'bài nào chỉ đếm hạt dưới kính hiển vi mà không xác nhận polyme bằng ftir hay raman thì số liệu mình không tin, bỏ ra {t}',
    mixed: 'les papers qui ont juste compté sous le stéréo sans confirmer le polymer par ftir ou raman, i dont trust those numbers, on les drop {t}',
  },
  words: {
    en: 'the journal gives us 6000 words and thats including refs, so keep things tight {t}',
    de: 'die zeitschrift gibt uns 6000 wörter inkl. literaturverzeichnis {t}, also knapp halten',
    zh: '期刊给6000词，参考文献也算在里面，写紧凑点{t}',
    ja: '投稿先は参考文献込みで6000語までなので、なるべく簡潔に{t}',
    vi: 'tạp chí cho 6000 từ tính cả tài liệu tham khảo, viết gọn gọn nhé {t}',
    mixed: 'le journal nous donne 6000 words, refs incluses {t}, donc faut rester tight',
  },
  wordsMore: {
    en: 'editor wrote back!! reviews get 9000 and the reference list doesnt count toward it {t}',
    de: 'die redakteurin hat geantwortet: bei reviews sind 9000 wörter drin und die literatur zählt gar nicht mit {t}',
    zh: '编辑回信了！！综述可以写到9000词，参考文献不计入{t}',
    ja: '編集者から返事が来ました！レビューは9000語まで、参考文献は語数に入らないそうです{t}',
    vi: 'biên tập viên trả lời rồi!! bài tổng quan được 9000 từ, danh mục tài liệu không tính vào {t}',
    mixed: "l'éditrice a répondu {t} — reviews get 9000 words, et la liste de refs compte pas",
  },
  brackish: {
    en: 'oh and estuaries, lagoons, anything brackish is not our business {t}',
    de: 'ach ja, ästuare, lagunen, alles brackige ist nicht unser bier {t}',
    zh: '对了，河口、泻湖这种半咸水的都不归我们管{t}',
    ja: 'あと、河口や潟湖みたいな汽水域のものは関係ないです{t}',
    vi: 'à, cửa sông, đầm phá, mấy chỗ nước lợ không thuộc phạm vi của mình {t}',
    mixed: "ah et les estuaires, lagunes, tout ce qui est brackish, that's not our business {t}",
  },
  deadlines: [
    { en: 'can we have a full draft for my co-authors by {x}? {t}', de: 'schaffen wir bis {x} einen kompletten entwurf für die koautoren? {t}', zh: '{x}之前能给合作者一版完整初稿吗 {t}',
      ja: '{x}までに共著者へ全体の草稿を出せますか{t}', vi: 'mình gửi bản nháp đầy đủ cho đồng tác giả trước {x} được không {t}', mixed: 'on peut avoir un full draft pour mes co-auteurs by {x}? {t}' },
    { en: 'they pushed it, co-authors now want it {x} {t}', de: 'die koautoren haben verschoben, jetzt {x} {t}', zh: '合作者那边推迟了，改成{x}{t}',
      ja: '共著者の都合で{x}に延びました{t}', vi: 'đồng tác giả dời rồi, giờ là {x} {t}', mixed: 'les co-auteurs ont pushed back, now its {x} {t}' },
    { en: 'forget the co-author date, we go straight to submission and the portal closes {x} {t}', de: 'vergiss den termin mit den koautoren, wir reichen direkt ein, das portal schließt am {x} {t}', zh: '合作者那个日期不管了，直接投稿，系统{x}关闭{t}',
      ja: '共著者の日程はもういいです。直接投稿します、投稿システムは{x}に締まります{t}', vi: 'thôi khỏi mốc của đồng tác giả, mình nộp thẳng luôn, cổng nộp đóng ngày {x} {t}', mixed: 'oublie la date des co-auteurs, on soumet direct, the portal closes {x} {t}' },
  ],
  dates: {
    en: ['may 3', 'may 24', 'june 14'], de: ['3.5.', '24.5.', '14.6.'], zh: ['5月3号', '5月24号', '6月14号'], ja: ['5月3日', '5月24日', '6月14日'],
    vi: ['3 tháng 5', '24 tháng 5', '14 tháng 6'], mixed: ['3 mai', '24 mai', '14 juin'],
  },
  styles: [
    { en: 'refs like (Author, year) pls, the coauthors all use apa 7 {t}', de: 'literaturangaben bitte als (autor, jahr), die koautoren arbeiten alle mit apa 7 {t}', zh: '引用写成（作者，年份）那种，合作者都用APA第7版{t}',
      ja: '引用は（著者, 年）の形で、共著者はみんなAPA第7版です{t}', vi: 'trích dẫn kiểu (tác giả, năm) nhé, đồng tác giả đều xài apa 7 {t}', mixed: 'les refs en mode (auteur, année) please, les co-auteurs utilisent tous apa 7 {t}' },
    { en: 'just read the guide for authors, they want numbers in order of first mention, vancouver basically {t}', de: 'autorenrichtlinien gelesen: nummern in der reihenfolge der ersten nennung, also vancouver {t}', zh: '刚看了投稿须知，要按首次出现顺序编号，就是温哥华格式{t}',
      ja: '投稿規定を読んだら、初出順の番号方式、つまりバンクーバー方式でした{t}', vi: 'vừa đọc hướng dẫn tác giả, họ muốn đánh số theo thứ tự xuất hiện, tức là vancouver {t}', mixed: 'je viens de lire le guide for authors, numéros dans l’ordre of first mention, donc vancouver {t}' },
    { en: 'aaand the special issue editor wants harvard, cite them right flavour {t}', de: 'uuund die gastherausgeberin will harvard, die cite-them-right-variante {t}', zh: '结果特刊编辑又要哈佛格式，Cite Them Right那一版{t}',
      ja: 'で、特集号の編集者はハーバード方式（Cite Them Right版）がいいそうです{t}', vi: 'rồi biên tập số đặc biệt lại muốn harvard, bản cite them right {t}', mixed: 'eeet le guest editor du special issue veut du harvard, version cite them right {t}' },
  ],
  pins: {
    en: ['{k} is basically my anchor paper, everything gets compared against it {t}', 'treat {k} as core too pls {t}', '{k} has the best histology we have, keep it in view the whole time {t}'],
    de: ['{k} ist quasi mein ankerpaper, alles wird daran gemessen {t}', '{k} bitte auch als kernquelle behandeln {t}', '{k} hat die beste histologie von allen, das immer im blick behalten {t}'],
    zh: ['{k}基本上是我的锚点文献，其他的都拿来跟它比{t}', '{k}也算核心文献吧{t}', '{k}的组织学数据是最好的，全程都要盯着它{t}'],
    ja: ['{k}が私の軸になる論文で、全部これと比べます{t}', '{k}もコア扱いでお願いします{t}', '{k}は組織学のデータが一番良いので、ずっと念頭に置いてください{t}'],
    vi: ['{k} coi như bài gốc của mình, mọi thứ đều so với nó {t}', '{k} cũng tính là tài liệu cốt lõi nha {t}', '{k} có dữ liệu mô học tốt nhất, luôn để ý tới nó nhé {t}'],
    mixed: ["{k} c'est mon anchor paper, everything gets compared to it {t}", '{k} aussi, treat it as core please {t}', "{k} a la meilleure histologie qu'on a, keep it in view tout le temps {t}"],
  },
  unpins: {
    en: ['bad news, the journal pulled {k} (data problems), so it cant be central anymore {t}', 'on second thought {k} is just another paper, no special status {t}'],
    de: ['mist, {k} wurde von der zeitschrift zurückgezogen (datenprobleme), kann also nicht mehr zentral sein {t}', 'nochmal überlegt: {k} ist einfach ein paper unter vielen, kein sonderstatus {t}'],
    zh: ['坏消息，{k}被期刊撤稿了（数据有问题），不能再当核心了{t}', '想了想，{k}就当普通文献吧，不用特殊对待{t}'],
    ja: ['残念、{k}はデータの問題で撤回されたので、もう中心には置けません{t}', '考え直しました、{k}は普通の一本として扱ってください、特別扱いは不要です{t}'],
    vi: ['tin xấu, {k} bị tạp chí rút bài (lỗi dữ liệu), nên không làm trung tâm được nữa {t}', 'nghĩ lại thì {k} chỉ là một bài bình thường thôi, không cần ưu tiên {t}'],
    mixed: ['mauvaise nouvelle, le journal a pulled {k} (data problems), donc it cant be central anymore {t}', 'finalement {k} c’est juste un paper parmi d’autres, no special status {t}'],
  },
  askedAuthors: {
    en: 'btw i already emailed the danube groups for their raw counts back in january, nobody answered, so dont build on that {t}',
    de: 'übrigens hab ich die donau-gruppen schon im januar nach rohdaten gefragt, keine antwort, also nicht darauf bauen {t}',
    zh: '顺便说下，一月份我就给多瑙河那几个课题组发邮件要原始计数了，没人回，别指望这条路{t}',
    ja: 'ちなみにドナウ川のグループには1月に生データを頼みましたが誰も返事をくれなかったので、それは当てにしないでください{t}',
    vi: 'à mình đã email mấy nhóm nghiên cứu sông danube xin số liệu thô từ tháng một, không ai trả lời, nên đừng trông vào hướng đó {t}',
    mixed: "btw j'ai déjà écrit aux équipes du danube en janvier pour les raw counts, personne a répondu, so dont count on that {t}",
  },
  sheetDone: {
    en: 'ok the QA spreadsheet is sitting in the shared folder now {t}',
    de: 'so, die qualitätsbewertungstabelle liegt jetzt im geteilten ordner {t}',
    zh: '质量评价表我已经放到共享文件夹里了{t}',
    ja: '品質評価のシートは共有フォルダに置きました{t}',
    vi: 'bảng đánh giá chất lượng mình để trong thư mục chung rồi nhé {t}',
    mixed: 'ok le QA spreadsheet est dans le shared folder maintenant {t}',
  },
  openers: {
    en: ['ok', 'thx!!', 'right,', 'hmm ok.', 'sorry was in a meeting.'], de: ['ok', 'danke!', 'gut,', 'hm ok.', 'sorry, war in ner besprechung.'],
    zh: ['好', '谢谢！', '嗯，', '行。', '刚开完会。'], ja: ['了解です。', 'ありがとう！', 'はい、', 'すみません、会議でした。'],
    vi: ['ok', 'cảm ơn nha!', 'ừm,', 'xin lỗi mới họp xong.'], mixed: ['ok', 'merci!!', 'bon,', 'sorry j’étais en meeting.'],
  },
};

// Chatter: a user line and the assistant's reply (in the assistant's language).
const CHAT = {
  en: [
    ['whats the sample size in that one', 'Forty-two fish from three sites; I have the per-site split if you want it.'],
    ['k', 'Carrying on with the next record.'],
    ['can u pull the methods section', 'Here is the methods section.'],
    ['lol my cat just sat on the keyboard', 'Ha, nothing got sent, no harm done.'],
    ['did they do blanks??', 'They ran procedural blanks but the paper does not give the blank counts.'],
    ['next one pls', 'Opening the next item.'],
    ['wait which lake was that', 'That sampling was on a reservoir, not a natural lake.'],
    ['this is so tedious tbh', 'It is. Want me to batch the remaining records five at a time?'],
    ['perfect ty', 'You are welcome.'],
    ['how many papers are we at', 'The screened set stands at a few dozen right now; the exact count is in the PRISMA sheet.'],
    ['any idea why zotero is syncing so slow today', 'Probably the attachment storage; the metadata itself came through fine.'],
    ['hmm not sure abotu that table', 'Fair, I can show the numbers it comes from.'],
    ['show me the abstract', 'Here is the abstract.'],
    ['is that the same group as the other danube paper', 'Same lab, different sampling year.'],
  ],
  de: [
    ['wie groß war die stichprobe da', 'Zweiundvierzig Fische von drei Stellen; die Aufteilung pro Stelle kann ich dir zeigen.'],
    ['ok', 'Ich mache mit dem nächsten Eintrag weiter.'],
    ['zeig mal den methodenteil', 'Hier der Methodenteil.'],
    ['haha die katze sitzt auf der tastatur', 'Es wurde nichts abgeschickt, alles gut.'],
    ['haben die blindproben gemacht??', 'Blindproben ja, aber die Werte stehen nicht im Paper.'],
    ['nächstes bitte', 'Ich öffne den nächsten Eintrag.'],
    ['moment, welcher see war das', 'Das war ein Stausee, kein natürlicher See.'],
    ['das ist echt zäh', 'Ja. Soll ich die restlichen Einträge in Fünferblöcken durchgehen?'],
    ['super danke', 'Gern.'],
    ['wie viele paper haben wir gerade', 'Ein paar Dutzend im gescreenten Satz; die genaue Zahl steht im PRISMA-Blatt.'],
    ['zotero synct heute ewig', 'Vermutlich der Dateispeicher; die Metadaten sind angekommen.'],
    ['hm, bei der tabelle bin ich mir nich sicher', 'Ich kann dir die Zahlen zeigen, aus denen sie stammt.'],
  ],
  zh: [
    ['那篇样本量多少', '三个采样点共42条鱼，需要的话我可以给你每个点的数量。'],
    ['嗯', '继续看下一条。'],
    ['把方法部分调出来', '这是方法部分。'],
    ['哈哈猫刚踩了键盘', '没有发出去什么，没事。'],
    ['他们做空白对照了吗？？', '做了流程空白，但文中没给空白的数值。'],
    ['下一篇', '打开下一条。'],
    ['等等，那是哪个湖', '那是个水库，不是天然湖泊。'],
    ['说实话好枯燥', '确实。要不要剩下的五条一批来处理？'],
    ['好的谢谢', '不客气。'],
    ['现在一共多少篇了', '筛选后有几十篇，具体数字在PRISMA表里。'],
    ['zotero今天同步好慢', '可能是附件存储的问题，元数据已经同步好了。'],
    ['那个表我有点不确定', '我可以把表里的原始数字给你看。'],
  ],
  ja: [
    ['その論文のサンプル数は？', '3地点で計42匹です。地点ごとの内訳も出せます。'],
    ['はい', '次のレコードに進みます。'],
    ['方法のところを出してもらえますか', 'こちらが方法の節です。'],
    ['猫がキーボードに乗りましたw', '何も送信されていないので大丈夫です。'],
    ['ブランクはやってますか？', '手順ブランクは実施していますが、値は論文に載っていません。'],
    ['次お願いします', '次のアイテムを開きます。'],
    ['あれ、どこの湖でしたっけ', 'あれはダム湖で、自然湖ではありません。'],
    ['正直しんどい…', 'ですよね。残りを5件ずつまとめて見ましょうか。'],
    ['完璧、ありがとう', 'どういたしまして。'],
    ['今何本くらいですか', 'スクリーニング後で数十本です。正確な数はPRISMAのシートにあります。'],
    ['Zoteroの同期が今日遅い', '添付ファイルのストレージのせいかもしれません。メタデータは届いています。'],
  ],
  vi: [
    ['bài đó cỡ mẫu bao nhiêu', 'Bốn mươi hai con cá từ ba điểm; cần thì mình tách theo từng điểm cho bạn.'],
    ['ừ', 'Mình xem tiếp bản ghi sau.'],
    ['lấy phần phương pháp ra giúp mình', 'Đây là phần phương pháp.'],
    ['haha con mèo vừa nằm lên bàn phím', 'Không có gì bị gửi đi đâu, yên tâm.'],
    ['họ có làm mẫu trắng không??', 'Có mẫu trắng quy trình nhưng bài không ghi giá trị.'],
    ['bài tiếp đi', 'Mở bài tiếp theo.'],
    ['khoan, hồ nào vậy', 'Đó là hồ chứa, không phải hồ tự nhiên.'],
    ['thật sự là chán ghê', 'Đúng vậy. Hay mình làm mấy bản ghi còn lại theo lô năm cái?'],
    ['tuyệt, cảm ơn', 'Không có chi.'],
    ['giờ mình có bao nhiêu bài rồi', 'Sau sàng lọc còn vài chục bài; con số chính xác nằm trong bảng PRISMA.'],
    ['zotero hôm nay đồng bộ chậm quá', 'Chắc do kho tệp đính kèm; phần siêu dữ liệu đã về đủ.'],
  ],
  mixed: [
    ["c'est quoi le sample size dans celui-là", 'Forty-two fish from three sites; I can split it by site.'],
    ['ok', 'Carrying on with the next record.'],
    ['tu peux sortir la section methods', 'Here is the methods section.'],
    ['mdr mon chat vient de marcher sur le keyboard', 'Nothing was sent, all good.'],
    ['ils ont fait des blanks??', 'Procedural blanks yes, but the counts are not in the paper.'],
    ['le suivant please', 'Opening the next item.'],
    ["attends c'était quel lac", 'That was a reservoir, not a natural lake.'],
    ["c'est tellement long honnêtement", 'True. Shall I go through the rest five at a time?'],
    ['parfait merci', 'You are welcome.'],
    ["on est à combien de papers là", 'A few dozen after screening; the exact number is in the PRISMA sheet.'],
    ['zotero sync super lentement aujourd’hui', 'Probably the file storage; the metadata came through.'],
    ['hmm pas sûre pour ce tableau', 'I can show you the numbers behind it.'],
  ],
};

// ---------------------------------------------------------------------------------------------------
// What the assistant says (en, de, zh, ja, vi; the 'mixed' user gets English).
const A = {
  decisions: {
    en: ['Going forward, particle counts per individual are pooled with a random-effects model on the log scale {t}.', 'For the guild variable I am using three levels — piscivore, omnivore, planktivore/filter feeder — and folding detritivores into omnivores {t}.', 'Particles below 20 µm stay out of the pooled counts {t}, because most of the methods cannot see them reliably.', 'Histopathology gets a narrative synthesis rather than a pooled estimate {t}.', 'In the final tables the studies are grouped by continent, not by river basin {t}.'],
    de: ['Ab jetzt fassen wir die Partikelzahlen pro Individuum mit einem Random-Effects-Modell auf der Log-Skala zusammen {t}.', 'Die Ernährungsgilde bekommt drei Stufen – Raubfisch, Allesfresser, Planktonfresser/Filtrierer –, Detritusfresser zähle ich zu den Allesfressern {t}.', 'Partikel unter 20 µm bleiben aus den gepoolten Zahlen draußen {t}, weil die meisten Methoden sie nicht zuverlässig erfassen.', 'Die Histopathologie fassen wir erzählend zusammen statt gepoolt {t}.', 'In den Abschlusstabellen gruppiere ich die Studien nach Kontinent, nicht nach Flusseinzugsgebiet {t}.'],
    zh: ['接下来每条鱼的颗粒数用对数尺度的随机效应模型合并{t}。', '食性变量分三级：肉食、杂食、浮游/滤食；碎屑食性的归入杂食{t}。', '小于20 µm的颗粒不纳入合并计数{t}，因为大多数方法检测不到。', '组织病理部分做叙述性综合，不做合并估计{t}。', '最终表格按大洲分组，不按流域{t}。'],
    ja: ['今後、個体あたりの粒子数は対数スケールのランダム効果モデルで統合します{t}。', '食性は魚食・雑食・プランクトン食/濾過食の3区分にし、デトリタス食は雑食に含めます{t}。', '20 µm未満の粒子は統合値から外します{t}。多くの手法では確実に検出できないためです。', '組織病理はメタ解析せず、記述的にまとめます{t}。', '最終的な表では研究を流域ではなく大陸ごとにまとめます{t}。'],
    vi: ['Từ giờ số hạt trên mỗi cá thể được gộp bằng mô hình hiệu ứng ngẫu nhiên trên thang log {t}.', 'Biến tập tính ăn có ba mức – ăn thịt, ăn tạp, ăn sinh vật phù du/ăn lọc – còn cá ăn mùn bã mình xếp vào ăn tạp {t}.', 'Hạt nhỏ hơn 20 µm không đưa vào số gộp {t}, vì phần lớn phương pháp không phát hiện được chắc chắn.', 'Phần mô bệnh học sẽ tổng hợp dạng tường thuật, không gộp số {t}.', 'Trong các bảng cuối, nghiên cứu được nhóm theo châu lục chứ không theo lưu vực sông {t}.'],
  },
  dead: {
    en: ['I tried matching your items to FishBase species IDs automatically, but half the papers use outdated synonyms, so that route gives nonsense and I have dropped it {t}.', 'The supplementary spreadsheets of the Taihu studies turned out to be scanned images; pulling the particle counts out of them did not work {t}.', 'Expressing the loads per gram of gut tissue went nowhere {t}: most papers never report gut mass.'],
    de: ['Ich habe versucht, deine Einträge automatisch den FishBase-Arten zuzuordnen, aber die Hälfte der Paper nutzt veraltete Synonyme – der Weg liefert Unsinn, ich habe ihn aufgegeben {t}.', 'Die Zusatztabellen der Taihu-Studien sind eingescannte Bilder; die Partikelzahlen daraus zu ziehen hat nicht geklappt {t}.', 'Die Belastung pro Gramm Darmgewebe anzugeben führt ins Leere {t}: fast kein Paper nennt die Darmmasse.'],
    zh: ['我试过把你的条目自动对应到FishBase的物种编号，但一半论文用的是旧的同物异名，结果一团糟，这条路我放弃了{t}。', '太湖那几篇的补充表格其实是扫描图片，从里面提取颗粒数没成功{t}。', '按每克肠组织来换算负荷行不通{t}：大多数论文根本没报告肠道重量。'],
    ja: ['アイテムをFishBaseの種IDに自動で対応付けようとしましたが、半数の論文が古いシノニムを使っていてまともな結果にならず、この方法はやめました{t}。', '太湖の研究の補足表はスキャン画像で、そこから粒子数を取り出すことはできませんでした{t}。', '腸組織1グラムあたりに換算する案はうまくいきませんでした{t}。ほとんどの論文が腸の重量を載せていません。'],
    vi: ['Mình đã thử tự động ghép các mục của bạn với mã loài FishBase, nhưng một nửa số bài dùng tên đồng nghĩa cũ nên kết quả vô nghĩa, mình bỏ cách đó rồi {t}.', 'Bảng bổ sung của các nghiên cứu hồ Thái Hồ hóa ra là ảnh quét; trích số hạt từ đó không được {t}.', 'Quy đổi tải lượng theo gam mô ruột không đi đến đâu {t}: hầu hết các bài không báo cáo khối lượng ruột.'],
  },
  todo: {
    en: ['One thing I need from you: an export of the quality-assessment sheet from your drive, so I can fill in the empty columns {t}.', 'Still on my side: a table of blank-contamination controls per study {t}.', 'Next on my list is re-screening the 14 abstracts we marked as unclear {t}.', 'I still owe you a funnel plot for the ingestion counts {t}.', 'Somebody has to check whether the Brazilian reservoir papers share sampling sites — I will take that one {t}.'],
    de: ['Eine Sache brauche ich von dir: einen Export der Qualitätsbewertungstabelle aus deinem Drive, damit ich die leeren Spalten füllen kann {t}.', 'Bei mir offen: eine Tabelle der Blindwert-Kontrollen pro Studie {t}.', 'Als Nächstes sichte ich die 14 als unklar markierten Abstracts noch einmal {t}.', 'Einen Funnel-Plot für die Aufnahmezahlen bin ich dir noch schuldig {t}.', 'Jemand muss prüfen, ob sich die brasilianischen Stausee-Paper Probenahmestellen teilen – das übernehme ich {t}.'],
    zh: ['有件事需要你做：把云盘里的质量评价表导出来给我，我好补上空着的列{t}。', '我这边还欠一张各研究空白污染对照的表{t}。', '下一步我把标为“不确定”的14篇摘要再筛一遍{t}。', '摄入计数的漏斗图我还没给你{t}。', '得有人核对一下巴西水库那几篇是不是共用采样点——这个我来{t}。'],
    ja: ['お願いが一つあります。ドライブにある品質評価シートをエクスポートしてもらえれば、空いている列を埋めます{t}。', 'こちらの残り作業：研究ごとのブランク汚染対照の表{t}。', '次は「不明」にした抄録14本をもう一度スクリーニングします{t}。', '摂取数のファンネルプロットをまだお渡ししていません{t}。', 'ブラジルの貯水池の論文同士で採集地点が重なっていないか確認が必要です。これは私がやります{t}。'],
    vi: ['Mình cần bạn một việc: xuất bảng đánh giá chất lượng từ drive của bạn để mình điền các cột còn trống {t}.', 'Phía mình còn nợ: bảng đối chứng nhiễm bẩn mẫu trắng cho từng nghiên cứu {t}.', 'Việc tiếp theo của mình là sàng lọc lại 14 bản tóm tắt đánh dấu "chưa rõ" {t}.', 'Mình vẫn còn nợ bạn biểu đồ phễu cho số hạt ăn vào {t}.', 'Cần ai đó kiểm tra xem các bài về hồ chứa ở Brazil có trùng điểm lấy mẫu không – việc này mình nhận {t}.'],
  },
  todoDone: {
    en: ['The 14 unclear abstracts are through a second look: nine stay, five are out {t}.', 'Funnel plot for the ingestion counts is attached below {t}.'],
    de: ['Die 14 unklaren Abstracts sind ein zweites Mal durchgesehen: neun bleiben, fünf fliegen raus {t}.', 'Der Funnel-Plot zu den Aufnahmezahlen hängt unten an {t}.'],
    zh: ['那14篇不确定的摘要已经复看过了：保留9篇，剔除5篇{t}。', '摄入计数的漏斗图附在下面了{t}。'],
    ja: ['「不明」の抄録14本は見直しが済みました。9本残し、5本除外です{t}。', '摂取数のファンネルプロットを下に添付しました{t}。'],
    vi: ['14 bản tóm tắt chưa rõ đã xem lại xong: giữ chín, loại năm {t}.', 'Biểu đồ phễu cho số hạt ăn vào mình đính kèm bên dưới {t}.'],
  },
  guess: {
    en: ['I suspect the bottom feeders carry more fibres than the open-water species, since fibres settle into the sediment {t}.', 'It could be that larger fish simply hold more particles because their guts are longer, and guild stops mattering once size is in {t}.', 'Perhaps the gut inflammation is driven more by the additives leaching out than by the particles themselves {t}.'],
    de: ['Ich vermute, dass Grundfische mehr Fasern tragen als Freiwasserarten, weil Fasern ins Sediment absinken {t}.', 'Könnte sein, dass größere Fische einfach mehr Partikel haben, weil ihr Darm länger ist, und die Gilde keine Rolle mehr spielt, sobald man die Größe berücksichtigt {t}.', 'Womöglich kommt die Darmentzündung eher von auslaugenden Additiven als von den Partikeln selbst {t}.'],
    zh: ['我估计底栖鱼身上的纤维比中上层鱼多，因为纤维会沉到底泥里{t}。', '也可能只是大鱼肠子更长所以颗粒更多，一旦把体长考虑进去，食性就不重要了{t}。', '肠道炎症说不定主要是析出的添加剂造成的，而不是颗粒本身{t}。'],
    ja: ['底生魚のほうが遊泳魚より繊維が多いのではないかと思います。繊維は底泥に沈むので{t}。', '単に大きい魚ほど腸が長くて粒子が多いだけで、体長を考慮すれば食性は関係なくなるのかもしれません{t}。', '腸の炎症は粒子そのものより、溶け出す添加剤のせいという可能性もあります{t}。'],
    vi: ['Mình đoán cá tầng đáy mang nhiều sợi hơn cá tầng nước mở, vì sợi lắng xuống trầm tích {t}.', 'Có thể đơn giản là cá to chứa nhiều hạt hơn vì ruột dài hơn, và khi tính đến kích thước thì tập tính ăn không còn quan trọng {t}.', 'Có lẽ viêm ruột chủ yếu do phụ gia rò rỉ ra chứ không phải do bản thân các hạt {t}.'],
  },
  guessYes: {
    en: 'Sorting the studies by where the fish feed makes it plain: benthic feeders carry about twice the fibre share of pelagic ones {t}.',
    de: 'Sortiert man die Studien danach, wo die Fische fressen, ist es eindeutig: Grundfische haben etwa den doppelten Faseranteil der Freiwasserfische {t}.',
    zh: '按鱼的觅食水层把研究排一下就很清楚了：底栖鱼的纤维占比大约是中上层鱼的两倍{t}。',
    ja: '採餌層で研究を並べると一目瞭然で、底生魚の繊維の割合は遊泳魚のおよそ2倍です{t}。',
    vi: 'Xếp các nghiên cứu theo tầng kiếm ăn thì thấy rõ: cá tầng đáy có tỉ lệ sợi gấp khoảng đôi cá tầng mặt {t}.',
  },
  guessNo: {
    en: 'With body length in the model the guild gap barely moves, so gut length alone does not account for it {t}.',
    de: 'Mit der Körperlänge im Modell verschiebt sich der Gildenunterschied kaum; die Darmlänge allein erklärt ihn also nicht {t}.',
    zh: '把体长放进模型后，食性之间的差距几乎没变，所以光靠肠道长度解释不了{t}。',
    ja: '体長をモデルに入れても食性間の差はほとんど変わらず、腸の長さだけでは説明がつきません{t}。',
    vi: 'Đưa chiều dài cơ thể vào mô hình thì khoảng cách giữa các nhóm ăn hầu như không đổi, nên chiều dài ruột một mình không giải thích được {t}.',
  },
  prose: {
    en: ['{k} reports on p. {p} that {n}% of the sampled fish had at least one particle in the gut {t}.', 'Worth noting from {k}, page {p}: fibres made up {n}% of everything recovered {t}.', '{k} (p. {p}) found villus damage in {n}% of the fish carrying more than ten particles {t}.'],
    de: ['{k} berichtet auf S. {p}, dass {n}% der beprobten Fische mindestens ein Partikel im Darm hatten {t}.', 'Aus {k}, Seite {p}, bemerkenswert: Fasern machten {n}% aller gefundenen Partikel aus {t}.', '{k} (S. {p}) fand Zottenschäden bei {n}% der Fische mit mehr als zehn Partikeln {t}.'],
    zh: ['{k}第{p}页报告，{n}%的采样鱼肠道内至少有一个颗粒{t}。', '值得注意：{k}第{p}页，纤维占全部检出颗粒的{n}%{t}。', '{k}（第{p}页）发现颗粒超过十个的鱼中有{n}%出现绒毛损伤{t}。'],
    ja: ['{k}の{p}ページによると、採集魚の{n}%で消化管に少なくとも1個の粒子がありました{t}。', '{k}の{p}ページで注目すべき点：回収された粒子の{n}%が繊維でした{t}。', '{k}（{p}頁）では、粒子が10個を超える魚の{n}%に絨毛の損傷が見られました{t}。'],
    vi: ['{k} ở tr. {p} cho biết {n}% số cá được lấy mẫu có ít nhất một hạt trong ruột {t}.', 'Đáng chú ý trong {k}, trang {p}: sợi chiếm {n}% tổng số hạt thu được {t}.', '{k} (tr. {p}) thấy tổn thương nhung mao ở {n}% số cá có hơn mười hạt {t}.'],
  },
  acks: {
    en: ['Noted.', 'Got it.', 'Understood, I will work with that.', 'OK.'], de: ['Notiert.', 'Verstanden.', 'Alles klar, so machen wir es.', 'Ok.'],
    zh: ['记下了。', '明白。', '好的，就按这个来。'], ja: ['承知しました。', 'わかりました。', '了解です、その前提で進めます。'],
    vi: ['Đã ghi nhận.', 'Hiểu rồi.', 'Được, mình sẽ làm theo vậy.'],
  },
  filler: {
    en: ['Here is what came back from the library.', 'Reading on from the results section.', 'That record is a conference poster, so there is not much to extract.', 'Pulled the full text.'],
    de: ['Das kam aus der Bibliothek zurück.', 'Ich lese ab dem Ergebnisteil weiter.', 'Der Eintrag ist ein Konferenzposter, da gibt es wenig zu holen.'],
    zh: ['这是文献库返回的结果。', '从结果部分接着读。', '这条是会议海报，能提取的不多。'],
    ja: ['ライブラリからの結果です。', '結果の節から読み進めます。', 'このレコードは学会ポスターなので、抽出できる情報は多くありません。'],
    vi: ['Đây là kết quả từ thư viện.', 'Mình đọc tiếp từ phần kết quả.', 'Bản ghi này là poster hội nghị nên không có nhiều để trích.'],
  },
  reasoning: {
    en: 'Checking the item list against the screening sheet before opening the PDF.', de: 'Ich gleiche die Trefferliste mit dem Screening-Blatt ab, bevor ich das PDF öffne.',
    zh: '打开PDF之前先把检索结果和筛选表对一下。', ja: 'PDFを開く前に、検索結果をスクリーニング表と照合します。', vi: 'Đối chiếu danh sách với bảng sàng lọc trước khi mở PDF.',
  },
};

// Text inside the papers and the user's Zotero annotations.
const PAPER = {
  en: [
    'Fish were euthanised with an overdose of MS-222 and stored at −20 °C until dissection.',
    'The gastrointestinal tract was removed from the oesophagus to the anus and weighed to the nearest milligram.',
    'Tissue was digested in 10% KOH at 40 °C for 48 h, after which the digestate was filtered onto glass fibre filters.',
    'All suspected particles were photographed and a subsample was analysed by µ-FTIR in transmission mode.',
    'Procedural blanks were processed alongside every batch of ten samples.',
    'Cotton lab coats were worn throughout and all glassware was rinsed three times with filtered water.',
    'Polyethylene and polypropylene dominated the identified polymers, followed by polyester fibres.',
    'Particle abundance did not differ significantly between the wet and the dry season.',
    'Standard length was recorded for every specimen before the gut was opened.',
    'Sections of the posterior intestine were stained with haematoxylin and eosin for histological scoring.',
    'Sampling sites were located upstream and downstream of two municipal wastewater treatment plants.',
    'A generalised linear mixed model with site as random factor was fitted to the counts.',
  ],
  zh: [
    '鱼体用过量MS-222麻醉处死后于−20 °C保存至解剖。', '取出从食道到肛门的完整消化道并称重。', '组织用10% KOH在40 °C下消解48小时，随后过滤到玻璃纤维滤膜上。',
    '所有疑似颗粒均拍照，并抽取部分用显微红外光谱鉴定。', '每十个样品设置一个流程空白。', '鉴定出的聚合物以聚乙烯和聚丙烯为主，其次为聚酯纤维。',
    '颗粒丰度在丰水期和枯水期之间无显著差异。', '后肠切片经苏木精-伊红染色后进行组织学评分。',
  ],
  ja: [
    '魚はMS-222の過剰投与で安楽殺し、解剖まで−20 °Cで保存した。', '食道から肛門までの消化管を摘出し、重量を測定した。', '組織は10% KOHで40 °C、48時間消化し、ガラス繊維ろ紙でろ過した。',
    '疑わしい粒子はすべて撮影し、一部をµ-FTIRで分析した。', '10試料ごとに手順ブランクを処理した。', '同定されたポリマーはポリエチレンとポリプロピレンが主で、次いでポリエステル繊維であった。',
    '粒子数に雨季と乾季で有意な差はなかった。', '後腸の切片をHE染色し、組織学的にスコア化した。',
  ],
};
const HIGHLIGHT = {
  en: ['Microplastics were present in {n}% of benthic individuals but far fewer pelagic ones {t}', 'Mean abundance reached {n} items per individual at the downstream site {t}', 'Goblet cell hyperplasia was observed in {n}% of exposed fish {t}'],
  zh: ['底栖个体中有{n}%检出微塑料，中上层个体明显较少{t}', '下游采样点平均丰度达到每尾{n}个{t}', '暴露组中{n}%的鱼出现杯状细胞增生{t}'],
  ja: ['底生個体の{n}%からマイクロプラスチックが検出され、遊泳個体でははるかに少なかった{t}', '下流地点では平均で1個体あたり{n}個に達した{t}', '曝露群の{n}%で杯細胞の過形成が観察された{t}'],
};
const COMMENT = {
  en: 'so {n}% of the carp had fragments here, way more than the perch {t}', de: 'also {n}% der karpfen hatten hier fragmente, viel mehr als die barsche {t}',
  zh: '这里{n}%的鲤鱼有碎片，比鲈鱼多得多{t}', ja: 'ここでコイの{n}%に破片、パーチよりずっと多い{t}', vi: 'vậy ở đây {n}% cá chép có mảnh nhựa, nhiều hơn cá rô hẳn {t}',
  mixed: 'donc {n}% des carpes avaient des fragments ici, way more than the perch {t}',
};
const FULLTEXT_FINDING = {
  en: 'Across all sites, fish held on average {n} particles each, and planktivores held the most {t}.',
  zh: '所有采样点的鱼平均每尾含{n}个颗粒，其中滤食性鱼类最多{t}。',
  ja: '全地点で魚は平均1個体あたり{n}個の粒子を含み、プランクトン食の魚が最も多かった{t}。',
};
const NOTE_FINDING = '<h1>Extraction notes</h1><p>Table 3 on p. {p}: gut particle counts correlate with the histology score (rho = 0.{n}) {t}.</p><p>Check the blank correction.</p>';
const IDLE_HIGHLIGHTS = ['Particles were categorised as fibres, fragments, films or pellets.', 'No particles were found in the blanks.', 'see table 2', 'Sampling was repeated in autumn.'];

const SPECIES = ['Cyprinus carpio', 'Perca fluviatilis', 'Oreochromis niloticus', 'Squalius cephalus', 'Hypophthalmichthys molitrix', 'Salmo trutta', 'Rutilus rutilus', 'Pangasianodon hypophthalmus', 'Prochilodus lineatus'];
const WATERS = ['Lake Taihu', 'the Danube', 'the Yangtze', 'Lake Victoria', 'the Thames', 'the Paraná', 'Lake Geneva', 'Lake Biwa', 'the Red River'];
const LASTNAMES = ['Collard', 'Horton', 'Jabeen', 'Silva', 'Roch', 'Andrade', 'Sanchez', 'Yamazaki', 'Trần', 'Kuśmierek', 'Okoth', 'Zhang'];
const FIRSTNAMES = ['France', 'Alice', 'Khalida', 'Maria', 'Sebastian', 'Rafael', 'Wilfried', 'Kenji', 'Thu', 'Agata', 'Brian', 'Kai'];
const JOURNALS = ['Environmental Pollution', 'Science of The Total Environment', 'Water Research', 'Marine Pollution Bulletin', 'Chemosphere', '环境科学学报', '水環境学会誌'];
const LIBRARY = { type: 'group', id: 5120433, name: 'fw-microplastics', links: { alternate: { href: 'https://www.zotero.org/groups/fw-microplastics', type: 'text/html' } } };

function titleOf(r, al) {
  const sp = r.pick(SPECIES);
  const w = r.pick(WATERS);
  const form = r.int(0, 5);
  if (form === 4 && al === 'zh') return `${w}${sp}消化道微塑料的赋存特征`;
  if (form === 4 && al === 'ja') return `${w}における${sp}の消化管内マイクロプラスチック`;
  return [
    `Microplastic ingestion by ${sp} in ${w}`,
    `Occurrence and characteristics of microplastics in the digestive tract of ${sp} from ${w}`,
    `Do feeding habits shape plastic uptake? Evidence from ${sp} in ${w}`,
    `Intestinal histopathology of ${sp} exposed to polystyrene microspheres`,
    `Anthropogenic particles in freshwater fish of ${w}: a multi-species survey`,
    `Microplastics in wild ${sp}: abundance, polymer types and gut condition`,
  ][form];
}

function apiItem(r, key, al) {
  const last = r.pick(LASTNAMES);
  const year = String(r.int(2013, 2025));
  const version = r.int(40, 2400);
  const start = r.int(1, 900);
  return {
    key, version, library: LIBRARY,
    links: {
      self: { href: `https://api.zotero.org/groups/5120433/items/${key}`, type: 'application/json' },
      alternate: { href: `https://www.zotero.org/groups/fw-microplastics/items/${key}`, type: 'text/html' },
      attachment: { href: `https://api.zotero.org/groups/5120433/items/${r.key()}`, type: 'application/json', attachmentType: 'application/pdf', attachmentSize: r.int(200_000, 4_000_000) },
    },
    meta: { creatorSummary: `${last} et al.`, parsedDate: year, numChildren: r.int(1, 5) },
    data: {
      key, version, itemType: 'journalArticle', title: titleOf(r, al),
      creators: [
        { creatorType: 'author', firstName: r.pick(FIRSTNAMES), lastName: last },
        { creatorType: 'author', firstName: r.pick(FIRSTNAMES), lastName: r.pick(LASTNAMES) },
      ],
      abstractNote: `We examined the gastrointestinal tracts of ${r.int(30, 600)} fish from ${r.int(2, 14)} sites.`,
      publicationTitle: r.pick(JOURNALS), volume: String(r.int(100, 360)), issue: '', pages: `${start}–${start + r.int(6, 14)}`, date: year,
      series: '', seriesTitle: '', seriesText: '', journalAbbreviation: '', language: r.pick(['en', 'en', 'en', 'zh', 'ja']),
      DOI: `10.1016/j.envpol.${year}.${r.int(100000, 999999)}`, ISSN: '0269-7491', shortTitle: '', url: '', accessDate: '', archive: '', archiveLocation: '',
      libraryCatalog: 'ScienceDirect', callNumber: '', rights: '', extra: '',
      tags: [{ tag: 'microplastics' }, { tag: r.pick(['gut', 'histology', 'FTIR', 'feeding guild']), type: 1 }],
      collections: ['QF7N2X8M'], relations: {}, dateAdded: `${year}-0${r.int(1, 9)}-1${r.int(0, 9)}T09:${r.int(10, 59)}:00Z`, dateModified: '2025-01-20T16:02:11Z',
    },
  };
}

function annotation(r, parentItem, text, comment, page) {
  const y = r.int(100, 700) + 0.5;
  return {
    key: r.key(), version: r.int(300, 2600), parentItem, itemType: 'annotation', annotationType: 'highlight',
    annotationText: text, annotationComment: comment, annotationColor: r.pick(['#ffd400', '#5fb236', '#2ea8e5', '#e56eee']),
    annotationPageLabel: page, annotationSortIndex: `${String(Number(page) - 1).padStart(5, '0')}|00${r.int(1000, 9999)}|00${r.int(100, 700)}`,
    annotationPosition: JSON.stringify({ pageIndex: Number(page) - 1, rects: [[r.int(50, 300) + 0.25, y, r.int(320, 540) + 0.75, y + 9.5]] }),
    tags: [], relations: {}, dateAdded: '2025-02-03T11:20:05Z', dateModified: '2025-02-03T11:21:40Z',
  };
}

/** Seeded session of `turns` turns in `language` for a model with a `window`-token context. */
export function makeThirdSession(seed, language, turns, window) {
  const r = rng(seed * 48271 + LANGUAGES.indexOf(language) * 7919 + window * 5 + 11);
  const al = language === 'mixed' ? 'en' : language;
  const paperLang = al === 'zh' || al === 'ja' ? al : 'en';
  const at = (pct) => Math.min(turns - 1, Math.max(1, Math.floor((pct * turns) / 100)));
  const extras = new Map();
  const used = new Set();
  const addPart = (turn, part) => extras.set(turn, [...(extras.get(turn) ?? []), part]);
  const tag = () => {
    let t;
    do t = `«${Array.from({ length: 4 }, () => TAG_ALPHABET[r.int(0, TAG_ALPHABET.length - 1)]).join('')}»`;
    while (used.has(t));
    used.add(t);
    return t;
  };
  const { facts, plan, add, fill, plant, chain } = factPlanner(tag, at);

  // The user's side.
  plant('goal', 0, 'user', U.goal[language]);
  chain('style', [4, 36, 75], U.styles.map((s) => s[language]));
  chain('deadline', [8, 49, 83], U.deadlines.map((d) => d[language]), (i) => ({ x: U.dates[language][i] }));
  const wild = plant('constraint', at(5), 'user', U.wildOnly[language]);
  const words = plant('constraint', at(11), 'user', U.words[language]);
  plant('constraint', at(16), 'user', U.spectro[language]);
  plant('constraint', at(27), 'user', U.brackish[language]);
  wild.staleBy = plant('constraint', at(49), 'user', U.labToo[language]).probe;
  words.staleBy = plant('constraint', at(72), 'user', U.wordsMore[language]).probe;
  plant('failed', at(22), 'user', U.askedAuthors[language]);
  const central = [r.key(), r.key(), r.key()];
  const pins = [13, 27, 44].map((pct, i) => plant('designation', at(pct), 'user', U.pins[language][i], { k: central[i] }, { key: central[i] }));
  pins[0].staleBy = plant('retraction', at(57), 'user', U.unpins[language][0], { k: central[0] }, { key: central[0] }).probe;
  pins[2].staleBy = plant('retraction', at(88), 'user', U.unpins[language][1], { k: central[2] }, { key: central[2] }).probe;

  // The assistant's side.
  [15, 38, 62].forEach((pct, i) => plant('failed', at(pct), 'assistant', A.dead[al][i]));
  [19, 34, 52, 67, 92].forEach((pct, i) => plant('decision', at(pct), 'assistant', A.decisions[al][i]));
  const todos = [17, 29, 46, 64, 80].map((pct, i) => plant('task', at(pct), 'assistant', A.todo[al][i]));
  todos[0].staleBy = plant('task-done', at(33), 'user', U.sheetDone[language]).probe;
  todos[2].staleBy = plant('task-done', at(58), 'assistant', A.todoDone[al][0]).probe;
  todos[3].staleBy = plant('task-done', at(90), 'assistant', A.todoDone[al][1]).probe;
  const guesses = [24, 40, 55].map((pct, i) => plant('hypothesis', at(pct), 'assistant', A.guess[al][i]));
  guesses[0].staleBy = plant('hypothesis-closed', at(70), 'assistant', A.guessYes[al]).probe;
  guesses[1].staleBy = plant('hypothesis-closed', at(78), 'assistant', A.guessNo[al]).probe;

  // Findings: in prose, in annotations (highlight or the user's comment), in PDF pages, in a child note.
  const findingKeys = [];
  const finding = (pct) => {
    const key = r.key();
    findingKeys.push(key);
    const probe = tag();
    const page = r.int(2, 24);
    const fact = { kind: 'finding', turn: at(pct), probe, key, page: String(page) };
    facts.push(fact);
    return { key, probe, page, n: r.int(3, 88) };
  };
  const fulltextAt = new Map();
  let proseI = 0;
  let highlightI = 0;
  for (const [pct, where] of [[10, 'highlight'], [21, 'prose'], [32, 'pdf'], [43, 'comment'], [56, 'prose'], [61, 'note'], [69, 'pdf'], [81, 'highlight'], [95, 'prose']]) {
    const f = finding(pct);
    const turn = at(pct);
    if (where === 'prose') {
      add(turn, 'assistant', fill(A.prose[al][proseI++], { k: f.key, p: f.page, n: f.n, t: f.probe }));
    } else if (where === 'highlight' || where === 'comment') {
      const text = where === 'highlight' ? fill(HIGHLIGHT[paperLang][highlightI++ % 3], { n: f.n, t: f.probe }) : r.pick(IDLE_HIGHLIGHTS);
      const comment = where === 'comment' ? fill(COMMENT[language], { n: f.n, t: f.probe }) : '';
      addPart(turn, {
        type: 'tool-zotero_item_annotations', toolCallId: `call_ann_${turn}_${f.key}`, state: 'output-available', input: { parentItem: f.key },
        output: [annotation(r, f.key, r.pick(IDLE_HIGHLIGHTS), '', String(Math.max(1, f.page - 1))), annotation(r, f.key, text, comment, String(f.page))],
      });
    } else if (where === 'pdf') {
      fulltextAt.set(turn, { key: f.key, page: f.page, sentence: fill(FULLTEXT_FINDING[paperLang], { n: f.n, t: f.probe }) });
    } else {
      addPart(turn, {
        type: 'dynamic-tool', toolName: 'zotero_child_notes', toolCallId: `call_notes_${turn}`, state: 'output-available', input: { itemKey: f.key },
        output: [{ key: r.key(), version: r.int(300, 2600), parentItem: f.key, itemType: 'note', note: fill(NOTE_FINDING, { p: f.page, n: f.n, t: f.probe }), tags: [], relations: {}, dateAdded: '2025-02-10T08:00:00Z', dateModified: '2025-02-10T08:04:00Z' }],
      });
    }
  }

  const pageChars = Math.max(1_800, Math.floor(window * 0.15));
  const paperText = (chars) => {
    let s = '';
    while (s.length < chars) s += `${r.pick(PAPER[r.next() < 0.75 ? paperLang : 'en'])} `;
    return s.slice(0, chars);
  };
  const fulltext = (turn, key) => {
    const planted = fulltextAt.get(turn);
    const itemKey = planted ? planted.key : key;
    const first = planted ? planted.page - 1 : r.int(1, 20);
    const n = r.int(2, 3);
    const pages = Array.from({ length: n }, (_, i) => ({ pageLabel: String(first + i), text: paperText(Math.floor(pageChars / n)) }));
    if (planted) {
      const pg = pages[1];
      const cut = pg.text.indexOf('. ', Math.floor(pg.text.length / 3));
      const at2 = cut < 0 ? Math.floor(pg.text.length / 2) : cut + 2;
      pg.text = `${pg.text.slice(0, at2)}${planted.sentence} ${pg.text.slice(at2)}`;
    }
    return { itemKey, pages };
  };

  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const planted = plan.get(turn) ?? [];
    const fromUser = planted.filter((p) => p.who === 'user').map((p) => p.text);
    const fromAssistant = planted.filter((p) => p.who === 'assistant').map((p) => p.text);
    const [chatUser, chatReply] = r.pick(CHAT[language]);
    let userText;
    if (!fromUser.length) userText = chatUser;
    else {
      const opener = turn > 0 && r.next() < 0.35 ? `${r.pick(U.openers[language])} ` : '';
      userText = opener + fromUser.reduce((so, next) => {
        const glue = r.pick(['\n', ' ', '. ', '\n\n']);
        return so + (glue === '. ' && /[.?!。？！]$/.test(so) ? ' ' : glue) + next;
      });
    }
    const user = { id: `q${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] };

    const keys = Array.from({ length: r.int(2, 4) }, () => r.key());
    if (turn % 3 === 0) keys[1] = r.pick(central);
    if (findingKeys.length && turn % 4 === 1) keys[keys.length - 1] = r.pick(findingKeys);
    const parts = [{ type: 'step-start' }];
    if (turn % 11 === 3) parts.push({ type: 'reasoning', text: A.reasoning[al], state: 'done' });
    parts.push({
      type: 'tool-zotero_items', toolCallId: `call_items_${turn}`, state: 'output-available',
      input: { q: r.pick(['microplastic gut', 'fibres fish', 'FTIR freshwater', 'histology intestine', 'feeding guild plastic']), qmode: 'everything', limit: 25 },
      output: keys.map((k) => apiItem(r, k, al)),
    });
    parts.push({ type: 'step-start' });
    parts.push({ type: 'tool-pdf_fulltext', toolCallId: `call_pdf_${turn}`, state: 'output-available', input: { itemKey: keys[0] }, output: fulltext(turn, keys[0]) });
    if (turn % 6 === 2 && !extras.has(turn)) {
      const k = keys[0];
      const pg = r.int(2, 20);
      parts.push({ type: 'tool-zotero_item_annotations', toolCallId: `call_ann_${turn}`, state: 'output-available', input: { parentItem: k },
        output: [annotation(r, k, r.pick(IDLE_HIGHLIGHTS), '', String(pg)), annotation(r, k, r.pick(IDLE_HIGHLIGHTS), r.pick(['?', 'method ok', 'compare w/ table 4']), String(pg + 1))] });
    }
    parts.push(...(extras.get(turn) ?? []));
    if (turn % 17 === 9) {
      parts.push({ type: 'tool-crossref_lookup', toolCallId: `call_cr_${turn}`, state: 'output-available', input: { doi: `10.1016/j.scitotenv.2021.${r.int(140000, 159999)}` },
        output: { isError: true, content: [{ type: 'text', text: 'Crossref request failed: 429 Too Many Requests (rate limit 50/s, retry after 12 s)' }] } });
    }
    if (turn % 23 === 14) {
      parts.push({ type: 'tool-unpaywall_pdf', toolCallId: `call_oa_${turn}`, state: 'output-error', input: { doi: '10.1016/j.watres.2020.116000' }, errorText: 'fetch failed: ETIMEDOUT api.unpaywall.org:443' });
    }
    const lead = fromUser.length ? r.pick(A.acks[al]) : fromAssistant.length ? r.pick(A.filler[al]) : chatReply;
    parts.push({ type: 'step-start' });
    parts.push({ type: 'text', text: [lead, ...fromAssistant].join('\n\n') });
    script.push({ user, assistant: { id: `b${turn}`, role: 'assistant', parts } });
  }
  return { script, facts };
}
