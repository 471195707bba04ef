// Issue 40, the held-out corpus: written before the rules were changed and not run while changing
// them. Another topic (urban heat and child asthma), other phrasings, other tool shapes: a Zotero
// MCP-style search that answers in markdown text, PDF pages as `{ page, content }`, annotations as
// text lines "“quote” (KEY, p. N)", notes, failing tools with JSON error outputs. Same fact kinds and
// the same fact record as untuned-sessions.mjs; tags look like `⟨ABCD⟩`.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'de', 'zh', 'ja', 'vi', 'mixed'];
const ALPHA = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

const U = {
  goal: {
    en: 'hey there. quick context before we start: the thesis chapter asks how heatwaves in cities drive asthma admissions in kids under 12 {t}',
    de: 'moin! kurz zum kontext: mein kapitel fragt, wie hitzewellen in städten die asthma-einweisungen von kindern unter 12 treiben {t}',
    zh: '嗨，先说背景：我的论文章节研究城市热浪如何导致12岁以下儿童哮喘住院 {t}',
    ja: 'どうも。背景だけ先に：論文の章では都市の熱波が12歳未満の子どもの喘息入院をどう増やすかを扱います {t}',
    vi: 'chào, nói qua bối cảnh: chương luận văn của mình hỏi sóng nhiệt đô thị làm tăng nhập viện hen ở trẻ dưới 12 tuổi thế nào {t}',
    mixed: 'hey! context: mein chapter ist über heatwaves in cities und asthma admissions bei kids unter 12 {t}',
  },
  rule1: {
    en: 'we stick to time-series and case-crossover designs {t}', de: 'wir bleiben bei zeitreihen- und case-crossover-designs {t}',
    zh: '设计上限定为时间序列和病例交叉 {t}', ja: '研究デザインは時系列とケースクロスオーバーに絞ります {t}',
    vi: 'chỉ giữ thiết kế chuỗi thời gian và case-crossover {t}', mixed: 'designs: nur time-series und case-crossover {t}',
  },
  rule1b: {
    en: 'reviewer 2 insists, so cohort designs are in too now {t}', de: 'gutachter 2 besteht drauf, kohortenstudien jetzt auch rein {t}',
    zh: '二审坚持，队列研究现在也纳入 {t}', ja: '査読者2の強い要望で、コホート研究も含めることになりました {t}',
    vi: 'phản biện 2 đòi, nên giờ nhận cả nghiên cứu đoàn hệ {t}', mixed: 'reviewer 2 will es, cohort studies jetzt auch drin {t}',
  },
  rule2: {
    en: 'nothing from before 2000 pls {t}', de: 'nichts von vor 2000 bitte {t}', zh: '2000年以前的都不要 {t}', ja: '2000年より前のものは不要です {t}',
    vi: 'đừng lấy gì trước năm 2000 {t}', mixed: 'nothing before 2000 bitte {t}',
  },
  rule3: {
    en: 'figures have to be greyscale-safe, the press prints b/w {t}', de: 'abbildungen müssen graustufentauglich sein, der verlag druckt s/w {t}',
    zh: '图要在灰度下也能看清，出版社黑白印刷 {t}', ja: '図はグレースケールでも読めるように、出版社は白黒印刷です {t}',
    vi: 'hình phải xem được ở thang xám, nhà xuất bản in đen trắng {t}', mixed: 'figures müssen greyscale-safe sein, verlag druckt s/w {t}',
  },
  deadlines: [
    { en: 'committee meeting is {x}, draft goes out a week before {t}', de: 'komiteesitzung ist am {x}, entwurf eine woche vorher raus {t}', zh: '委员会会议在{x}，草稿提前一周发出 {t}',
      ja: '委員会は{x}で、原稿はその一週間前に送ります {t}', vi: 'họp hội đồng ngày {x}, bản thảo gửi trước một tuần {t}', mixed: 'committee meeting am {x}, draft eine woche vorher {t}' },
    { en: 'committee rescheduled to {x} {t}', de: 'komitee verlegt auf {x} {t}', zh: '委员会改期到{x} {t}', ja: '委員会は{x}に変更 {t}', vi: 'hội đồng dời sang {x} {t}', mixed: 'committee verlegt auf {x} {t}' },
    { en: 'argh. {x}. dont ask {t}', de: 'argh. {x}. frag nicht {t}', zh: '唉，{x}，别问 {t}', ja: 'はあ、{x}です。聞かないで {t}', vi: 'trời ơi, {x}. đừng hỏi {t}', mixed: 'argh. {x}. frag nicht {t}' },
  ],
  dates: { en: ['feb 9', 'mar 16', 'feb 27'], de: ['9. feb', '16. märz', '27. feb'], zh: ['2月9日', '3月16日', '2月27日'], ja: ['2月9日', '3月16日', '2月27日'],
    vi: ['9/2', '16/3', '27/2'], mixed: ['9. feb', '16. märz', '27. feb'] },
  styles: [
    { en: 'uni template wants ieee brackets {t}', de: 'die uni-vorlage will ieee-klammern {t}', zh: '学校模板要求IEEE方括号 {t}', ja: '大学のテンプレートはIEEEの角括弧です {t}', vi: 'mẫu của trường yêu cầu kiểu IEEE {t}', mixed: 'uni template will ieee brackets {t}' },
    { en: 'nope, they changed the template, mla 9 now {t}', de: 'nee, neue vorlage, jetzt mla 9 {t}', zh: '模板改了，现在用MLA 9 {t}', ja: 'テンプレートが変わってMLA 9になりました {t}', vi: 'mẫu đổi rồi, giờ là MLA 9 {t}', mixed: 'template geändert, mla 9 jetzt {t}' },
    { en: 'final answer from the grad office: ama 11 {t}', de: 'endgültig vom prüfungsamt: ama 11 {t}', zh: '研究生院最终定了：AMA 11 {t}', ja: '大学院事務の最終回答はAMA 11です {t}', vi: 'phòng sau đại học chốt: AMA 11 {t}', mixed: 'final vom grad office: ama 11 {t}' },
  ],
  pin: {
    en: ['lean on {k} for the exposure definition {t}', 'i want {k} front and centre {t}'], de: ['für die expositionsdefinition nehmen wir {k} {t}', '{k} soll ganz vorne stehen {t}'],
    zh: ['暴露定义参照{k} {t}', '{k}要放在最显眼的位置 {t}'], ja: ['曝露の定義は{k}に従います {t}', '{k}を前面に出したい {t}'],
    vi: ['định nghĩa phơi nhiễm dựa vào {k} {t}', 'mình muốn {k} ở vị trí trung tâm {t}'], mixed: ['für exposure definition nehmen wir {k} {t}', '{k} soll front and centre sein {t}'],
  },
  unpin: {
    en: 'forget {k}, my supervisor says its methodologically weak {t}', de: 'vergiss {k}, laut betreuer methodisch schwach {t}', zh: '{k}不用了，导师说方法上站不住 {t}',
    ja: '{k}はやめます、指導教員が方法論的に弱いと {t}', vi: 'bỏ {k} đi, thầy nói phương pháp yếu {t}', mixed: 'vergiss {k}, supervisor sagt methodisch weak {t}',
  },
  chatter: {
    en: ['k', 'cool cool', 'brb coffee', 'what was the lag structure in that one', 'can u show me the abstract', 'ugh wifi', 'perfect ty', 'next pls', 'hmm not sure abotu that'],
    de: ['ok', 'cool', 'kurz kaffee', 'welche lag-struktur hatten die nochmal', 'zeig mal das abstract', 'wlan spinnt', 'perfekt danke', 'weiter bitte'],
    zh: ['嗯', '好', '我去倒杯咖啡', '那篇的滞后结构是什么', '给我看摘要', '网络好慢', '完美谢谢', '下一篇'],
    ja: ['はい', 'いいね', 'コーヒー取ってきます', 'あの論文のラグ構造は？', '要旨を見せて', 'Wi-Fiが遅い', '完璧、ありがとう'],
    vi: ['ừ', 'hay', 'đi pha cà phê', 'cấu trúc độ trễ bài đó là gì', 'cho xem tóm tắt', 'wifi chậm quá', 'tuyệt cảm ơn'],
    mixed: ['ok', 'cool cool', 'kurz coffee', 'welche lag structure nochmal', 'zeig mal abstract', 'wifi spinnt', 'perfekt thx'],
  },
};

const A = {
  decisions: {
    en: ['Heat exposure will be defined as the daily maximum apparent temperature {t}.', 'We report relative risks per 1 °C above the city-specific threshold {t}.', 'Studies pooling several cities get a separate sensitivity analysis {t}.', 'Lags up to 7 days are summarised; longer ones are only described {t}.'],
    de: ['Hitzeexposition definieren wir über die tägliche maximale gefühlte Temperatur {t}.', 'Wir berichten relative Risiken pro 1 °C über der stadtspezifischen Schwelle {t}.', 'Mehrstädtestudien bekommen eine eigene Sensitivitätsanalyse {t}.', 'Lags bis 7 Tage werden zusammengefasst, längere nur beschrieben {t}.'],
    zh: ['热暴露按日最高体感温度定义 {t}。', '报告城市特定阈值以上每升高1 °C的相对风险 {t}。', '多城市研究单独做敏感性分析 {t}。', '7天以内的滞后做汇总，更长的只做描述 {t}。'],
    ja: ['熱曝露は日最高体感温度で定義します {t}。', '都市別閾値を1 °C超えるごとの相対リスクを報告します {t}。', '複数都市の研究は別に感度分析を行います {t}。', '7日までのラグは要約し、それ以上は記述のみです {t}。'],
    vi: ['Phơi nhiễm nhiệt được định nghĩa theo nhiệt độ cảm nhận tối đa hằng ngày {t}.', 'Báo cáo nguy cơ tương đối cho mỗi 1 °C trên ngưỡng của từng thành phố {t}.', 'Nghiên cứu gộp nhiều thành phố có phân tích độ nhạy riêng {t}.', 'Độ trễ đến 7 ngày được tổng hợp, dài hơn chỉ mô tả {t}.'],
  },
  dead: {
    en: ['The NOAA station download stops at 2015 for half the cities, which leaves us without exposure data there {t}.', 'Geocoding the hospital addresses put a third of them in the sea; we are not using that layer {t}.', 'The EU hospital discharge portal only hands out national totals, nothing at city level {t}.'],
    de: ['Der NOAA-Download endet für die Hälfte der Städte 2015, dort fehlen uns also Expositionsdaten {t}.', 'Das Geokodieren der Klinikadressen hat ein Drittel ins Meer gesetzt; die Ebene nutzen wir nicht {t}.', 'Das EU-Entlassungsportal gibt nur nationale Summen heraus, nichts auf Stadtebene {t}.'],
    zh: ['NOAA气象站数据一半城市只到2015年，那些城市没有暴露数据 {t}。', '医院地址地理编码有三分之一落到海里，这一层不用了 {t}。', '欧盟出院数据门户只给全国总数，没有城市层面的 {t}。'],
    ja: ['NOAAの観測所データは半数の都市で2015年までしかなく、そこでは曝露データがありません {t}。', '病院住所のジオコーディングで三分の一が海上になり、そのレイヤーは使いません {t}。', 'EUの退院データポータルは国全体の合計しか出さず、都市単位はありません {t}。'],
    vi: ['Dữ liệu trạm NOAA dừng ở 2015 cho một nửa số thành phố, nên ở đó không có dữ liệu phơi nhiễm {t}.', 'Mã hóa địa lý địa chỉ bệnh viện đặt một phần ba xuống biển; lớp đó không dùng {t}.', 'Cổng dữ liệu xuất viện của EU chỉ có tổng quốc gia, không có cấp thành phố {t}.'],
  },
  todo: {
    en: ['Tomorrow: the lag-response curves from the Madrid paper {t}.', 'You will get the heat-threshold table per city from me {t}.', 'The PRISMA flow numbers have to be recounted after the cohort change {t}.', 'After that comes the risk-of-bias pass on the case-crossover studies {t}.'],
    de: ['Morgen: die Lag-Response-Kurven aus dem Madrid-Paper {t}.', 'Die Tabelle der Hitzeschwellen pro Stadt bekommst du von mir {t}.', 'Die PRISMA-Zahlen müssen nach der Kohortenänderung neu gezählt werden {t}.', 'Danach kommt die Bias-Bewertung der Case-Crossover-Studien {t}.'],
    zh: ['明天：马德里那篇的滞后-反应曲线 {t}。', '每个城市的热阈值表我会给你 {t}。', '纳入队列后PRISMA流程图的数字要重新数 {t}。', '之后是病例交叉研究的偏倚评估 {t}。'],
    ja: ['明日はマドリード論文のラグ反応曲線です {t}。', '都市ごとの熱閾値の表をお渡しします {t}。', 'コホート追加に伴いPRISMAの数を数え直す必要があります {t}。', 'その後でケースクロスオーバー研究のバイアス評価です {t}。'],
    vi: ['Ngày mai: các đường cong độ trễ-đáp ứng từ bài Madrid {t}.', 'Bảng ngưỡng nhiệt theo thành phố tôi sẽ gửi bạn {t}.', 'Số liệu PRISMA phải đếm lại sau khi thêm đoàn hệ {t}.', 'Sau đó là đánh giá sai lệch các nghiên cứu case-crossover {t}.'],
  },
  todoDone: {
    en: ['Madrid lag-response curves: extracted, see sheet 3 {t}.', 'PRISMA numbers recounted, 41 studies now {t}.'],
    de: ['Madrid-Lag-Kurven: extrahiert, siehe Blatt 3 {t}.', 'PRISMA neu gezählt, jetzt 41 Studien {t}.'],
    zh: ['马德里滞后曲线：已提取，见表3 {t}。', 'PRISMA已重新计数，现在41项研究 {t}。'],
    ja: ['マドリードのラグ曲線：抽出済み、シート3参照 {t}。', 'PRISMAを数え直し、現在41研究です {t}。'],
    vi: ['Đường cong độ trễ Madrid: đã trích, xem sheet 3 {t}.', 'Đã đếm lại PRISMA, giờ là 41 nghiên cứu {t}.'],
  },
  guess: {
    en: ['Humidity may explain part of the heat effect in coastal cities {t}.', 'My bet is that the effect is driven by ozone peaks on hot days {t}.'],
    de: ['Luftfeuchte erklärt vielleicht einen Teil des Hitzeeffekts in Küstenstädten {t}.', 'Ich tippe darauf, dass Ozonspitzen an heißen Tagen den Effekt treiben {t}.'],
    zh: ['湿度也许解释了沿海城市热效应的一部分 {t}。', '我猜效应是由炎热日的臭氧峰值驱动的 {t}。'],
    ja: ['沿岸都市では湿度が熱の影響の一部を説明するかもしれません {t}。', '暑い日のオゾンのピークが効果を生んでいると見ています {t}。'],
    vi: ['Độ ẩm có thể giải thích một phần tác động nhiệt ở các thành phố ven biển {t}.', 'Tôi đoán tác động là do đỉnh ozone vào ngày nóng {t}.'],
  },
  guessYes: { en: 'Adjusting for humidity halves the coastal estimate, which settles that question {t}.', de: 'Mit Luftfeuchte-Adjustierung halbiert sich der Küstenschätzer, damit ist die Frage geklärt {t}.', zh: '调整湿度后沿海估计值减半，问题解决了 {t}。', ja: '湿度で調整すると沿岸の推定値が半分になり、この問題は決着です {t}。', vi: 'Hiệu chỉnh độ ẩm làm ước lượng ven biển giảm một nửa, vậy là rõ {t}.' },
  guessNo: { en: 'With ozone in the model the heat estimate does not move at all; scrap the ozone explanation {t}.', de: 'Mit Ozon im Modell bewegt sich der Hitzeschätzer gar nicht; die Ozon-Erklärung ist erledigt {t}.', zh: '模型里加入臭氧后热效应估计完全不变，臭氧的解释作废 {t}。', ja: 'オゾンをモデルに入れても熱の推定値は全く動かず、オゾン説は捨てます {t}。', vi: 'Thêm ozone vào mô hình, ước lượng nhiệt không đổi; bỏ giải thích ozone {t}.' },
  prose: {
    en: ['{k} shows on page {p} a {n}% rise in admissions per degree {t}.', 'According to {k} (p. {p}) admissions peak {n} hours after the heat maximum {t}.'],
    de: ['{k} zeigt auf Seite {p} einen Anstieg der Einweisungen um {n}% pro Grad {t}.', 'Laut {k} (S. {p}) erreichen die Einweisungen {n} Stunden nach dem Hitzemaximum ihren Gipfel {t}.'],
    zh: ['{k}第{p}页显示每升高一度住院增加{n}% {t}。', '据{k}（第{p}页），住院在最高气温后{n}小时达到峰值 {t}。'],
    ja: ['{k}の{p}ページでは1度あたり入院が{n}%増えています {t}。', '{k}（{p}頁）によると入院は最高気温の{n}時間後にピークです {t}。'],
    vi: ['{k} ở trang {p} cho thấy nhập viện tăng {n}% mỗi độ {t}.', 'Theo {k} (tr. {p}) nhập viện đạt đỉnh {n} giờ sau nhiệt độ cao nhất {t}.'],
  },
  filler: {
    en: ['Pulled the record.', 'Here are the matches from your library.', 'Reading on.', 'That one is a conference abstract, skipping its details.'],
    de: ['Eintrag geholt.', 'Hier die Treffer aus deiner Bibliothek.', 'Ich lese weiter.'],
    zh: ['记录已取回。', '这是你文献库里的匹配结果。', '继续阅读。'],
    ja: ['レコードを取得しました。', 'ライブラリの一致結果です。', '読み進めます。'],
    vi: ['Đã lấy bản ghi.', 'Đây là các kết quả trong thư viện của bạn.', 'Đọc tiếp.'],
  },
};
const NAMES = ['Gasparrini', 'Xu', 'Winquist', 'Iñiguez', 'Lam', 'Fuhrmann', 'Nakamura', 'Pham'];
const PAGE = 'Daily admissions were modelled with a distributed lag non-linear model; the city-specific minimum morbidity temperature was estimated from the full series before any stratification by age. ';

function mcpSearchText(r, keys) {
  return keys.map((k, i) => `${i + 1}. **${r.pick(NAMES)} (${r.int(2001, 2025)})** Heat and paediatric asthma admissions in ${r.int(3, 40)} cities\n   - Item key: \`${k}\`\n   - Type: journalArticle · Pages: ${r.int(10, 500)}-${r.int(501, 999)} · Journal: Environ Health Perspect`).join('\n');
}

export function makeHeldoutSession(seed, language, turns, window) {
  const r = rng(seed * 69621 + LANGUAGES.indexOf(language) * 3571 + window * 3);
  const al = language === 'mixed' ? 'en' : language;
  const at = (pct) => Math.max(1, Math.floor((pct * turns) / 100));
  const extras = new Map();
  const tag = () => `⟨${Array.from({ length: 4 }, () => ALPHA[r.int(0, ALPHA.length - 1)]).join('')}⟩`;
  const { facts, plan, plant, chain } = factPlanner(tag, at);
  plant('goal', 0, 'user', U.goal[language]);
  chain('constraint', [6, 53], [U.rule1[language], U.rule1b[language]]);
  plant('constraint', at(23), 'user', U.rule2[language]);
  plant('constraint', at(58), 'user', U.rule3[language]);
  chain('deadline', [9, 39, 81], U.deadlines.map((d) => d[language]), (i) => ({ x: U.dates[language][i] }));
  chain('style', [3, 33, 68], U.styles.map((s) => s[language]));
  const pinned = r.key();
  const kept = r.key();
  const p1 = plant('designation', at(12), 'user', U.pin[language][0], { k: pinned }, { key: pinned });
  plant('designation', at(26), 'user', U.pin[language][1], { k: kept }, { key: kept });
  p1.staleBy = plant('retraction', at(61), 'user', U.unpin[language], { k: pinned }, { key: pinned }).probe;

  [14, 47, 79].forEach((pct, i) => plant('failed', at(pct), 'assistant', A.dead[al][i]));
  [20, 42, 63, 90].forEach((pct, i) => plant('decision', at(pct), 'assistant', A.decisions[al][i]));
  const todos = [18, 35, 54, 84].map((pct, i) => plant('task', at(pct), 'assistant', A.todo[al][i]));
  todos[0].staleBy = plant('task-done', at(31), 'assistant', A.todoDone[al][0]).probe;
  todos[2].staleBy = plant('task-done', at(70), 'assistant', A.todoDone[al][1]).probe;
  const g1 = plant('hypothesis', at(25), 'assistant', A.guess[al][0]);
  const g2 = plant('hypothesis', at(37), 'assistant', A.guess[al][1]);
  g1.staleBy = plant('hypothesis-closed', at(60), 'assistant', A.guessYes[al]).probe;
  g2.staleBy = plant('hypothesis-closed', at(76), 'assistant', A.guessNo[al]).probe;

  const findingKeys = [];
  [10, 28, 45, 66, 82, 94].forEach((pct, i) => {
    const key = r.key();
    findingKeys.push(key);
    const p = r.int(2, 350);
    const n = r.int(2, 48);
    if (i % 2 === 1) {
      plant('finding', at(pct), 'assistant', A.prose[al][i % 4 === 1 ? 0 : 1], { k: key, p, n }, { key, page: String(p) });
    } else {
      // In tool text: an annotation listing written as text lines.
      const probe = tag();
      facts.push({ kind: 'finding', turn: at(pct), probe, key, page: String(p) });
      extras.set(at(pct), [...(extras.get(at(pct)) ?? []), {
        type: 'tool-zotero_get_annotations', toolCallId: `an${pct}`, state: 'output-available', input: { item_key: key },
        output: { content: [{ type: 'text', text: `Annotations (2):\n- “Every additional hot night raised admissions by ${n}% ${probe}” (${key}, p. ${p})\n- “see table 2” (${key}, p. ${p + 1})` }] },
      }]);
    }
  });

  const pageChars = Math.max(1_800, Math.floor(window * 0.15));
  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const planted = plan.get(turn) ?? [];
    const userBits = planted.filter((p) => p.who === 'user').map((p) => p.text);
    const userText = userBits.length ? userBits.join(' — ') : r.pick(U.chatter[language]);
    const user = { id: `q${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] };
    const keys = [r.key(), pinned, kept, ...(findingKeys.length ? [r.pick(findingKeys)] : []), r.key()];
    const parts = [
      { type: 'tool-zotero_search_items', toolCallId: `z${turn}`, state: 'output-available', input: { query: `heat asthma ${turn}` },
        output: { content: [{ type: 'text', text: mcpSearchText(r, keys) }] } },
      { type: 'tool-zotero_read_fulltext', toolCallId: `r${turn}`, state: 'output-available', input: { item_key: keys[0] },
        output: { page: (turn % 30) + 1, content: PAGE.repeat(Math.ceil(pageChars / PAGE.length)).slice(0, pageChars) } },
      ...(extras.get(turn) ?? []),
    ];
    if (turn % 19 === 5) parts.push({ type: 'tool-doi_resolver', toolCallId: `d${turn}`, state: 'output-available', input: { doi: '10.1289/x' }, output: { error: { code: 503, message: 'upstream unavailable' } } });
    const said = planted.filter((p) => p.who === 'assistant').map((p) => p.text);
    parts.push({ type: 'text', text: [r.pick(A.filler[al]), ...said].join('\n\n') });
    script.push({ user, assistant: { id: `b${turn}`, role: 'assistant', parts } });
  }
  return { script, facts };
}
