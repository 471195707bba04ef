// Issue 40, the development corpus: seeded long research sessions (several hundred turns) in English,
// German, Chinese, Japanese, Vietnamese and mixed German/English, written without looking at the
// summarizer's cue lists. Users chat, greet, apologise, make typos, correct themselves; requirements,
// the citation style and the deadline change with few shared words; the assistant states decisions,
// failed approaches, tasks and findings in plain prose (no "Decision:" labels, no "failed"); findings
// come with their item key and page in prose and in annotation tool output; hypotheses are confirmed
// or rejected; tasks get done. Zotero Web API items (with their bibliographic `pages` field), long
// PDF page texts, failing tools. Each fact carries a tag `[XXXX]` so a projection can be searched for
// it. The held-out corpus (untuned-heldout.mjs) uses other phrasings and tool shapes.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'de', 'zh', 'ja', 'vi', 'mixed'];
const ALPHA = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

// {t}: the tag, {x}: a detail, {k}: a key. User phrasings per language ('mixed' is German user text
// with English asides; its assistant answers in English).
const U = {
  goal: {
    en: ['hi! hope ur well. so im writing a review on whether {x} helps with sleep quality in shift nurses, thats the whole point {t}'],
    de: ['hallo! ich schreibe ein review darüber, ob {x} die schlafqualität von schichtpflegekräften verbessert, darum geht es {t}'],
    zh: ['你好！我在写一篇综述，看{x}能不能改善轮班护士的睡眠质量，这就是整个课题 {t}'],
    ja: ['こんにちは。{x}が交代勤務の看護師の睡眠の質を改善するかについてレビューを書いています。テーマはそれです {t}'],
    vi: ['chào bạn! mình đang viết tổng quan xem {x} có cải thiện chất lượng giấc ngủ của điều dưỡng làm ca không, đó là mục tiêu chính {t}'],
    mixed: ['hi, kurz zum thema: review, ob {x} den schlaf von nurses im schichtdienst verbessert {t}'],
  },
  // A requirement and its replacement share almost no words.
  sampleA: {
    en: ['only count trials with 60+ participants {t}'], de: ['nur studien mit mindestens 60 teilnehmenden bitte {t}'],
    zh: ['只算样本量60人以上的试验 {t}'], ja: ['参加者60人以上の試験だけにしてください {t}'],
    vi: ['chỉ tính các thử nghiệm có từ 60 người trở lên {t}'], mixed: ['bitte nur trials mit 60+ leuten {t}'],
  },
  sampleB: {
    en: ['scratch that bit about size, small pilots are welcome as well {t}'], de: ['vergiss das mit der größe, kleine pilotstudien sind auch willkommen {t}'],
    zh: ['规模那条作废，小型预实验也欢迎 {t}'], ja: ['規模の件は取り消し、小さなパイロット研究も歓迎です {t}'],
    vi: ['bỏ yêu cầu về cỡ mẫu nhé, nghiên cứu thí điểm nhỏ cũng được {t}'], mixed: ['das mit der size war nix, pilot studies are fine too {t}'],
  },
  exclude: {
    en: ['keep the melatonin-only arms out of it {t}'], de: ['reine melatonin-arme bleiben draußen {t}'], zh: ['单纯褪黑素组排除在外 {t}'],
    ja: ['メラトニン単独の群は除外で {t}'], vi: ['loại các nhánh chỉ dùng melatonin ra {t}'], mixed: ['melatonin-only arms raus bitte {t}'],
  },
  lateRule: {
    en: ['oh and from now on every summary table needs a risk-of-bias column {t}'], de: ['ab jetzt braucht jede übersichtstabelle eine spalte zum verzerrungsrisiko {t}'],
    zh: ['另外从现在起每个汇总表都要有偏倚风险一栏 {t}'], ja: ['あと、これからは要約表すべてにバイアスリスクの列を入れてください {t}'],
    vi: ['à từ giờ mỗi bảng tóm tắt phải có cột nguy cơ sai lệch {t}'], mixed: ['ab jetzt every summary table mit risk-of-bias spalte {t}'],
  },
  deadline: [
    { en: 'chapter has to be with prof. hale by {x} {t}', de: 'das kapitel muss bis {x} bei prof. hale sein {t}', zh: '这一章要在{x}前交给黄教授 {t}',
      ja: 'この章は{x}までに先生に出します {t}', vi: 'chương này phải gửi thầy trước {x} {t}', mixed: 'kapitel muss bis {x} bei prof. hale sein {t}' },
    { en: 'hale pushed it, we now have until {x} {t}', de: 'hale hat verschoben, jetzt haben wir bis {x} {t}', zh: '黄教授推迟了，现在到{x} {t}',
      ja: '先生が延ばしてくれて、{x}までになりました {t}', vi: 'thầy lùi lại rồi, giờ đến {x} {t}', mixed: 'hale hat verschoben, new date {x} {t}' },
    { en: 'sorry, bad news, its {x} now, conference moved {t}', de: 'sorry, schlechte nachricht, jetzt {x}, die konferenz wurde vorgezogen {t}',
      zh: '抱歉，坏消息，会议提前了，改成{x} {t}', ja: 'すみません、学会が早まったので{x}です {t}', vi: 'xin lỗi, tin xấu, hội nghị dời lên nên là {x} {t}',
      mixed: 'sorry, conference vorgezogen, jetzt {x} {t}' },
  ],
  dates: { en: ['oct 3', 'nov 20', 'nov 6'], de: ['3.10.', '20.11.', '6.11.'], zh: ['10月3日', '11月20日', '11月6日'], ja: ['10月3日', '11月20日', '11月6日'],
    vi: ['3/10', '20/11', '6/11'], mixed: ['3.10.', '20.11.', '6.11.'] },
  style: [
    { en: 'format the refs the apa way {t}', de: 'literaturangaben bitte im apa-format {t}', zh: '参考文献按APA格式 {t}', ja: '文献はAPA形式で {t}',
      vi: 'định dạng tài liệu theo APA {t}', mixed: 'refs bitte im apa-format {t}' },
    { en: 'the journal only takes numbered vancouver refs, redo them {t}', de: 'die zeitschrift nimmt nur nummerierte vancouver-angaben, bitte umstellen {t}',
      zh: '期刊只接受Vancouver编号，全部改一下 {t}', ja: '雑誌はVancouverの番号式しか受け付けないので直してください {t}',
      vi: 'tạp chí chỉ nhận kiểu Vancouver đánh số, sửa lại nhé {t}', mixed: 'journal will nur vancouver numbered refs, umstellen {t}' },
    { en: 'new target journal, harvard referencing {t}', de: 'neue zielzeitschrift, harvard-zitierweise {t}', zh: '换了目标期刊，用Harvard {t}',
      ja: '投稿先が変わったのでHarvard方式で {t}', vi: 'đổi tạp chí mục tiêu, dùng Harvard {t}', mixed: 'neues journal, harvard referencing {t}' },
  ],
  designate: {
    en: ['{k} is my anchor paper, build on it {t}', 'treat {k} as core, i trust that one {t}'], de: ['{k} ist mein ankerpaper {t}', '{k} ist zentral, dem vertraue ich {t}'],
    zh: ['{k}是我的核心文献 {t}', '{k}很关键，我信这篇 {t}'], ja: ['{k}を中心の論文にします {t}', '{k}は核になる文献です {t}'],
    vi: ['{k} là bài nền tảng của mình {t}', '{k} là bài cốt lõi, mình tin bài này {t}'], mixed: ['{k} ist mein anchor paper {t}', '{k} is core, dem vertraue ich {t}'],
  },
  retract: {
    en: ['turns out {k} had a data problem, stop relying on it {t}'], de: ['{k} hatte ein datenproblem, nicht mehr darauf stützen {t}'],
    zh: ['{k}数据有问题，别再依赖它 {t}'], ja: ['{k}はデータに問題があったので、もう頼らないで {t}'], vi: ['{k} có vấn đề dữ liệu, đừng dựa vào nó nữa {t}'],
    mixed: ['{k} hatte data issues, nicht mehr darauf stützen {t}'],
  },
  chatter: {
    en: ['thx!!', 'ok cool', 'sorry was in a meeting', 'lol my cat just walked over the keybaord', 'can you open the next one', 'hm, waht about the second table?', 'good morning :)', 'how long was follow-up there?', 'nice', 'sorry for the typos, on my phone'],
    de: ['danke!!', 'ok super', 'sorry, war im meeting', 'kannst du das nächste öffnen', 'hm, was ist mit der zweiten tabelle?', 'guten morgen :)', 'wie lange war das follow-up?', 'passt', 'sorry für die tippfehler'],
    zh: ['谢谢！！', '好的', '不好意思刚才开会', '帮我打开下一篇', '第二个表呢？', '早上好', '随访多久？', '不错'],
    ja: ['ありがとう！', 'いいですね', 'すみません、会議でした', '次のを開いて', '二つ目の表は？', 'おはようございます', '追跡期間はどれくらい？'],
    vi: ['cảm ơn!!', 'ok hay', 'xin lỗi mình đang họp', 'mở bài tiếp theo giúp mình', 'còn bảng thứ hai thì sao?', 'chào buổi sáng', 'theo dõi bao lâu vậy?'],
    mixed: ['danke!!', 'ok cool', 'sorry, meeting', 'open the next one bitte', 'und die zweite tabelle?', 'morning :)', 'wie lange follow-up?'],
  },
};

// The assistant's state, in plain prose (no labels, no cue words a list would hold).
const A = {
  decision: {
    en: ['I will pool the crossover trials separately from the parallel ones {t}.', 'For sleep quality the PSQI global score is the outcome we report {t}.', 'The meta-analysis uses a random-effects model with Hartung-Knapp adjustment {t}.', 'Actigraphy-only trials go into the narrative part, not the pooled estimate {t}.'],
    de: ['Die Crossover-Studien poole ich getrennt von den Parallelstudien {t}.', 'Als Ergebnis für Schlafqualität berichten wir den PSQI-Gesamtwert {t}.', 'Die Metaanalyse rechnet mit Random Effects und Hartung-Knapp-Korrektur {t}.', 'Reine Aktigraphie-Studien kommen in den narrativen Teil {t}.'],
    zh: ['交叉试验和平行试验分开合并 {t}。', '睡眠质量的结局指标采用PSQI总分 {t}。', '荟萃分析采用随机效应模型并做Hartung-Knapp校正 {t}。', '只有活动记录仪数据的试验放入叙述部分 {t}。'],
    ja: ['クロスオーバー試験は並行群間試験と分けて統合します {t}。', '睡眠の質の指標はPSQI総合得点で報告します {t}。', 'メタ分析はHartung-Knapp補正付きのランダム効果モデルで行います {t}。', 'アクチグラフィのみの試験は記述的な部分に回します {t}。'],
    vi: ['Các thử nghiệm chéo sẽ gộp riêng với thử nghiệm song song {t}.', 'Chất lượng giấc ngủ báo cáo theo tổng điểm PSQI {t}.', 'Phân tích gộp dùng mô hình hiệu ứng ngẫu nhiên có hiệu chỉnh Hartung-Knapp {t}.', 'Các thử nghiệm chỉ có actigraphy đưa vào phần tường thuật {t}.'],
  },
  failed: {
    en: ['Querying Embase through the library proxy brought back an empty page twice, so that route is closed for us {t}.', 'The CINAHL export came back as a corrupt file three times; I have set that source aside {t}.', 'Scraping the trial registry for sleep outcomes produced only duplicates of what we had {t}.'],
    de: ['Die Embase-Abfrage über den Bibliotheksproxy kam zweimal leer zurück, dieser Weg ist für uns zu {t}.', 'Der CINAHL-Export war dreimal eine kaputte Datei; die Quelle lege ich beiseite {t}.', 'Das Auslesen des Studienregisters brachte nur Dubletten dessen, was wir schon hatten {t}.'],
    zh: ['通过图书馆代理查询Embase两次都是空页面，这条路走不通了 {t}。', 'CINAHL导出三次都是损坏的文件，这个来源先放下 {t}。', '抓取试验注册库的睡眠结局只得到了重复的条目 {t}。'],
    ja: ['図書館プロキシ経由のEmbase検索は二度とも空のページで、この経路は使えません {t}。', 'CINAHLのエクスポートは三回とも壊れたファイルで、この情報源は保留にしました {t}。', '試験登録サイトから睡眠の結果を集めても重複しか出てきませんでした {t}。'],
    vi: ['Tra Embase qua proxy thư viện hai lần đều ra trang trống, con đường đó coi như đóng {t}.', 'Bản xuất CINAHL ba lần đều là tệp hỏng; nguồn này tạm gác lại {t}.', 'Quét sổ đăng ký thử nghiệm chỉ ra các bản trùng với cái đã có {t}.'],
  },
  task: {
    en: ['Next I pull the supplementary PSQI tables of the Okafor trial {t}.', 'The GRADE table for the secondary outcomes is still on my list {t}.', 'I owe you a check of the dropout rates in the two Korean trials {t}.', 'The forest plot for the subgroup by shift length comes after that {t}.'],
    de: ['Als Nächstes hole ich die PSQI-Zusatztabellen der Okafor-Studie {t}.', 'Die GRADE-Tabelle für die sekundären Endpunkte steht noch auf meiner Liste {t}.', 'Ich schulde dir die Prüfung der Abbruchraten in den zwei koreanischen Studien {t}.', 'Danach kommt der Forest-Plot für die Untergruppe nach Schichtlänge {t}.'],
    zh: ['接下来我去取Okafor试验的PSQI补充表 {t}。', '次要结局的GRADE表还在我的清单上 {t}。', '两项韩国试验的脱落率我还要帮你核对 {t}。', '按班次长度分组的森林图排在后面 {t}。'],
    ja: ['次にOkafor試験のPSQI補足表を取ってきます {t}。', '副次評価項目のGRADE表がまだ残っています {t}。', '韓国の二試験の脱落率の確認をまだしていません {t}。', 'その後で勤務時間別サブグループのフォレストプロットを作ります {t}。'],
    vi: ['Tiếp theo tôi lấy các bảng PSQI bổ sung của thử nghiệm Okafor {t}.', 'Bảng GRADE cho các kết cục phụ vẫn còn trong danh sách của tôi {t}.', 'Tôi còn nợ bạn phần kiểm tra tỷ lệ bỏ cuộc ở hai thử nghiệm Hàn Quốc {t}.', 'Biểu đồ forest cho phân nhóm theo độ dài ca làm sau đó {t}.'],
  },
  taskDone: {
    en: ['The Okafor supplementary PSQI tables are in the extraction sheet now {t}.', 'Dropout rates of both Korean trials are checked: 12% and 9% {t}.'],
    de: ['Die PSQI-Zusatztabellen von Okafor sind jetzt im Extraktionsblatt {t}.', 'Die Abbruchraten beider koreanischer Studien sind geprüft: 12% und 9% {t}.'],
    zh: ['Okafor的PSQI补充表已经录入提取表 {t}。', '两项韩国试验的脱落率已核对：12%和9% {t}。'],
    ja: ['OkaforのPSQI補足表は抽出シートに入れました {t}。', '韓国の二試験の脱落率は確認済みです：12%と9% {t}。'],
    vi: ['Các bảng PSQI bổ sung của Okafor đã vào bảng trích xuất {t}.', 'Tỷ lệ bỏ cuộc của hai thử nghiệm Hàn Quốc đã kiểm tra: 12% và 9% {t}.'],
  },
  hypothesis: {
    en: ['One reading is that the benefit comes from longer recovery sleep on off days {t}.', 'The effect could be larger for night-only shifts than for rotating ones {t}.'],
    de: ['Eine Lesart ist, dass der Nutzen aus längerem Erholungsschlaf an freien Tagen kommt {t}.', 'Der Effekt könnte bei reinen Nachtschichten größer sein als bei Wechselschichten {t}.'],
    zh: ['一种解释是好处来自休息日更长的恢复性睡眠 {t}。', '纯夜班的效果也许比轮班更大 {t}。'],
    ja: ['一つの読み方は、効果が休日の長い回復睡眠から来るというものです {t}。', '夜勤専従の方が交代制より効果が大きいのではないか {t}。'],
    vi: ['Một cách hiểu là lợi ích đến từ giấc ngủ hồi phục dài hơn vào ngày nghỉ {t}.', 'Hiệu quả có lẽ lớn hơn ở ca đêm cố định so với ca xoay vòng {t}.'],
  },
  confirm: {
    en: ['The day-off diaries settle it: recovery sleep on off days carries the benefit {t}.'], de: ['Die Tagebücher der freien Tage klären es: der Erholungsschlaf trägt den Nutzen {t}.'],
    zh: ['休息日睡眠日记证实了：好处来自恢复性睡眠 {t}。'], ja: ['休日の睡眠日誌で確かめられました：効果は回復睡眠によるものです {t}。'],
    vi: ['Nhật ký ngày nghỉ cho thấy rõ: lợi ích đến từ giấc ngủ hồi phục {t}.'],
  },
  reject: {
    en: ['Night-only and rotating shifts show the same effect size in the subgroup table, so that idea is off the table {t}.'],
    de: ['Reine Nacht- und Wechselschichten zeigen in der Untergruppentabelle denselben Effekt, die Idee ist vom Tisch {t}.'],
    zh: ['亚组表里纯夜班和轮班效应量相同，这个想法不成立 {t}。'], ja: ['サブグループ表では夜勤専従と交代制で効果量が同じで、この考えは外れました {t}。'],
    vi: ['Bảng phân nhóm cho thấy ca đêm cố định và ca xoay vòng có cùng cỡ hiệu ứng, ý đó bị loại {t}.'],
  },
  finding: {
    en: ['{s} et al. ({k}) report on p. {p} that sleep efficiency rose by {n} points {t}.', 'In {k}, page {p}, total sleep time went up {n} minutes {t}.'],
    de: ['{s} et al. ({k}) berichten auf S. {p}, dass die Schlafeffizienz um {n} Punkte stieg {t}.', 'In {k}, Seite {p}, stieg die Gesamtschlafzeit um {n} Minuten {t}.'],
    zh: ['{s}等（{k}）第{p}页报告睡眠效率提高了{n}分 {t}。', '{k}第{p}页显示总睡眠时间增加了{n}分钟 {t}。'],
    ja: ['{s}ら（{k}）の{p}ページでは睡眠効率が{n}ポイント上昇しました {t}。', '{k}の{p}ページによると総睡眠時間が{n}分増えました {t}。'],
    vi: ['{s} và cộng sự ({k}) ở trang {p} báo cáo hiệu quả giấc ngủ tăng {n} điểm {t}.', 'Trong {k}, trang {p}, tổng thời gian ngủ tăng {n} phút {t}.'],
  },
  answer: {
    en: ['Here is the next paper.', 'The methods section describes a two-arm design with a four-week run-in.', 'I opened the PDF and read the results.', 'Sorry for the delay, the server was slow.'],
    de: ['Hier ist das nächste Paper.', 'Der Methodenteil beschreibt ein zweiarmiges Design mit vier Wochen Vorlauf.', 'Ich habe das PDF geöffnet und die Ergebnisse gelesen.'],
    zh: ['这是下一篇文献。', '方法部分描述了双臂设计和四周的导入期。', '我打开了PDF并读了结果部分。'],
    ja: ['次の論文です。', '方法の節では4週間の導入期間を伴う二群デザインが説明されています。', 'PDFを開いて結果を読みました。'],
    vi: ['Đây là bài tiếp theo.', 'Phần phương pháp mô tả thiết kế hai nhánh với bốn tuần chạy thử.', 'Tôi đã mở PDF và đọc phần kết quả.'],
  },
};
const assistantLanguage = (language) => (language === 'mixed' ? 'en' : language);
const SURNAMES = ['Okafor', 'Hale', 'Park', 'Lindqvist', 'Moreau', 'Sato', 'Tran', 'Becker'];
const INTERVENTIONS = { en: 'bright-light therapy', de: 'lichttherapie', zh: '强光疗法', ja: '高照度光療法', vi: 'liệu pháp ánh sáng', mixed: 'bright-light therapy' };
const PAGE = 'Participants in the intervention arm reported fewer awakenings after night shifts, although adherence declined in the third week and several units changed their rota during the study period. ';

function webItem(r, key) {
  const surname = r.pick(SURNAMES);
  return {
    key, version: r.int(10, 9000), library: { type: 'user', id: 90210, name: 'nurse-sleep' },
    meta: { creatorSummary: `${surname} et al.`, parsedDate: String(r.int(2005, 2025)), numChildren: r.int(0, 3) },
    data: { key, itemType: 'journalArticle', title: `Light exposure and sleep in ${r.int(20, 400)} shift nurses: a randomised trial`,
      creators: [{ creatorType: 'author', lastName: surname, firstName: 'J.' }], publicationTitle: 'Sleep Health',
      volume: String(r.int(1, 40)), pages: `${r.int(100, 900)}–${r.int(901, 999)}`, date: String(r.int(2005, 2025)), DOI: `10.1016/j.sleh.${r.int(1000, 9999)}` },
  };
}

/**
 * One session: `{ script: [{ user, assistant }], facts }`. A fact is `{ kind, turn, probe, key?, page?,
 * staleBy? }`; `staleBy` is the probe of the fact that supersedes, completes or rejects it.
 */
export function makeUntunedSession(seed, language, turns, window) {
  const r = rng(seed * 48271 + LANGUAGES.indexOf(language) * 7907 + window);
  const al = assistantLanguage(language);
  const at = (pct) => Math.max(1, Math.floor((pct * turns) / 100));
  const extras = new Map(); // turn -> tool parts to add
  const tag = () => `[${Array.from({ length: 4 }, () => ALPHA[r.int(0, ALPHA.length - 1)]).join('')}]`;
  const { facts, plan, plant, chain } = factPlanner(tag, at);
  const supersede = (older, newer) => { older.staleBy = newer.probe; };

  plant('goal', 0, 'user', U.goal[language][0], { x: INTERVENTIONS[language] });
  const a = plant('constraint', at(8), 'user', U.sampleA[language][0]);
  supersede(a, plant('constraint', at(46), 'user', U.sampleB[language][0]));
  plant('constraint', at(19), 'user', U.exclude[language][0]);
  plant('constraint', at(62), 'user', U.lateRule[language][0]);
  chain('deadline', [11, 41, 77], U.deadline.map((d) => d[language]), (i) => ({ x: U.dates[language][i] }));
  chain('style', [4, 37, 71], U.style.map((s) => s[language]));
  const anchor = r.key();
  const core = r.key();
  const d1 = plant('designation', at(15), 'user', U.designate[language][0], { k: anchor }, { key: anchor });
  plant('designation', at(31), 'user', U.designate[language][1], { k: core }, { key: core });
  supersede(d1, plant('retraction', at(66), 'user', U.retract[language][0], { k: anchor }, { key: anchor }));

  [17, 51, 83].forEach((pct, i) => plant('failed', at(pct), 'assistant', A.failed[al][i]));
  [24, 44, 69, 88].forEach((pct, i) => plant('decision', at(pct), 'assistant', A.decision[al][i]));
  const tasks = [21, 36, 57, 86].map((pct, i) => plant('task', at(pct), 'assistant', A.task[al][i]));
  supersede(tasks[0], plant('task-done', at(39), 'assistant', A.taskDone[al][0]));
  supersede(tasks[2], plant('task-done', at(74), 'assistant', A.taskDone[al][1]));
  const h1 = plant('hypothesis', at(27), 'assistant', A.hypothesis[al][0]);
  const h2 = plant('hypothesis', at(34), 'assistant', A.hypothesis[al][1]);
  supersede(h1, plant('hypothesis-closed', at(55), 'assistant', A.confirm[al][0]));
  supersede(h2, plant('hypothesis-closed', at(73), 'assistant', A.reject[al][0]));

  const findingKeys = [];
  [13, 29, 48, 64, 80, 92].forEach((pct, i) => {
    const key = r.key();
    findingKeys.push(key);
    const p = r.int(3, 480);
    const n = r.int(3, 60);
    if (i % 2 === 0) {
      plant('finding', at(pct), 'assistant', A.finding[al][i % 4 === 0 ? 0 : 1], { k: key, p, n, s: r.pick(SURNAMES) }, { key, page: String(p) });
    } else {
      // The finding is in an annotation the tool returns; the assistant only points at it.
      const probe = tag();
      facts.push({ kind: 'finding', turn: at(pct), probe, key, page: String(p) });
      extras.set(at(pct), [...(extras.get(at(pct)) ?? []), {
        type: 'tool-zoteroAnnotations', toolCallId: `ann${pct}`, state: 'output-available', input: { itemKey: key },
        output: [{ key: r.key(), parentItem: key, annotationType: 'highlight', pageLabel: String(p),
          annotationText: `Sleep onset latency fell by ${n} minutes in the light arm ${probe}.`, annotationComment: '', color: '#ffd400' }],
      }]);
    }
  });

  const pageChars = Math.max(1_800, Math.floor(window * 0.16));
  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const planted = plan.get(turn) ?? [];
    const userBits = planted.filter((p) => p.who === 'user').map((p) => p.text);
    const userText = userBits.length ? (r.next() < 0.3 ? `${r.pick(U.chatter[language])} ` : '') + userBits.join('. ') : r.pick(U.chatter[language]);
    const user = { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] };
    const keys = [r.key(), r.key(), anchor, core, ...(findingKeys.length ? [r.pick(findingKeys)] : [])];
    const parts = [
      { type: 'step-start' },
      { type: 'tool-zoteroSearch', toolCallId: `s${turn}`, state: 'output-available', input: { q: `sleep nurses ${turn}` }, output: keys.map((k) => webItem(r, k)) },
      { type: 'tool-readPdfPage', toolCallId: `p${turn}`, state: 'output-available', input: { attachmentKey: keys[0], pageIndex: turn % 25 },
        output: { attachmentKey: keys[0], pageLabel: String(100 + (turn % 25)), text: PAGE.repeat(Math.ceil(pageChars / PAGE.length)).slice(0, pageChars) } },
      ...(extras.get(turn) ?? []),
    ];
    if (turn % 23 === 7) parts.push({ type: 'tool-fetchFulltext', toolCallId: `f${turn}`, state: 'output-error', input: { key: keys[1] }, errorText: 'ETIMEDOUT after 30000 ms' });
    const said = planted.filter((p) => p.who === 'assistant').map((p) => p.text);
    parts.push({ type: 'text', text: [r.pick(A.answer[al]), ...said].join(' ') });
    script.push({ user, assistant: { id: `a${turn}`, role: 'assistant', parts } });
  }
  return { script, facts };
}
