// Issue 40, a fourth held-out corpus: written without reading the rules (src/), the controller and
// ledger docs or the sentence tables of the other three corpora, and not tuned to the package's
// results. Topic: air-source heat pump retrofits in cold-climate social housing (a thesis literature
// review: measured seasonal performance, the performance gap, tenants' bills and comfort, later fuel
// poverty). Languages: en, es, vi, zh, ja and 'mixed', a user who code-switches between German and
// English inside one message (the assistant answers that user in English). Users write long chatty
// messages with typos and several statements at once; the Vietnamese user often types without
// diacritics, the Chinese and Japanese users without sentence-final punctuation; requirements come with
// and without cue words and are later replaced in other words; the deadline and the reference format
// each change twice; three Zotero keys are made central and two withdrawn; the user takes on a task and
// reports it done, reports an assistant task done, confirms a hunch of their own and confirms or
// rejects the assistant's guesses; failed approaches come from both sides. Findings carry their Zotero
// key and page in varied forms ("(KEY, p. 14)", "[@KEY, 14]", "S. 14", "tr. 14", "第14页", "14頁") and
// sit in the assistant's prose, in the user's messages, inside full-text output only (page known from
// the page footer, key from the call's input) or inside a Markdown reading note only.
// Tool shapes (AI SDK v5 UIMessage parts): `tool-zotero_search` answering plain text lines
// "KEY | Author (Year) | Title"; `tool-zotero_fulltext` answering Zotero's /fulltext shape
// { content, indexedPages, totalPages } (pages separated by form feeds, running header and page number
// footer; often 10-20% of the window); reading notes through a `dynamic-tool` part (`zotero_notes`,
// Markdown); `tool-export_bibtex` (BibTeX text); `tool-fetch_oa_pdf` timing out (`output-error`);
// a `dynamic-tool` proxy login failing; the search failing when Zotero is closed; `reasoning` and
// `step-start` parts. Message ids u<turn> / a<turn>. Tags look like `⟦K7Q2⟧`.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'es', 'vi', 'zh', 'ja', 'mixed'];
const TAG_CHARS = 'BCDFGHJKLMNPQRSTVWXZ23456789';

// The user's side, per language. {t}: the fact's tag, {k}: a Zotero key, {x}: a date, {p}: a page, {n}: a number.
const USER = {
  en: {
    goal: "hi! so I'm finally starting the lit review chapter of my thesis. its about air-source heat pump retrofits in social housing in cold climates, what actually happens to the measured performance and to the tenants (bills, comfort) once the gas boiler or the district heating is gone {t}. I have ~140 items in zotero already, half of them unread lol. can you start by telling me what's in the library on measured seasonal performance?",
    goal2: "I want to widen the question a bit: besides performance and tenants, also whether the retrofits pushed anyone into fuel poverty, so bills relative to income {t}",
    styles: [
      "btw my department uses Harvard, the Cite Them Right flavour, so references like that please {t}",
      "ugh, change of plan on the referencing. the chapter goes into the faculty working-paper series and they only take numbered IEEE refs {t}, square brackets in the text",
      "ok last change I promise: Maria wants to turn it into a chapter for the Routledge volume so it's author-date Chicago 17th now {t}. sorry sorry",
    ],
    deadlines: [
      "deadline for the first full draft is {x} {t}, my supervisor is strict about that",
      "Maria (supervisor) is away at a conference from mid month so she wants the whole thing in her inbox by {x} instead {t}",
      "good news, got an extension!! the committee meeting moved, so I now have until {x} {t}",
    ],
    dates: ['Friday 28 February', 'March 14th', '2 May'],
    climate: "one thing, I only want sites with proper winters, think Nordic countries, Canada, northern China, Hokkaido, design outdoor temp of -15 °C or colder {t}. the mild UK stuff doesnt count",
    climateWider: "hmm after talking to Maria I think the maritime climates should come in after all, Ireland, UK, Netherlands, as a contrast group {t}. not the main evidence but in",
    words: "the chapter can be max 8000 words {t}, not counting the reference list",
    wordsFewer: "they squeezed the page budget, I'm down to 6k words and that now includes the tables {t} :(",
    since2010: "also nothing older than 2010 pls {t}, the units before that were a different generation of compressors",
    measured: "what I care about is what was metered in real buildings, simulation-only papers are background at best {t}",
    vendor: "manufacturer white papers and brochures stay out of it {t}, even the ones with nice graphs",
    scopus: "fyi I tried pulling a Scopus export to see what's missing from zotero but it cuts off at 2000 records and the file was garbage when I opened it {t}, so that route is dead",
    ill: "the interlibrary loan for that Finnish ministry report never arrived, library says it's not lendable {t}. dont bother trying to get it through them",
    pins: [
      "{k} is going to be the backbone of the performance section {t}, its the only one with three full winters metered",
      "can you treat {k} as a core paper from now on {t}? the interview material in there is exactly my tenants angle",
      "put {k} on the must-cite list {t}",
    ],
    unpins: [
      "re {k}, I found out the monitoring was paid for by the manufacturer and the data isn't public, so drop it from the central ones {t}, a footnote at most",
      "{k} doesnt need to be there anymore {t}, the newer paper from the same group covers it better",
    ],
    decide: "ok I've decided, no meta-analysis, the studies are way too different. we do a narrative synthesis grouped by retrofit type {t}",
    mine: "I'll email the housing company in Umeå and ask for their raw monitoring spreadsheets {t}",
    mineDone: "the Umeå people replied!! spreadsheets are in my dropbox now so thats sorted {t}",
    hunch: "my gut feeling is that most of the performance gap comes down to keeping the old radiators, they need really hot water and the heat pump suffers {t}. could be wrong tho",
    hunchHolds: "so about my radiator theory, having gone through the Umeå spreadsheets it holds up, the blocks that got new low-temp radiators are way better {t}",
    windowsYes: "your idea about windows being open in winter, the tenant diaries in the Umeå data back that up, people air the flats a LOT {t}",
    backupNo: "re the backup heater left on automatic: no, I checked with the installer, they were all locked to manual override, so it's not that {t}",
    tableDone: "oh and you dont need to make the SPF table anymore, I built it myself last night in excel {t}",
    found: [
      "I read {k} on the train, on p. {p} they say {n}% of tenants turned the heating up after the retrofit because it felt 'cheaper' {t}",
      "{k} page {p}: the complaints about outdoor unit noise came from {n} of the households, mostly ground floor {t}",
    ],
    openers: ['morning!', 'sorry for the slow reply, had teaching all day.', 'quick one before my meeting.', 'ok back at it.', 'coffee #3 ☕', 'hey, me again.'],
  },
  es: {
    goal: "hola!! por fin empiezo el capitulo de revision bibliografica de la tesis. el tema es el recambio a bombas de calor aire-agua en vivienda social de climas frios, o sea que pasa con el rendimiento medido y con los arrendatarios (cuentas, confort) cuando se saca la caldera o la calefaccion distrital {t}. tengo como 140 items en zotero y la mitad sin leer jaja. me puedes decir primero que hay en la biblioteca sobre rendimiento estacional medido?",
    goal2: "quiero ampliar un poco la pregunta: aparte de rendimiento y arrendatarios, tambien si las intervenciones empujaron a alguien a pobreza energetica, o sea cuentas en relacion al ingreso {t}",
    styles: [
      "ah y en mi depto se usa Harvard, la version Cite Them Right, asi que las referencias asi porfa {t}",
      "cambio de planes con las referencias: el capitulo va a la serie de working papers de la facultad y ahi solo aceptan IEEE numerado {t}, con corchetes en el texto",
      "ultimo cambio lo juro: Maria lo quiere convertir en capitulo para el libro de Routledge, entonces ahora es autor-año Chicago 17 {t}. perdon!!",
    ],
    deadlines: [
      "el plazo para el primer borrador completo es {x} {t}, y mi profesora guia es estricta con eso",
      "Maria (mi guia) se va a un congreso a mediados de mes asi que lo quiere todo en su correo {x} {t}",
      "buenas noticias, me dieron prorroga!! movieron la reunion del comite y ahora tengo hasta {x} {t}",
    ],
    dates: ['el viernes 28 de febrero', 'el 14 de marzo', 'el 2 de mayo'],
    climate: "una cosa, solo quiero sitios con invierno de verdad, nordicos, Canada, norte de China, Hokkaido, con temperatura exterior de diseño de -15 °C o menos {t}. lo templado tipo Reino Unido no cuenta",
    climateWider: "mmm despues de hablar con Maria creo que los climas maritimos si deberian entrar, Irlanda, UK, Holanda, como grupo de contraste {t}. no como evidencia principal pero que esten",
    words: "el capitulo puede tener maximo 8000 palabras {t}, sin contar la bibliografia",
    wordsFewer: "me recortaron el espacio, ahora son 6 mil palabras y eso incluye las tablas {t} :(",
    since2010: "tambien nada anterior a 2010 porfa {t}, los equipos de antes eran otra generacion de compresores",
    measured: "a mi me importa lo que se midio en edificios reales, los papers que son pura simulacion son contexto nomas {t}",
    vendor: "los white papers y folletos de fabricantes quedan afuera {t}, aunque tengan graficos bonitos",
    scopus: "te cuento que intente sacar el export de Scopus para ver que me falta en zotero pero se corta en 2000 registros y el archivo salio corrupto {t}, asi que por ahi no",
    ill: "el prestamo interbibliotecario del informe del ministerio finlandes nunca llego, la biblioteca dice que no se presta {t}. no pierdas tiempo pidiendolo por ahi",
    pins: [
      "{k} va a ser la columna vertebral del apartado de rendimiento {t}, es el unico con tres inviernos completos medidos",
      "puedes tratar {k} como paper central de aqui en adelante? {t} el material de entrevistas es justo mi enfoque en los arrendatarios",
      "pon {k} en la lista de citas obligatorias {t}",
    ],
    unpins: [
      "sobre {k}: me entere que el monitoreo lo financio el fabricante y los datos no son publicos, asi que sacalo de los centrales {t}, a lo mas una nota al pie",
      "{k} ya no hace falta {t}, el paper nuevo del mismo grupo lo cubre mejor",
    ],
    decide: "ya, decidi: nada de metaanalisis, los estudios son demasiado distintos. hacemos sintesis narrativa agrupada por tipo de intervencion {t}",
    mine: "yo le escribo a la empresa de vivienda de Umeå para pedirles las planillas de monitoreo en bruto {t}",
    mineDone: "los de Umeå contestaron!! las planillas ya estan en mi dropbox, eso esta listo {t}",
    hunch: "mi intuicion es que casi toda la brecha de rendimiento viene de dejar los radiadores viejos, necesitan agua muy caliente y la bomba sufre {t}. puedo estar equivocada eso si",
    hunchHolds: "lo de mi teoria de los radiadores: despues de revisar las planillas de Umeå se sostiene, los bloques con radiadores nuevos de baja temperatura andan mucho mejor {t}",
    windowsYes: "tu idea de las ventanas abiertas en invierno, los diarios de los arrendatarios en los datos de Umeå la respaldan, la gente ventila muchisimo {t}",
    backupNo: "lo del calefactor de respaldo en automatico: no, le pregunte al instalador y todos estaban bloqueados en manual, asi que no es eso {t}",
    tableDone: "ah y ya no necesitas hacer la tabla de SPF, la arme yo anoche en excel {t}",
    found: [
      "lei {k} en la micro, en la pág. {p} dicen que el {n}% de los arrendatarios subio la calefaccion despues del recambio porque lo sentia mas barato {t}",
      "{k} pagina {p}: las quejas por ruido de la unidad exterior vinieron de {n} hogares, casi todos del primer piso {t}",
    ],
    openers: ['buenos dias!', 'perdon la demora, tuve clases todo el dia.', 'una rapida antes de mi reunion.', 'ya, de vuelta.', 'tercer cafe ☕', 'hola otra vez.'],
  },
  vi: {
    goal: "chào bạn, mình bắt đầu viết chương tổng quan tài liệu cho luận văn rồi. đề tài là cải tạo nhà ở xã hội ở vùng khí hậu lạnh bằng bơm nhiệt nguồn không khí, xem hiệu suất đo thực tế và người thuê nhà (hóa đơn, tiện nghi) thay đổi ra sao khi bỏ lò hơi gas hay sưởi tập trung {t} trong zotero có khoảng 140 mục mà nửa chưa đọc haha bạn xem giúp trong thư viện có gì về hiệu suất mùa đo thực tế trước nhé",
    goal2: "minh muon mo rong cau hoi mot chut ngoai hieu suat va nguoi thue thi xem cai tao co day ai vao ngheo nang luong khong tuc la hoa don so voi thu nhap {t}",
    styles: [
      "à khoa mình dùng Harvard kiểu Cite Them Right nên tài liệu tham khảo theo kiểu đó nha {t}",
      "doi ke hoach ve trich dan chuong nay se dang trong working paper series cua khoa ma ho chi nhan IEEE danh so {t} ngoac vuong trong bai",
      "lần cuối thôi hứa đó cô Maria muốn chuyển thành một chương trong sách của Routledge nên giờ dùng Chicago 17 tác giả-năm {t} xin lỗi nhiều",
    ],
    deadlines: [
      "han nop ban thao day du dau tien la {x} {t} co Maria rat nghiem vu nay",
      "cô Maria đi hội thảo từ giữa tháng nên cô muốn nhận toàn bộ qua email trước {x} {t}",
      "tin vui được gia hạn rồi!! buổi họp hội đồng dời lại nên giờ mình có đến {x} {t}",
    ],
    dates: ['thứ sáu 28/2', 'ngày 14 tháng 3', '2/5'],
    climate: "một điều nữa mình chỉ lấy các địa điểm có mùa đông thật sự kiểu Bắc Âu Canada bắc Trung Quốc Hokkaido nhiệt độ thiết kế ngoài trời từ -15 °C trở xuống {t} mấy chỗ ôn hòa như Anh thì không tính",
    climateWider: "hmm noi chuyen voi co Maria xong thi minh nghi nen dua ca khi hau bien vao Ireland Anh Ha Lan lam nhom doi chung {t} khong phai bang chung chinh nhung van co",
    words: "chương này tối đa 8000 từ {t} không tính danh mục tài liệu",
    wordsFewer: "ho cat bot roi gio chi con 6 nghin tu ma tinh ca bang bieu {t} buon ghe",
    since2010: "với lại đừng lấy gì trước 2010 nha {t} máy đời trước là thế hệ máy nén khác rồi",
    measured: "mình quan tâm số liệu đo trong tòa nhà thật, bài chỉ mô phỏng thì cùng lắm làm nền thôi {t}",
    vendor: "white paper voi brochure cua hang san xuat thi bo ra {t} du do thi dep may",
    scopus: "nói bạn biết mình thử xuất dữ liệu Scopus để xem zotero còn thiếu gì mà nó cắt ở 2000 bản ghi, file mở ra lỗi hết {t} nên cách đó bỏ",
    ill: "muon lien thu vien bao cao cua bo Phan Lan khong bao gio toi thu vien bao tai lieu do khong cho muon {t} dung mat cong xin qua ho nua",
    pins: [
      "{k} sẽ là xương sống của phần hiệu suất {t} vì chỉ có nó đo đủ ba mùa đông",
      "từ giờ bạn coi {k} là bài trọng tâm nhé {t} phần phỏng vấn trong đó đúng hướng người thuê nhà của mình",
      "cho {k} vao danh sach bat buoc trich dan {t}",
    ],
    unpins: [
      "vụ {k} mình mới biết việc đo đạc do hãng sản xuất tài trợ và dữ liệu không công khai nên bỏ nó khỏi nhóm trọng tâm {t} cùng lắm để chú thích",
      "{k} khong can nua {t} bai moi cua cung nhom do viet ky hon",
    ],
    decide: "ok mình quyết rồi không làm phân tích gộp các nghiên cứu khác nhau quá, làm tổng hợp tường thuật theo loại cải tạo {t}",
    mine: "để mình email cho công ty nhà ở ở Umeå xin bảng số liệu đo gốc {t}",
    mineDone: "ben Umea tra loi roi!! bang so lieu nam trong dropbox cua minh, xong vu do {t}",
    hunch: "mình linh cảm là phần lớn chênh lệch hiệu suất là do giữ lại bộ tản nhiệt cũ chúng cần nước rất nóng nên bơm nhiệt chạy vất vả {t} có thể mình sai",
    hunchHolds: "vụ giả thuyết bộ tản nhiệt của mình xem bảng số liệu Umeå thì đúng thật các khối nhà thay tản nhiệt nhiệt độ thấp chạy tốt hơn hẳn {t}",
    windowsYes: "ý bạn về việc mở cửa sổ mùa đông thì nhật ký người thuê trong dữ liệu Umeå xác nhận rồi người ta thông gió rất nhiều {t}",
    backupNo: "vu may suoi du phong de o che do tu dong: khong phai dau, minh hoi ben lap dat roi tat ca deu khoa o che do tay {t}",
    tableDone: "à bạn không cần làm bảng SPF nữa đâu tối qua mình tự làm trong excel rồi {t}",
    found: [
      "minh doc {k} tren tau, trang {p} noi {n}% nguoi thue tang nhiet do suoi sau cai tao vi thay re hon {t}",
      "{k} tr. {p} than phien ve tieng on cua dan nong den tu {n} ho chu yeu o tang tret {t}",
    ],
    openers: ['chào buổi sáng', 'xin lỗi trả lời chậm cả ngày đi dạy', 'hoi nhanh truoc gio hop', 'ok làm tiếp nào', 'ly cà phê thứ ba rồi', 'lai la minh day'],
  },
  zh: {
    goal: "你好 我终于开始写论文的文献综述章节了 题目是寒冷地区公共住房的空气源热泵改造 看拆掉燃气锅炉或者集中供暖以后实测性能和租户（电费、舒适度）到底怎么变{t} zotero里已经有大概140条 一半还没读哈哈 你先帮我看看库里关于实测季节性能的有哪些",
    goal2: "我想把问题稍微扩大一点 除了性能和租户 还要看改造有没有让人陷入能源贫困 就是电费占收入的比例{t}",
    styles: [
      "对了我们系用Harvard 就是Cite Them Right那种 参考文献按这个来{t}",
      "参考文献要改 这章要放进学院的工作论文系列 他们只收IEEE编号格式{t} 正文里用方括号",
      "最后一次改 保证 Maria想把它变成Routledge那本书里的一章 所以现在用Chicago第17版作者-年份{t} 不好意思啊",
    ],
    deadlines: [
      "初稿完整版截止是{x}{t} 导师对这个很严",
      "Maria老师月中要去开会 所以她要我{x}前把全部发到她邮箱{t}",
      "好消息 延期了！！委员会的会推迟了 现在可以到{x}{t}",
    ],
    dates: ['2月28号周五', '3月14日', '5月2号'],
    climate: "还有 我只要真正有冬天的地方 北欧 加拿大 中国北方 北海道这种 室外设计温度零下15度或者更低{t} 英国那种温和的不算",
    climateWider: "嗯 跟Maria聊完觉得海洋性气候还是放进来吧 爱尔兰 英国 荷兰 当对照组{t} 不是主要证据但要有",
    words: "这章最多8000词{t} 参考文献不算",
    wordsFewer: "篇幅被砍了 现在只有6000词而且表格也算在里面{t} 哭",
    since2010: "另外2010年以前的都不要{t} 那之前的压缩机是另一代了",
    measured: "我在意的是真实楼里测出来的数据 纯模拟的文章最多当背景{t}",
    vendor: "厂家的白皮书和宣传册都别放{t} 图画得再好看也不行",
    scopus: "跟你说下 我试过导出Scopus看zotero里缺什么 结果到2000条就截断了 文件打开全是乱码{t} 这条路不行",
    ill: "芬兰那个部委报告的馆际互借一直没来 图书馆说不外借{t} 别再通过他们找了",
    pins: [
      "{k}会是性能那部分的主心骨{t} 只有它完整测了三个冬天",
      "以后把{k}当核心文献吧{t} 里面的访谈正好是我租户那块",
      "{k}放进必引清单{t}",
    ],
    unpins: [
      "关于{k} 我才知道监测是厂家出钱的 数据也不公开 所以从核心里拿掉{t} 顶多放个脚注",
      "{k}不用了{t} 同一个团队新发的那篇讲得更好",
    ],
    decide: "好 我定了 不做meta分析 研究之间差太多 按改造类型分组做叙述性综合{t}",
    mine: "我去给于默奥那家住房公司发邮件 要他们的原始监测表格{t}",
    mineDone: "于默奥那边回了！！表格已经在我dropbox里 这件事搞定{t}",
    hunch: "我直觉是性能差距大部分是因为保留了旧暖气片 它们要很热的水 热泵就很吃力{t} 也可能我想错了",
    hunchHolds: "我那个暖气片的想法 看完于默奥的表格确实成立 换了低温暖气片的楼好很多{t}",
    windowsYes: "你说冬天开窗那个 于默奥数据里的租户日记证实了 大家通风特别多{t}",
    backupNo: "备用电加热留在自动那个 不是 我问了安装方 全都锁在手动{t}",
    tableDone: "哦对了SPF那张表你不用做了 我昨晚自己用excel做好了{t}",
    found: [
      "我在地铁上看了{k} 第{p}页说{n}%的租户改造后把暖气调高了 因为觉得更便宜{t}",
      "{k} p{p} 室外机噪音投诉来自{n}户 大多是一楼{t}",
    ],
    openers: ['早', '不好意思回晚了 上了一天课', '开会前问个快的', '好 继续', '第三杯咖啡了', '又是我'],
  },
  ja: {
    goal: "こんにちは 論文の文献レビューの章をやっと書き始めました テーマは寒冷地の公営住宅での空気熱源ヒートポンプ改修で ガスボイラーや地域暖房をやめたあと実測の性能と入居者（光熱費、快適性）がどう変わるか{t} zoteroに140件くらい入っててまだ半分読んでないです笑 まずライブラリに実測の期間性能について何があるか教えてください",
    goal2: "問いを少し広げたいです 性能と入居者に加えて 改修で燃料貧困に陥った人がいないか つまり収入に対する光熱費も見たい{t}",
    styles: [
      "あ うちの学科はHarvardのCite Them Right版なので参考文献はそれでお願いします{t}",
      "参考文献の件 変更です この章は学部のワーキングペーパーに載ることになって そっちはIEEEの番号式しか受け付けないそうです{t} 本文は角括弧で",
      "これで最後の変更です Maria先生がRoutledgeの本の一章にしたいと言っているので今後はChicago 17版の著者年方式で{t} すみません",
    ],
    deadlines: [
      "最初の完全な草稿の締め切りは{x}です{t} 先生はそこ厳しいので",
      "Maria先生が月半ばから学会で不在になるので{x}までに全部メールで送ってほしいとのこと{t}",
      "朗報です 委員会が延期になって{x}まで延びました{t}",
    ],
    dates: ['2月28日（金）', '3/14', '5月2日'],
    climate: "それと 対象はちゃんと冬がある地域だけにしたいです 北欧 カナダ 中国北部 北海道みたいな 外気の設計温度がマイナス15度以下のところ{t} イギリスみたいな温暖なところは入れません",
    climateWider: "うーん Maria先生と話して 海洋性気候もやっぱり入れることにしました アイルランド イギリス オランダを比較群として{t} 主な根拠ではないけど入れる",
    words: "この章は最大8000語です{t} 参考文献リストは数えない",
    wordsFewer: "紙幅を削られて6000語になりました しかも表も込みで{t} つらい",
    since2010: "あと2010年より前のものはなしで{t} それ以前の機種はコンプレッサーの世代が違うので",
    measured: "大事なのは実際の建物で計測されたデータで シミュレーションだけの論文はせいぜい背景扱い{t}",
    vendor: "メーカーのホワイトペーパーやパンフレットは入れないでください{t} グラフがきれいでも",
    scopus: "報告ですが Scopusからエクスポートしてzoteroに足りないものを探そうとしたら2000件で切れて ファイルも文字化けしてました{t} その方法はダメです",
    ill: "フィンランドの省の報告書 図書館間貸出が結局届かなくて 貸出不可だそうです{t} そのルートで頼むのはもうやめてください",
    pins: [
      "{k}を性能の節の柱にします{t} 冬三シーズンを丸ごと計測してるのはこれだけなので",
      "これから{k}を中心文献として扱ってもらえますか{t} インタビューの部分がまさに入居者の視点なので",
      "{k}を必ず引用するリストに入れて{t}",
    ],
    unpins: [
      "{k}の件 計測がメーカーの資金で データも非公開だとわかったので中心文献から外してください{t} せいぜい脚注で",
      "{k}はもういらないです{t} 同じグループの新しい論文のほうがよくまとまってる",
    ],
    decide: "決めました メタ分析はやりません 研究がばらばらすぎるので 改修タイプごとにまとめたナラティブ統合にします{t}",
    mine: "ウメオの住宅会社に生の計測データのスプレッドシートをくださいってメールしてみます{t}",
    mineDone: "ウメオから返事来ました！！スプレッドシートはdropboxに入ってるのでこれは完了{t}",
    hunch: "性能ギャップのほとんどは古いラジエーターをそのまま使ってるのが原因じゃないかと思ってます 高温のお湯が必要でヒートポンプがしんどくなる{t} 違うかもだけど",
    hunchHolds: "ラジエーター説 ウメオのスプレッドシートを見たら当たってました 低温ラジエーターに替えた棟のほうがずっといい{t}",
    windowsYes: "冬に窓を開けてるっていう話 ウメオのデータにある入居者日誌で裏付けられました みんなすごく換気してる{t}",
    backupNo: "補助ヒーターが自動のままっていう件 違いました 施工業者に聞いたら全部手動に固定されてたそうです{t}",
    tableDone: "そういえばSPFの表はもう作らなくて大丈夫です 昨夜自分でエクセルで作りました{t}",
    found: [
      "電車で{k}を読んだんですが {p}ページに入居者の{n}%が改修後に暖房の設定を上げたって書いてありました 安く感じたからだそうです{t}",
      "{k}のp.{p} 室外機の騒音苦情は{n}世帯から 大半が1階{t}",
    ],
    openers: ['おはようございます', '返信遅れてすみません 一日中授業でした', '会議の前に一つだけ', 'よし 続きやります', 'コーヒー三杯目', 'またです'],
  },
  mixed: {
    goal: "Hallo! Also, ich fang jetzt endlich mit dem literature review chapter meiner Diss an. Thema: air-source heat pump retrofits im sozialen Wohnungsbau in kalten Klimazonen, was passiert mit der gemessenen performance und mit den Mietern (Heizkosten, comfort) wenn der Gaskessel oder die Fernwärme rausfliegt {t}. Ich hab schon ca. 140 items in zotero, die Hälfte ungelesen lol. Kannst du mir erstmal sagen was in der library zu measured seasonal performance drin ist?",
    goal2: "ich will die Frage etwas erweitern: neben performance und Mietern auch ob die retrofits jemanden in die Energiearmut gedrückt haben, also Heizkosten relativ zum Einkommen {t}",
    styles: [
      "btw an meinem Institut nehmen wir Harvard, die Cite Them Right Variante, also references bitte so {t}",
      "ugh, Planänderung beim Zitieren. das Kapitel kommt in die working paper series der Fakultät und die nehmen nur nummerierte IEEE refs {t}, eckige Klammern im Text",
      "ok letzte Änderung, versprochen: Maria will ein Kapitel für den Routledge-Band draus machen, also jetzt author-date Chicago 17th {t}. sorry sorry",
    ],
    deadlines: [
      "Abgabe vom first full draft ist {x} {t}, meine Betreuerin ist da echt strikt",
      "Maria ist ab Mitte des Monats auf einer Konferenz, deshalb will sie das ganze Ding schon {x} in ihrer inbox haben {t}",
      "good news, ich hab ne Verlängerung!! das committee meeting wurde verschoben, jetzt hab ich bis {x} {t}",
    ],
    dates: ['Freitag, 28.2.', '14. März', 'May 2nd'],
    climate: "noch was: ich will nur sites mit richtigem Winter, also Skandinavien, Kanada, Nordchina, Hokkaido, Auslegungstemperatur außen -15 °C oder kälter {t}. UK mild zählt nicht",
    climateWider: "hmm nach dem Gespräch mit Maria sollten die maritimen Klimata doch rein, Irland, UK, Niederlande, als contrast group {t}. nicht die main evidence aber drin",
    words: "das Kapitel darf max 8000 words haben {t}, ohne Literaturliste",
    wordsFewer: "die haben das page budget gekürzt, ich bin jetzt bei 6k Wörtern und die Tabellen zählen mit {t} :(",
    since2010: "und nichts vor 2010 bitte {t}, die Geräte davor waren eine andere Kompressor-Generation",
    measured: "mich interessiert was in echten Gebäuden gemessen wurde, reine simulation papers sind höchstens background {t}",
    vendor: "Hersteller white papers und Broschüren bleiben draußen {t}, auch die mit den schönen graphs",
    scopus: "fyi ich hab versucht nen Scopus export zu ziehen um zu sehen was in zotero fehlt, aber der bricht bei 2000 records ab und die Datei war beim Öffnen nur Müll {t}, der Weg ist also tot",
    ill: "die Fernleihe für den finnischen Ministeriumsbericht kam nie an, die Bibliothek sagt nicht ausleihbar {t}. don't bother es nochmal über die zu versuchen",
    pins: [
      "{k} wird das Rückgrat vom performance Teil {t}, ist das einzige mit drei kompletten Wintern gemessen",
      "kannst du {k} ab jetzt als core paper behandeln {t}? das interview material da drin ist genau mein Mieter-angle",
      "{k} auf die must-cite Liste bitte {t}",
    ],
    unpins: [
      "zu {k}: hab rausgefunden dass das monitoring vom Hersteller bezahlt war und die Daten nicht public sind, also raus aus den zentralen {t}, höchstens Fußnote",
      "{k} brauchen wir nicht mehr {t}, das neuere paper derselben Gruppe deckt das besser ab",
    ],
    decide: "ok, entschieden: keine meta-analysis, die Studien sind viel zu unterschiedlich. wir machen eine narrative synthesis gruppiert nach retrofit-Typ {t}",
    mine: "ich schreib der Wohnungsgesellschaft in Umeå und frag nach den raw monitoring spreadsheets {t}",
    mineDone: "Umeå hat geantwortet!! die spreadsheets liegen jetzt in meiner dropbox, das ist erledigt {t}",
    hunch: "mein Bauchgefühl: der größte Teil vom performance gap kommt daher dass die alten Heizkörper drin bleiben, die brauchen richtig heißes Wasser und die Wärmepumpe leidet {t}. kann aber auch falsch sein",
    hunchHolds: "meine Heizkörper-Theorie: nach den Umeå spreadsheets hält die, die Blöcke mit neuen low-temp radiators sind viel besser {t}",
    windowsYes: "deine Idee mit den offenen Fenstern im Winter, die Mieter-Tagebücher in den Umeå Daten bestätigen das, die Leute lüften extrem viel {t}",
    backupNo: "das mit dem backup heater auf automatic: nein, ich hab den Installateur gefragt, die waren alle auf manual gesperrt, daran liegts also nicht {t}",
    tableDone: "ach und die SPF-Tabelle musst du nicht mehr machen, hab ich gestern Nacht selbst in excel gebaut {t}",
    found: [
      "hab {k} im Zug gelesen, auf S. {p} steht dass {n}% der Mieter nach dem retrofit die Heizung höher gedreht haben weil es sich 'billiger' anfühlte {t}",
      "{k} S. {p}: die Lärmbeschwerden über die outdoor unit kamen von {n} Haushalten, meistens Erdgeschoss {t}",
    ],
    openers: ['Morgen!', 'sorry für die späte Antwort, hatte den ganzen Tag Lehre.', 'kurz vor meinem Meeting:', 'ok, weiter gehts.', 'Kaffee Nr. 3 ☕', 'hi, ich nochmal.'],
  },
};

// The assistant's side, per answer language (the 'mixed' user is answered in English).
const ASSIST = {
  en: {
    first: "Your library has about a dozen items with measured seasonal figures. The strongest are the Nordic multi-family monitoring studies; the search output is above.",
    acks: ['Noted.', "Got it, I'll keep that in mind.", 'Understood.', 'Thanks, that helps.', 'OK.'],
    filler: ["Here's what I found in the last batch.", 'I went through the items from the search.', 'Some notes on the papers above.'],
    side: [
      'Two of the items in that search have no PDF attached, so I could only read the abstracts.',
      'The full text above is long; the part that matters is the results section and the monthly table.',
      "Most of these are already in your 'to read' collection.",
      "I've exported the BibTeX for the items we talked about.",
    ],
    reasoning: 'The user wants measured data; check which of the returned items have metered seasonal figures before answering, and keep to the current reference format.',
    dead: [
      "I tried getting the open-access PDF of the Norwegian monitoring report through Unpaywall, but the request timed out three times in a row {t}; I won't keep trying that route.",
      'Searching the library for "COP" on its own was a dead end: it pulls in every climate-policy item that mentions the Conference of the Parties {t}, so I have stopped using that query.',
      "I attempted to line up the Swedish degree-day series with the Chinese one to compare normalised consumption, but two winters are missing from the Swedish data {t} and the comparison doesn't work.",
    ],
    decisions: [
      "I'll group the field studies by retrofit package, heat pump alone versus heat pump plus envelope work {t}, since the two behave very differently.",
      "To keep the numbers comparable I'm going to quote every seasonal figure at the SPF H2 boundary {t} and flag where a paper used a different one.",
      "The rural coal-to-electricity homes from northern China will sit in their own cluster rather than under social housing {t}; they're owner-occupied.",
      "For bills I'm normalising by heating degree days {t}, otherwise the Hokkaido and Irish numbers can't be put side by side.",
      'The interview and diary studies get their own subsection after the performance results {t} instead of being scattered through it.',
    ],
    todo: [
      "I still need to build the table of measured SPF values per study {t}; I'll do it once I've read the remaining four.",
      "Open item on my side: finding a DOI for the Finnish ministry report {t}, Crossref didn't know it.",
      "I'll draft the search-strategy paragraph for the methods section next {t}.",
      'Still to do: convert the references already in the draft to the new format {t}.',
    ],
    todoDone: [
      'The search-strategy paragraph is drafted and sitting in your notes folder now {t}.',
      'All references in the draft are converted {t}; I checked the ones with corporate authors by hand.',
    ],
    guess: [
      'My guess is that part of the spread in consumption comes from tenants keeping windows open in winter {t}. The estates with the worst figures are the ones with the most complaints about stuffy air.',
      'One possibility: the sites with the lowest SPF might be the ones where the installers left the electric backup heater on automatic {t}.',
      'I wonder whether bills fell less in the Chinese cases mainly because of the time-of-use tariff design {t} rather than the heat pumps themselves.',
    ],
    prose: [
      'In the Tromsø blocks the backup heater ran for {n}% of the hours below −15 °C ({k}, p. {p}) {t}.',
      '[@{k}, {p}] is the clearest on tenants: {n}% said the flat was warmer than before {t}.',
      'One more from the batch, {k} p. {p}: after the retrofit {n} households fell behind on their electricity bill {t}.',
      "Worth quoting: the flow temperature had to go up to {n} °C on the coldest days because the radiators were undersized {t}. That's on page {p} of {k}.",
    ],
  },
  es: {
    first: 'Tu biblioteca tiene una docena de ítems con valores estacionales medidos. Los más sólidos son los estudios nórdicos de monitoreo en edificios multifamiliares; arriba está el resultado de la búsqueda.',
    acks: ['Anotado.', 'Entendido, lo tengo en cuenta.', 'Perfecto.', 'Gracias, eso ayuda.', 'Vale.'],
    filler: ['Esto es lo que encontré en el último lote.', 'Revisé los ítems de la búsqueda.', 'Algunas notas sobre los artículos de arriba.'],
    side: [
      'Dos de los ítems de esa búsqueda no tienen PDF adjunto, así que solo pude leer los resúmenes.',
      'El texto completo de arriba es largo; lo que importa es la sección de resultados y la tabla mensual.',
      'La mayoría ya está en tu colección de pendientes por leer.',
      'Exporté el BibTeX de los ítems que comentamos.',
    ],
    reasoning: 'La usuaria quiere datos medidos; revisar cuáles de los ítems devueltos tienen valores estacionales medidos antes de responder, y respetar el formato de referencias vigente.',
    dead: [
      'Intenté conseguir el PDF en acceso abierto del informe noruego de monitoreo a través de Unpaywall, pero la solicitud expiró tres veces seguidas {t}; no voy a insistir por esa vía.',
      'Buscar "COP" a secas en la biblioteca no sirvió: trae todos los ítems de política climática que mencionan la Conferencia de las Partes {t}, así que dejé de usar esa consulta.',
      'Intenté alinear la serie de grados-día sueca con la china para comparar consumos normalizados, pero a los datos suecos les faltan dos inviernos {t} y la comparación no funciona.',
    ],
    decisions: [
      'Voy a agrupar los estudios de campo por paquete de intervención, bomba de calor sola o bomba de calor más mejora de la envolvente {t}, porque se comportan muy distinto.',
      'Para que las cifras sean comparables citaré todos los valores estacionales en el límite SPF H2 {t} e indicaré cuando un artículo use otro.',
      'Las viviendas rurales del programa de carbón a electricidad del norte de China irán en un grupo aparte y no bajo vivienda social {t}; son de sus propietarios.',
      'Para las cuentas normalizo por grados-día de calefacción {t}; si no, las cifras de Hokkaido y de Irlanda no se pueden poner lado a lado.',
      'Los estudios de entrevistas y diarios tendrán su propio subapartado después de los resultados de rendimiento {t}, en vez de quedar repartidos.',
    ],
    todo: [
      'Me falta armar la tabla de valores SPF medidos por estudio {t}; la hago cuando termine de leer los cuatro que quedan.',
      'Pendiente de mi lado: encontrar un DOI para el informe del ministerio finlandés {t}, Crossref no lo conoce.',
      'Lo siguiente que haré es redactar el párrafo de estrategia de búsqueda para la sección de métodos {t}.',
      'Queda por hacer: pasar las referencias que ya están en el borrador al formato nuevo {t}.',
    ],
    todoDone: [
      'El párrafo de estrategia de búsqueda ya está redactado y en tu carpeta de notas {t}.',
      'Todas las referencias del borrador quedaron convertidas {t}; las de autores corporativos las revisé a mano.',
    ],
    guess: [
      'Sospecho que parte de la dispersión del consumo se debe a que los arrendatarios dejan ventanas abiertas en invierno {t}. Los conjuntos con peores cifras son los que más se quejan de aire viciado.',
      'Una posibilidad: los sitios con el SPF más bajo podrían ser aquellos donde los instaladores dejaron el calefactor eléctrico de respaldo en automático {t}.',
      'Me pregunto si las cuentas bajaron menos en los casos chinos sobre todo por el diseño de la tarifa horaria {t} y no por las bombas de calor en sí.',
    ],
    prose: [
      'En los bloques de Tromsø el calefactor de respaldo funcionó el {n}% de las horas bajo −15 °C ({k}, pág. {p}) {t}.',
      '[@{k}, {p}] es el más claro sobre los arrendatarios: un {n}% dijo que el departamento estaba más cálido que antes {t}.',
      'Uno más del lote, según {k} (p. {p}): después del recambio {n} hogares quedaron con deuda en la cuenta de la luz {t}.',
      'Vale la pena citarlo: la temperatura de impulsión tuvo que subir a {n} °C en los días más fríos porque los radiadores eran chicos {t}; está en la página {p} de {k}.',
    ],
  },
  vi: {
    first: 'Thư viện của bạn có khoảng mười mấy mục có số liệu theo mùa đo thực tế. Mạnh nhất là các nghiên cứu giám sát nhà nhiều hộ ở Bắc Âu; kết quả tìm kiếm ở phía trên.',
    acks: ['Đã ghi nhận.', 'Mình hiểu rồi, sẽ lưu ý.', 'Được.', 'Cảm ơn, thông tin này hữu ích.', 'OK.'],
    filler: ['Đây là những gì mình tìm được trong đợt vừa rồi.', 'Mình đã xem qua các mục từ kết quả tìm kiếm.', 'Vài ghi chú về các bài ở trên.'],
    side: [
      'Hai mục trong lần tìm đó không có PDF đính kèm nên mình chỉ đọc được phần tóm tắt.',
      'Toàn văn ở trên khá dài; phần quan trọng là mục kết quả và bảng theo tháng.',
      'Phần lớn các mục này đã nằm trong bộ sưu tập "cần đọc" của bạn.',
      'Mình đã xuất BibTeX cho các mục chúng ta vừa bàn.',
    ],
    reasoning: 'Người dùng muốn số liệu đo thực tế; kiểm tra mục nào có giá trị theo mùa đo được trước khi trả lời, và giữ đúng định dạng trích dẫn hiện tại.',
    dead: [
      'Mình đã thử lấy bản PDF truy cập mở của báo cáo giám sát Na Uy qua Unpaywall nhưng yêu cầu bị hết thời gian chờ ba lần liên tiếp {t}; mình sẽ không thử lại cách đó.',
      'Tìm riêng từ "COP" trong thư viện không dùng được: nó kéo về mọi mục chính sách khí hậu có nhắc đến Hội nghị các Bên {t}, nên mình đã bỏ truy vấn đó.',
      'Mình đã thử khớp chuỗi độ-ngày của Thụy Điển với của Trung Quốc để so sánh mức tiêu thụ đã chuẩn hóa, nhưng số liệu Thụy Điển thiếu hai mùa đông {t} nên không so sánh được.',
    ],
    decisions: [
      'Mình sẽ nhóm các nghiên cứu thực địa theo gói cải tạo, chỉ bơm nhiệt hoặc bơm nhiệt kèm cải thiện lớp vỏ {t}, vì hai nhóm này rất khác nhau.',
      'Để các con số so sánh được, mình sẽ trích mọi giá trị theo mùa ở ranh giới SPF H2 {t} và ghi chú khi bài báo dùng ranh giới khác.',
      'Các hộ nông thôn trong chương trình chuyển than sang điện ở miền bắc Trung Quốc sẽ thành nhóm riêng, không nằm trong nhà ở xã hội {t}; họ là chủ sở hữu nhà.',
      'Với hóa đơn, mình chuẩn hóa theo độ-ngày sưởi {t}, nếu không thì số liệu Hokkaido và Ireland không đặt cạnh nhau được.',
      'Các nghiên cứu phỏng vấn và nhật ký sẽ có tiểu mục riêng sau phần kết quả hiệu suất {t} thay vì rải rác khắp nơi.',
    ],
    todo: [
      'Mình vẫn cần lập bảng giá trị SPF đo được theo từng nghiên cứu {t}; mình sẽ làm sau khi đọc xong bốn bài còn lại.',
      'Việc còn tồn phía mình: tìm DOI cho báo cáo của bộ Phần Lan {t}, Crossref không có.',
      'Tiếp theo mình sẽ soạn đoạn chiến lược tìm kiếm cho phần phương pháp {t}.',
      'Còn phải làm: chuyển các tài liệu tham khảo đã có trong bản thảo sang định dạng mới {t}.',
    ],
    todoDone: [
      'Đoạn chiến lược tìm kiếm đã soạn xong và nằm trong thư mục ghi chú của bạn {t}.',
      'Toàn bộ tài liệu tham khảo trong bản thảo đã được chuyển xong {t}; mình kiểm tra tay các mục có tác giả là tổ chức.',
    ],
    guess: [
      'Mình đoán một phần chênh lệch tiêu thụ là do người thuê mở cửa sổ vào mùa đông {t}. Các khu có số liệu tệ nhất cũng là nơi than phiền nhiều nhất về không khí ngột ngạt.',
      'Một khả năng: các địa điểm có SPF thấp nhất có thể là nơi thợ lắp đặt để máy sưởi điện dự phòng ở chế độ tự động {t}.',
      'Mình tự hỏi liệu hóa đơn ở các trường hợp Trung Quốc giảm ít hơn chủ yếu do cách thiết kế biểu giá theo giờ {t} chứ không phải do bản thân bơm nhiệt.',
    ],
    prose: [
      'Ở các khối nhà Tromsø, máy sưởi dự phòng chạy {n}% số giờ dưới −15 °C ({k}, tr. {p}) {t}.',
      'Theo {k}, tr. {p}, {n}% người thuê nói căn hộ ấm hơn trước {t}; đây là bài rõ nhất về người thuê.',
      'Thêm một kết quả: {k} trang {p} cho biết sau cải tạo có {n} hộ bị nợ tiền điện {t}.',
      'Đáng trích dẫn: nhiệt độ nước cấp phải tăng lên {n} °C vào những ngày lạnh nhất vì bộ tản nhiệt quá nhỏ {t}, xem {k}, trang {p}.',
    ],
  },
  zh: {
    first: '你的库里大约有十几条带实测季节性能数据的条目，最扎实的是北欧多户住宅的监测研究，检索结果见上。',
    acks: ['记下了。', '明白，我会注意。', '好的。', '谢谢，这很有帮助。', '收到。'],
    filler: ['这是上一批的结果。', '我看了一下检索出来的条目。', '关于上面几篇的一些笔记。'],
    side: [
      '那次检索里有两条没有附PDF，我只能看摘要。',
      '上面的全文很长，有用的是结果部分和逐月的那张表。',
      '这些大多已经在你的“待读”分类里了。',
      '我把刚才讨论的几条导出了BibTeX。',
    ],
    reasoning: '用户要实测数据；回答前先看返回的条目里哪些有实测的季节性能，并且按当前的参考文献格式来。',
    dead: [
      '我试着通过Unpaywall获取挪威那份监测报告的开放获取PDF，但请求连续三次超时{t}，这条路我不再试了。',
      '在库里单独搜“COP”没有用：会把所有提到缔约方大会的气候政策条目都拉进来{t}，所以我不再用这个检索词。',
      '我尝试把瑞典的度日数序列和中国的对齐来比较归一化后的能耗，但瑞典数据缺了两个冬天{t}，这个比较做不成。',
    ],
    decisions: [
      '我会按改造方案给实测研究分组，只换热泵，或者热泵加围护结构改造{t}，因为两者表现差别很大。',
      '为了让数字可比，所有季节性能值我都按SPF H2边界引用{t}，文章用别的边界时会注明。',
      '中国北方“煤改电”的农村住户单独成一组，不归入公共住房{t}，因为那些是自有住房。',
      '电费我按采暖度日数归一化{t}，否则北海道和爱尔兰的数字没法放在一起比。',
      '访谈和日记类研究放在性能结果之后单独成一小节{t}，不再分散在各处。',
    ],
    todo: [
      '我还需要做一张各研究实测SPF值的表{t}，剩下四篇读完就做。',
      '我这边还没解决：给芬兰部委的报告找DOI{t}，Crossref里查不到。',
      '接下来我来起草方法部分的检索策略段落{t}。',
      '还没做：把草稿里已有的参考文献转换成新格式{t}。',
    ],
    todoDone: [
      '检索策略那段已经写好，放在你的笔记文件夹里了{t}。',
      '草稿里的参考文献已全部转换完{t}，团体作者的几条我手动核对过。',
    ],
    guess: [
      '我猜能耗差异有一部分来自租户冬天开着窗{t}。数据最差的小区恰好也是抱怨空气闷的最多的。',
      '有一种可能：SPF最低的站点也许是安装工把备用电加热留在自动模式的那些{t}。',
      '我在想中国案例里电费降得少，会不会主要是分时电价的设计造成的{t}，而不是热泵本身。',
    ],
    prose: [
      '特罗姆瑟那几栋楼里，室外低于−15 °C的时段备用电加热运行了{n}%的小时数（{k}，第{p}页）{t}。',
      '关于租户，{k}第{p}页最清楚：{n}%的人说房子比以前暖和{t}。',
      '再补一条：见{k} p.{p}，改造后有{n}户拖欠电费{t}。',
      '值得引用：最冷的几天供水温度不得不提高到{n} °C，因为暖气片偏小{t}，出处是{k}的第{p}页。',
    ],
  },
  ja: {
    first: 'ライブラリには実測の期間性能の数値があるアイテムが十数件あります。いちばんしっかりしているのは北欧の集合住宅のモニタリング研究で、検索結果は上のとおりです。',
    acks: ['了解です。', 'わかりました、気をつけます。', '承知しました。', 'ありがとうございます、助かります。', 'OKです。'],
    filler: ['直近の検索結果からわかったことです。', '検索で出てきたアイテムに目を通しました。', '上の論文についてのメモです。'],
    side: [
      'その検索のうち2件はPDFが添付されていないので、抄録しか読めませんでした。',
      '上の全文は長いですが、大事なのは結果の節と月別の表です。',
      'ほとんどはすでに「未読」コレクションに入っています。',
      '話に出たアイテムのBibTeXをエクスポートしておきました。',
    ],
    reasoning: 'ユーザーは実測データを求めている。回答前に、返ってきたアイテムのうち実測の期間性能があるものを確認し、現在の参考文献形式に合わせる。',
    dead: [
      'ノルウェーのモニタリング報告書のオープンアクセスPDFをUnpaywall経由で取得しようとしましたが、三回続けてタイムアウトしました{t}。この方法はもう試しません。',
      'ライブラリで「COP」だけで検索するのは失敗でした。締約国会議に触れている気候政策のアイテムが全部引っかかってしまうので{t}、この検索語は使わないことにしました。',
      'スウェーデンの度日データを中国のものとそろえて正規化した消費量を比べようとしましたが、スウェーデン側で二冬分のデータが欠けていて{t}比較になりませんでした。',
    ],
    decisions: [
      '実測研究は改修パッケージごとにまとめます。ヒートポンプ単体か、ヒートポンプと外皮改修の組み合わせか{t}で挙動がかなり違うからです。',
      '数値を比較できるように、期間性能はすべてSPF H2の境界で引用し{t}、別の境界を使っている論文には注記します。',
      '中国北部の「煤改電」の農村住宅は公営住宅には含めず、別のグループにします{t}。持ち家なので。',
      '光熱費は暖房度日で正規化します{t}。そうしないと北海道とアイルランドの数字を並べられません。',
      'インタビューや日誌の研究は性能の結果の後に独立した小節にまとめます{t}。あちこちに散らばらないように。',
    ],
    todo: [
      '研究ごとの実測SPF値の表をまだ作る必要があります{t}。残りの四本を読んだら作ります。',
      'こちらの未解決事項：フィンランドの省の報告書のDOIを探すこと{t}。Crossrefにはありませんでした。',
      '次は方法の節の検索戦略の段落を下書きします{t}。',
      '残っている作業：草稿にすでにある参考文献を新しい形式に直すこと{t}。',
    ],
    todoDone: [
      '検索戦略の段落は下書きが終わり、ノートのフォルダに入れてあります{t}。',
      '草稿の参考文献はすべて変換しました{t}。団体著者のものは手で確認しています。',
    ],
    guess: [
      '消費量のばらつきの一部は、入居者が冬に窓を開けていることから来ているのではないかと思います{t}。数値が一番悪い団地は空気がこもるという苦情も一番多いところです。',
      '可能性の一つとして、SPFが最も低いサイトは施工業者が電気の補助ヒーターを自動のままにしていたところかもしれません{t}。',
      '中国の事例で光熱費があまり下がらなかったのは、ヒートポンプそのものより時間帯別料金の設計のせいではないでしょうか{t}。',
    ],
    prose: [
      'トロムソの棟では、外気−15 °C以下の時間のうち{n}%で補助ヒーターが動いていました（{k}、{p}頁）{t}。',
      '入居者については{k}の{p}ページが一番はっきりしていて、{n}%が以前より暖かくなったと答えています{t}。',
      'もう一つ：{k} p.{p}によると、改修後に{n}世帯が電気代を滞納しました{t}。',
      '引用する価値があります。ラジエーターが小さすぎたため、最も寒い日には送水温度を{n} °Cまで上げる必要がありました{t}。出典は{k}の{p}ページです。',
    ],
  },
};

// Small talk: [the user's question, the assistant's answer], per user language.
const CHAT = {
  en: [
    ['what does the library have on defrost losses?', 'There are five items on defrosting; two of them report defrost energy as a share of total consumption, the others only count cycles.'],
    ['can you check if any of the chinese papers report indoor temps', 'Two of the Chinese field studies log living-room temperature; one only reports it as a daily mean.'],
    ['hmm which of these have a control group', 'Very few. Most compare the same flats before and after; one compares retrofitted and not-yet-retrofitted blocks on the same estate.'],
    ['is there anything on noise from the outdoor units', 'Yes, a couple of items mention noise, mostly as a side note in tenant surveys.'],
    ['how many of the papers actually report SPF and not just the COP from the datasheet?', 'Roughly half give a seasonal figure from metered data; the rest quote rated COP values.'],
    ["sorry if I asked this already but whats the oldest item in there", 'The oldest item in the collection is from 2011, a monitoring report from a Swedish housing company.'],
    ['can u read the results section of the next one', "I've pulled the full text; the results section is mostly about monthly electricity use."],
    ['does anyone look at bills in relation to income??', 'Only one study relates bills to household income directly; the rest report absolute costs.'],
    ['what about comfort complaints', 'Comfort complaints cluster in the first weeks after commissioning and in north-facing bedrooms.'],
    ['ok and the ones from Hokkaido?', 'The Hokkaido items are about public housing blocks in Sapporo and Asahikawa; both describe winter operation in detail.'],
    ['is teh Umeå estate in any of the papers or just in the grey literature', 'It appears in one journal paper and two municipal reports; the journal paper only covers the first winter.'],
  ],
  es: [
    ['que hay en la biblioteca sobre perdidas por desescarche?', 'Hay cinco ítems sobre desescarche; dos reportan la energía de desescarche como fracción del consumo total y los otros solo cuentan ciclos.'],
    ['puedes ver si alguno de los papers chinos reporta temperaturas interiores', 'Dos de los estudios de campo chinos registran la temperatura del living; uno solo la entrega como promedio diario.'],
    ['mmm cuales tienen grupo de control', 'Muy pocos. La mayoría compara los mismos departamentos antes y después; uno compara bloques intervenidos con bloques aún sin intervenir del mismo conjunto.'],
    ['hay algo sobre el ruido de las unidades exteriores', 'Sí, un par de ítems mencionan el ruido, casi siempre de pasada en encuestas a arrendatarios.'],
    ['cuantos reportan SPF de verdad y no solo el COP del catalogo?', 'Más o menos la mitad da un valor estacional a partir de datos medidos; el resto cita el COP nominal.'],
    ['perdon si ya te lo pregunte pero cual es el item mas antiguo', 'El ítem más antiguo de la colección es de 2011, un informe de monitoreo de una empresa de vivienda sueca.'],
    ['me lees la seccion de resultados del siguiente', 'Ya traje el texto completo; la sección de resultados trata sobre todo del consumo eléctrico mensual.'],
    ['alguien mira las cuentas en relacion al ingreso??', 'Solo un estudio relaciona las cuentas con el ingreso del hogar; el resto da costos absolutos.'],
    ['y las quejas de confort?', 'Las quejas de confort se concentran en las primeras semanas tras la puesta en marcha y en los dormitorios más expuestos.'],
    ['y los de Temuco?', 'Los ítems de Temuco tratan del recambio de calefactores a leña en viviendas sociales; uno tiene mediciones de un invierno completo.'],
    ['el conjunto de Umeå aparece en algun paper o solo en literatura gris', 'Aparece en un artículo de revista y en dos informes municipales; el artículo solo cubre el primer invierno.'],
  ],
  vi: [
    ['trong thu vien co gi ve ton that xa bang khong', 'Có năm mục về xả băng; hai mục báo cáo năng lượng xả băng theo tỷ lệ tổng tiêu thụ, các mục khác chỉ đếm số chu kỳ.'],
    ['bạn xem mấy bài Trung Quốc có bài nào báo nhiệt độ trong nhà không', 'Hai nghiên cứu thực địa Trung Quốc ghi nhiệt độ phòng khách; một bài chỉ đưa trung bình ngày.'],
    ['hmm bai nao co nhom doi chung', 'Rất ít. Phần lớn so sánh cùng căn hộ trước và sau; một bài so sánh các khối đã cải tạo với các khối chưa cải tạo trong cùng khu.'],
    ['có gì về tiếng ồn của dàn nóng không', 'Có, vài mục nhắc đến tiếng ồn, chủ yếu là ghi chú phụ trong khảo sát người thuê.'],
    ['bao nhiêu bài thực sự báo SPF chứ không chỉ COP trong catalogue', 'Khoảng một nửa đưa giá trị theo mùa từ số liệu đo; số còn lại trích COP danh định.'],
    ['xin loi neu hoi roi nhung muc cu nhat la gi', 'Mục cũ nhất trong bộ sưu tập là từ 2011, một báo cáo giám sát của một công ty nhà ở Thụy Điển.'],
    ['đọc giúp mình phần kết quả của bài tiếp theo', 'Mình đã lấy toàn văn; phần kết quả chủ yếu nói về điện năng tiêu thụ hằng tháng.'],
    ['co ai xem hoa don so voi thu nhap khong', 'Chỉ một nghiên cứu liên hệ hóa đơn với thu nhập hộ gia đình; các bài còn lại đưa chi phí tuyệt đối.'],
    ['còn than phiền về tiện nghi thì sao', 'Than phiền về tiện nghi tập trung vào mấy tuần đầu sau khi vận hành và các phòng ngủ hướng bắc.'],
    ['mấy bài ở Hokkaido thì sao', 'Các mục về Hokkaido nói về các khối nhà công ở Sapporo và Asahikawa; cả hai đều mô tả chi tiết vận hành mùa đông.'],
    ['khu Umea co trong bai bao nao khong hay chi co tai lieu xam', 'Khu này có trong một bài tạp chí và hai báo cáo của thành phố; bài tạp chí chỉ bao gồm mùa đông đầu tiên.'],
  ],
  zh: [
    ['库里有关于除霜损失的吗', '有五条讲除霜；两条把除霜能耗报告成总能耗的比例，其余只统计了次数。'],
    ['帮我看下中文那几篇有没有报告室内温度', '有两篇中国的实测研究记录了客厅温度；其中一篇只给了日均值。'],
    ['嗯 哪些有对照组', '很少。多数是同一批住户改造前后对比，只有一篇比较了同一小区已改造和未改造的楼。'],
    ['有没有讲室外机噪音的', '有，几条提到了噪音，大多是租户调查里顺带一提。'],
    ['有几篇是真的报SPF 不是样本上的COP', '大约一半给出了基于实测的季节值，其余引用额定COP。'],
    ['不好意思可能问过了 最早的一条是哪年的', '最早的一条是2011年的，一家瑞典住房公司的监测报告。'],
    ['下一篇的结果部分帮我读一下', '全文已经取到了；结果部分主要是逐月用电量。'],
    ['有人把电费和收入放一起看吗', '只有一篇把电费和家庭收入直接联系起来；其余都是绝对费用。'],
    ['舒适度投诉呢', '舒适度投诉主要集中在调试后的头几周和朝北的卧室。'],
    ['那哈尔滨那几篇呢', '哈尔滨的几条讲的是低温空气源热泵的结霜问题，其中一篇有整个采暖季的数据。'],
    ['于默奥那个小区有正式发表的文章吗 还是只有灰色文献', '有一篇期刊论文和两份市政报告；期刊论文只覆盖了第一个冬天。'],
  ],
  ja: [
    ['ライブラリにデフロスト損失についての文献ありますか', 'デフロストについては5件あります。2件はデフロストのエネルギーを総消費に対する割合で報告していて、残りは回数だけです。'],
    ['中国の論文で室内温度を報告してるのあるか見てもらえますか', '中国の実測研究のうち2件が居間の温度を記録しています。1件は日平均だけです。'],
    ['うーん 対照群があるのはどれ', 'ごくわずかです。ほとんどは同じ住戸の改修前後の比較で、1件だけ同じ団地の改修済みの棟と未改修の棟を比べています。'],
    ['室外機の騒音について何かある？', 'はい、いくつかのアイテムで騒音に触れていますが、ほとんどは入居者アンケートのついでです。'],
    ['カタログのCOPじゃなくてちゃんとSPFを報告してるのは何本くらい', '実測データから期間値を出しているのは約半分で、残りは定格COPを引用しています。'],
    ['もう聞いてたらすみません 一番古いアイテムはどれ', 'コレクションで一番古いのは2011年の、スウェーデンの住宅会社のモニタリング報告です。'],
    ['次のやつの結果の節読んでください', '全文を取得しました。結果の節は主に月ごとの電力消費についてです。'],
    ['収入との関係で光熱費を見てる研究ってあります？', '世帯収入と光熱費を直接結びつけているのは1件だけで、ほかは絶対額です。'],
    ['快適性の苦情は？', '快適性の苦情は運転開始後の最初の数週間と北向きの寝室に集中しています。'],
    ['北海道のはどうですか', '北海道のアイテムは札幌と旭川の公営住宅の棟についてで、どちらも冬期運転を詳しく報告しています。'],
    ['ウメオの団地って論文になってます？それとも灰色文献だけ', '学術誌の論文が1本と市の報告書が2本あります。論文は最初の冬だけを扱っています。'],
  ],
  mixed: [
    ['was hat die library zu defrost losses?', 'There are five items on defrosting; two report defrost energy as a share of total consumption, the others only count cycles.'],
    ['kannst du checken ob die chinesischen papers Innentemperaturen reporten', 'Two of the Chinese field studies log living-room temperature; one only gives a daily mean.'],
    ['hmm welche haben ne Kontrollgruppe', 'Very few. Most compare the same flats before and after; one compares retrofitted and not-yet-retrofitted blocks on the same estate.'],
    ['gibts was zu noise von den Außengeräten', 'Yes, a couple of items mention noise, mostly in passing in tenant surveys.'],
    ['wie viele reporten echt SPF und nicht nur den COP aus dem Datenblatt?', 'About half give a seasonal figure from metered data; the rest quote rated COP.'],
    ['sorry falls ich das schon gefragt hab, aber was ist das älteste item', 'The oldest item in the collection is from 2011, a monitoring report from a Swedish housing company.'],
    ['lies mal bitte den results Teil vom nächsten', "I've pulled the full text; the results section is mostly monthly electricity use."],
    ['schaut sich irgendwer die Heizkosten relativ zum Einkommen an??', 'Only one study relates bills to household income directly; the others report absolute costs.'],
    ['und comfort complaints?', 'Comfort complaints cluster in the first weeks after commissioning and in north-facing bedrooms.'],
    ['und die aus Hokkaido?', 'The Hokkaido items cover public housing blocks in Sapporo and Asahikawa; both describe winter operation in detail.'],
    ['ist die Umeå Siedlung in nem paper oder nur in der grauen Literatur', 'It is in one journal paper and two municipal reports; the journal paper only covers the first winter.'],
  ],
};

// Reading notes the user keeps in Zotero (Markdown), per user language: two with a finding
// ({a} author, {y} year, {k} key, {c} flats, {p} page, {q} another page, {n} number, {t} tag), and idle ones.
const NOTE_FINDING = {
  en: [
    '# {a} ({y}): reading notes\nItem {k} · read in January\n\n## Setup\n- {c} flats in three blocks, metered over three heating seasons\n- backup heater sub-metered separately (good!)\n\n## Results\n- p. {p}: the backup heater covered {n}% of the delivered heat on the coldest days {t}\n- p. {q}: indoor temps stable, living room around 21 °C\n\n## Use in chapter\n- performance section, next to the Tromsø study\n',
    '## Tenant bits to quote\n\n- {k} p. {p}: {n}% of the tenants said they had stopped using the oven for extra heat {t}\n- interviews were done in the second winter, translated by the authors\n- check if the sample overlaps with the 2019 survey\n',
  ],
  es: [
    '# {a} ({y}): notas de lectura\nÍtem {k} · leído en enero\n\n## Diseño\n- {c} departamentos en tres bloques, medidos durante tres temporadas de calefacción\n- el calefactor de respaldo tiene medidor propio (bien!)\n\n## Resultados\n- pág. {p}: el respaldo cubrió el {n}% del calor entregado en los días más fríos {t}\n- pág. {q}: temperaturas interiores estables, living cerca de 21 °C\n\n## Para el capítulo\n- apartado de rendimiento, junto al estudio de Tromsø\n',
    '## Cosas de arrendatarios para citar\n\n- {k} p. {p}: el {n}% de los arrendatarios dijo que dejó de usar el horno para calentar la casa {t}\n- las entrevistas se hicieron el segundo invierno, traducidas por los autores\n- revisar si la muestra se cruza con la encuesta de 2019\n',
  ],
  vi: [
    '# {a} ({y}) ghi chu doc\nMuc {k} · doc thang 1\n\n## Thiet ke\n- {c} can ho trong ba khoi nha, do trong ba mua suoi\n- may suoi du phong co dong ho rieng (tot!)\n\n## Ket qua\n- tr. {p}: may suoi du phong cung cap {n}% nhiet vao nhung ngay lanh nhat {t}\n- tr. {q}: nhiet do trong nha on dinh, phong khach khoang 21 °C\n\n## Dung trong chuong\n- phan hieu suat, canh nghien cuu Tromsø\n',
    '## Ve nguoi thue de trich\n\n- {k} tr. {p}: {n}% nguoi thue noi da thoi dung lo nuong de suoi them {t}\n- phong van lam vao mua dong thu hai, tac gia tu dich\n- kiem tra mau co trung voi khao sat 2019 khong\n',
  ],
  zh: [
    '# {a}（{y}）阅读笔记\n条目 {k} · 一月读\n\n## 设计\n- 三栋楼{c}户 测了三个采暖季\n- 备用电加热单独计量（好！）\n\n## 结果\n- 第{p}页：最冷那几天备用电加热提供了{n}%的供热量{t}\n- 第{q}页：室内温度稳定 客厅21 °C左右\n\n## 章节里怎么用\n- 放性能部分 和特罗姆瑟那篇一起\n',
    '## 租户相关 可以引用\n\n- {k} 第{p}页：{n}%的租户说不再用烤箱补充取暖了{t}\n- 访谈是第二个冬天做的 作者自己翻译\n- 查一下样本是否和2019年的调查重叠\n',
  ],
  ja: [
    '# {a}（{y}）読書メモ\nアイテム {k} ・1月に読了\n\n## 調査の設計\n- 3棟{c}戸 暖房期3シーズン計測\n- 補助ヒーターは別計量（よい）\n\n## 結果\n- {p}頁：最も寒い日には補助ヒーターが供給熱量の{n}%を担った{t}\n- {q}頁：室温は安定 居間はだいたい21 °C\n\n## 章での使い方\n- 性能の節 トロムソの研究と並べる\n',
    '## 入居者まわり 引用候補\n\n- {k} p.{p}：入居者の{n}%が暖房の足しにオーブンを使うのをやめたと回答{t}\n- インタビューは2冬目 著者による翻訳\n- 2019年の調査とサンプルが重なってないか確認\n',
  ],
  mixed: [
    '# {a} ({y}): Lesenotizen\nItem {k} · gelesen im Januar\n\n## Setup\n- {c} Wohnungen in drei Blöcken, über drei Heizperioden gemessen\n- backup heater separat sub-metered (gut!)\n\n## Ergebnisse\n- S. {p}: der backup heater hat an den kältesten Tagen {n}% der gelieferten Wärme gedeckt {t}\n- S. {q}: Innentemperaturen stabil, Wohnzimmer so um 21 °C\n\n## Fürs Kapitel\n- performance section, neben die Tromsø Studie\n',
    '## Mieter-Zeug zum Zitieren\n\n- {k} S. {p}: {n}% der Mieter sagen, sie heizen nicht mehr mit dem Backofen zu {t}\n- Interviews im zweiten Winter, von den Autoren übersetzt\n- checken ob das sample mit dem 2019 survey überlappt\n',
  ],
};
const NOTE_IDLE = {
  en: ['# {a} ({y})\n\n- p. {p}: method ok, how the flats were sampled is not explained\n- compare w/ table 2 of the Tromsø paper\n- ??? which boundary is their COP\n', '## quick notes\n- only the first winter metered\n- p. {p}: survey response rate low (31%)\n- background only?\n'],
  es: ['# {a} ({y})\n\n- pág. {p}: método ok, no explican cómo eligieron los departamentos\n- comparar con la tabla 2 del paper de Tromsø\n- ??? en qué límite está su COP\n', '## notas rápidas\n- solo midieron el primer invierno\n- pág. {p}: tasa de respuesta baja (31%)\n- solo contexto?\n'],
  vi: ['# {a} ({y})\n\n- tr. {p}: phuong phap ok, khong noi chon can ho the nao\n- so voi bang 2 cua bai Tromsø\n- ??? COP cua ho theo ranh gioi nao\n', '## ghi chu nhanh\n- chi do mua dong dau tien\n- tr. {p}: ti le tra loi khao sat thap (31%)\n- chi lam nen?\n'],
  zh: ['# {a}（{y}）\n\n- 第{p}页：方法还行 没说住户怎么抽样的\n- 和特罗姆瑟那篇的表2对比\n- ？？？他们的COP是哪个边界\n', '## 速记\n- 只测了第一个冬天\n- 第{p}页：问卷回收率低（31%）\n- 只当背景？\n'],
  ja: ['# {a}（{y}）\n\n- {p}頁：方法はOK 住戸の選び方の説明なし\n- トロムソの論文の表2と比較\n- ？？？COPの境界はどれ\n', '## メモ\n- 計測は最初の冬だけ\n- {p}頁：アンケート回収率が低い（31%）\n- 背景扱いかな\n'],
  mixed: ['# {a} ({y})\n\n- S. {p}: Methode ok, wie die Wohnungen ausgewählt wurden steht nirgends\n- vgl. table 2 vom Tromsø paper\n- ??? welche boundary hat ihr COP\n', '## kurz\n- nur der erste Winter gemessen\n- S. {p}: response rate vom survey niedrig (31%)\n- nur background?\n'],
};

// Papers: running text for the full-text tool, per paper language, and the two findings that live only there.
const PAPER = {
  en: [
    'Flow temperatures above 55 °C were required on the coldest days in buildings where the original radiators were retained.',
    'The monitoring period covered three heating seasons, with data logged at ten-minute intervals.',
    'Heat meters were installed on the condenser side of each unit, and electricity was sub-metered separately for the compressor, the fans and the backup heater.',
    'Indoor temperatures were recorded in the living room and in one bedroom of every participating flat.',
    'Tenants were interviewed twice, once before the retrofit and once after the first winter.',
    'Defrost cycles were most frequent between −5 °C and +2 °C, when outdoor humidity was high.',
    'The seasonal performance factor was calculated at the SPF H2 boundary, including the backup heater but excluding circulation pumps.',
    "Several households reported that they did not understand the new thermostat and left it at the installer's setting.",
    'Energy costs are reported in nominal terms and were not corrected for the tariff change in the second year.',
    'The housing association replaced the gas boilers block by block, so the control group shrank over the study period.',
    'Outdoor units were mounted on the roof to avoid noise complaints, which lengthened the refrigerant lines.',
    'Heating degree days at the site averaged 4,900 over the monitoring period (base 17 °C).',
    'Table 3 summarises the electricity use of the backup resistance heaters by month.',
    'Where the envelope was upgraded at the same time, heat demand fell by roughly a third before the heat pump was commissioned.',
  ],
  es: [
    'En los bloques donde se mantuvieron los radiadores originales se requirieron temperaturas de impulsión sobre 55 °C en los días más fríos.',
    'El periodo de monitoreo abarcó tres temporadas de calefacción, con registros cada diez minutos.',
    'Se instalaron medidores de calor en el lado del condensador de cada equipo y la electricidad se midió por separado para el compresor, los ventiladores y el calefactor de respaldo.',
    'Las temperaturas interiores se registraron en el living y en un dormitorio de cada vivienda participante.',
    'Los arrendatarios fueron entrevistados dos veces, antes de la intervención y después del primer invierno.',
    'Los ciclos de desescarche fueron más frecuentes entre −5 °C y +2 °C, cuando la humedad exterior era alta.',
    'Varios hogares declararon que no entendían el nuevo termostato y lo dejaron en la configuración del instalador.',
    'Los costos de energía se informan en términos nominales y no se corrigieron por el cambio de tarifa del segundo año.',
    'En Temuco, el recambio de calefactores a leña redujo el material particulado en el interior de las viviendas.',
  ],
  zh: [
    '在保留原有散热器的楼栋中，最冷的几天供水温度需要超过55 °C。',
    '监测期覆盖三个采暖季，数据每十分钟记录一次。',
    '每台机组的冷凝器侧安装了热量表，压缩机、风机和备用电加热分别计量用电。',
    '每户的客厅和一间卧室记录了室内温度。',
    '在室外温度−5 °C至+2 °C且湿度较高时，除霜最为频繁。',
    '季节性能系数按SPF H2边界计算，包括备用电加热但不包括循环泵。',
    '部分住户表示看不懂新的温控器，一直保持安装时的设定。',
    '电费以名义价格报告，未对第二年的电价调整进行修正。',
    '“煤改电”后农户采暖期用电量明显增加，但室内温度也有所提高。',
  ],
  ja: [
    '既存のラジエーターを残した棟では、最も寒い日に送水温度を55 °C以上にする必要があった。',
    '計測期間は暖房期3シーズンにわたり、データは10分間隔で記録された。',
    '各機器の凝縮器側に熱量計を設置し、圧縮機、ファン、補助ヒーターの電力を個別に計量した。',
    '室温は参加住戸の居間と寝室1室で記録した。',
    'デフロストは外気温が−5 °Cから+2 °Cで湿度が高いときに最も頻繁に発生した。',
    '期間性能係数はSPF H2の境界で算出し、補助ヒーターを含み循環ポンプは含めていない。',
    '新しいサーモスタットの使い方がわからず、施工時の設定のままにしている世帯が複数あった。',
    '光熱費は名目値で示しており、2年目の料金改定は補正していない。',
    '札幌の団地では室外機を屋上に設置したため、冷媒配管が長くなった。',
  ],
};
const FULLTEXT_FINDING = {
  en: [
    'In the blocks that kept their original radiators the seasonal performance factor reached only 2.{n} {t}, compared with 3.1 in the blocks where low-temperature radiators had been fitted.',
    'Of the households interviewed after the first winter, {n} per cent reported that their heating costs had become harder to predict {t}.',
  ],
  es: [
    'En los bloques que mantuvieron sus radiadores originales, el factor de rendimiento estacional llegó solo a 2,{n} {t}, frente a 3,1 en los bloques con radiadores de baja temperatura.',
    'De los hogares entrevistados tras el primer invierno, el {n} % declaró que sus gastos de calefacción se habían vuelto más difíciles de prever {t}.',
  ],
  zh: [
    '保留原有散热器的楼栋季节性能系数只有2.{n}{t}，而更换低温散热器的楼栋为3.1。',
    '在第一个冬季后接受访谈的住户中，有{n}%表示取暖费用变得更难预测{t}。',
  ],
  ja: [
    '既存のラジエーターを残した棟では期間性能係数が2.{n}にとどまり{t}、低温ラジエーターに交換した棟の3.1を下回った。',
    '最初の冬の後に聞き取りを行った世帯のうち{n}%が、暖房費の見通しが立てにくくなったと回答した{t}。',
  ],
};

const TITLES = {
  en: [
    'Field performance of air-to-water heat pumps in retrofitted multi-family social housing',
    'Measured seasonal performance factors of cold-climate heat pumps in subarctic apartment blocks',
    'Tenant experience after replacing district heating with heat pumps: an interview study',
    'Energy bills, fuel poverty and heat pump retrofits in public housing',
    'The performance gap of heat pump retrofits: radiators, flow temperatures and controls',
    'Low-temperature readiness of existing hydronic systems in 1960s and 1970s housing estates',
    'Defrost losses of air-source heat pumps at sub-zero outdoor temperatures',
    'Monitoring 120 flats over three winters: a heat pump retrofit case study',
    'Occupant behaviour and window opening in social housing after deep energy retrofit',
    'Noise complaints and outdoor units: social acceptance of heat pumps in dense housing',
  ],
  es: ['Desempeño de bombas de calor en viviendas sociales del sur de Chile', 'Pobreza energética y recambio de calefactores a leña en Temuco', 'Confort térmico y consumo eléctrico tras la electrificación de la calefacción en conjuntos habitacionales'],
  zh: ['北方农村“煤改电”空气源热泵运行性能实测研究', '严寒地区既有公共住房空气源热泵改造的能耗与舒适度调查', '低温空气源热泵在哈尔滨住宅中的结霜与除霜损失', '清洁取暖政策下居民电费负担的变化'],
  ja: ['寒冷地公営住宅における空気熱源ヒートポンプ改修の実測評価', '北海道の集合住宅における暖房用ヒートポンプの冬期運転特性', '居住者アンケートによるヒートポンプ暖房改修後の満足度'],
};
const AUTHORS = {
  en: ['Haugen', 'Nilsson', 'Kivimäki', "O'Sullivan", 'Gleeson', 'Lindqvist', 'Brennan', 'Kowalczyk', 'Madsen', 'Larocque', 'Fortin', 'Eriksson'],
  es: ['Morales', 'Pérez', 'Schueftan', 'Fuentes', 'Cárdenas'],
  zh: ['张伟', '刘洋', '王磊', '李静', '赵明'],
  ja: ['佐藤', '高橋', '田中', '伊藤', '渡辺'],
};
const JOURNALS = {
  en: ['Energy and Buildings', 'Applied Thermal Engineering', 'Energy Research & Social Science', 'Building and Environment', 'Energy Policy'],
  es: ['Revista de la Construcción', 'Informes de la Construcción'],
  zh: ['暖通空调', '建筑科学', '太阳能学报'],
  ja: ['日本建築学会環境系論文集', '空気調和・衛生工学会論文集'],
};
const QUERIES = ['heat pump social housing', 'seasonal performance factor measured', 'tenant interview heat pump', 'fuel poverty heat pump', 'defrost', 'radiator flow temperature', 'backup heater', '空气源热泵 实测', 'ヒートポンプ 寒冷地', 'bomba de calor vivienda social'];

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/g;
const tokensOf = (s) => {
  const cjk = (s.match(CJK) ?? []).length;
  return cjk + (s.length - cjk) / 4;
};

/** Seeded session of `turns` turns in `language` for a model with a `window`-token context. */
export function makeFourthSession(seed, language, turns, window) {
  const r = rng(seed * 69069 + LANGUAGES.indexOf(language) * 104729 + window * 3 + 7);
  const u = USER[language];
  const al = language === 'mixed' ? 'en' : language;
  const a = ASSIST[al];
  const paperLang = al === 'zh' || al === 'ja' || al === 'es' ? al : 'en';
  const at = (pct) => Math.min(turns - 1, Math.max(1, Math.round((pct * turns) / 100)));
  const used = new Set();
  const tag = () => {
    let t;
    do t = `⟦${Array.from({ length: 4 }, () => TAG_CHARS[r.int(0, TAG_CHARS.length - 1)]).join('')}⟧`;
    while (used.has(t));
    used.add(t);
    return t;
  };
  const { facts, plan, add, fill, plant, chain } = factPlanner(tag, at);

  // The user's side.
  plant('goal', 0, 'user', u.goal);
  plant('goal', at(47), 'user', u.goal2);
  chain('style', [3, 38, 77], u.styles);
  chain('deadline', [7, 45, 86], u.deadlines, (i) => ({ x: u.dates[i] }));
  const cold = plant('constraint', at(5), 'user', u.climate);
  const words = plant('constraint', at(12), 'user', u.words);
  plant('constraint', at(18), 'user', u.since2010);
  plant('constraint', at(24), 'user', u.measured);
  plant('constraint', at(30), 'user', u.vendor);
  cold.staleBy = plant('constraint', at(52), 'user', u.climateWider).probe;
  words.staleBy = plant('constraint', at(70), 'user', u.wordsFewer).probe;
  plant('failed', at(20), 'user', u.scopus);
  plant('failed', at(60), 'user', u.ill);
  const central = [r.key(), r.key(), r.key()];
  const pinAt = [14, 29, 42];
  const pins = pinAt.map((pct, i) => plant('designation', at(pct), 'user', u.pins[i], { k: central[i] }, { key: central[i] }));
  pins[0].staleBy = plant('retraction', at(55), 'user', u.unpins[0], { k: central[0] }, { key: central[0] }).probe;
  pins[2].staleBy = plant('retraction', at(84), 'user', u.unpins[1], { k: central[2] }, { key: central[2] }).probe;
  plant('decision', at(27), 'user', u.decide);
  const mine = plant('task', at(26), 'user', u.mine);
  mine.staleBy = plant('task-done', at(48), 'user', u.mineDone).probe;
  const hunch = plant('hypothesis', at(37), 'user', u.hunch);
  hunch.staleBy = plant('hypothesis-closed', at(74), 'user', u.hunchHolds).probe;

  // The assistant's side; the user closes some of it.
  [16, 39, 63].forEach((pct, i) => plant('failed', at(pct), 'assistant', a.dead[i]));
  [19, 33, 51, 66, 91].forEach((pct, i) => plant('decision', at(pct), 'assistant', a.decisions[i]));
  const todos = [17, 31, 57, 79].map((pct, i) => plant('task', at(pct), 'assistant', a.todo[i]));
  todos[0].staleBy = plant('task-done', at(35), 'user', u.tableDone).probe;
  todos[2].staleBy = plant('task-done', at(65), 'assistant', a.todoDone[0]).probe;
  todos[3].staleBy = plant('task-done', at(93), 'assistant', a.todoDone[1]).probe;
  const guesses = [23, 41, 59].map((pct, i) => plant('hypothesis', at(pct), 'assistant', a.guess[i]));
  guesses[0].staleBy = plant('hypothesis-closed', at(68), 'user', u.windowsYes).probe;
  guesses[1].staleBy = plant('hypothesis-closed', at(81), 'user', u.backupNo).probe;

  // Bibliographic metadata, one record per key for the whole session.
  const meta = new Map();
  const metaOf = (key, lang) => {
    if (!meta.has(key)) {
      const l = lang ?? (paperLang !== 'en' && r.next() < 0.35 ? paperLang : 'en');
      const n = r.int(1, 3);
      const author = r.pick(AUTHORS[l]);
      meta.set(key, {
        lang: l, author, second: r.pick(AUTHORS[l].filter((x) => x !== author)), authors: n, year: r.int(2011, 2025), title: r.pick(TITLES[l]),
        journal: r.pick(JOURNALS[l]), volume: r.int(20, 320), article: r.int(100000, 119999),
      });
    }
    return meta.get(key);
  };
  const creators = (m) => (m.authors === 1 ? m.author : m.authors === 2 ? `${m.author} & ${m.second}` : `${m.author} et al.`);
  const shown = new Map(); // turn -> keys a search shows
  const show = (turn, key) => shown.set(turn, [...(shown.get(turn) ?? []), key]);
  pinAt.forEach((pct, i) => { show(at(pct) - 1, central[i]); show(at(pct), central[i]); });
  show(at(55), central[0]);
  show(at(84), central[2]);

  // Findings: in the assistant's prose, in the user's messages, only inside full text, only inside a note.
  const findingKeys = [];
  const finding = (pct, lo, hi) => {
    const key = r.key();
    const f = { key, probe: tag(), page: r.int(3, 26), n: r.int(lo, hi), turn: at(pct) };
    facts.push({ kind: 'finding', turn: f.turn, probe: f.probe, key, page: String(f.page) });
    findingKeys.push(key);
    metaOf(key, paperLang);
    return f;
  };
  [[10, 3, 40], [22, 40, 90], [53, 3, 30], [89, 56, 70]].forEach(([pct, lo, hi], i) => {
    const f = finding(pct, lo, hi);
    add(f.turn, 'assistant', fill(a.prose[i], { k: f.key, p: f.page, n: f.n, t: f.probe }));
    show(f.turn, f.key);
  });
  [[44, 8, 40], [76, 3, 24]].forEach(([pct, lo, hi], i) => {
    const f = finding(pct, lo, hi);
    add(f.turn, 'user', fill(u.found[i], { k: f.key, p: f.page, n: f.n, t: f.probe }));
    if (r.next() < 0.5) show(f.turn - 1, f.key);
  });
  const fulltextAt = new Map();
  [[34, 10, 89], [71, 12, 64]].forEach(([pct, lo, hi], i) => {
    const f = finding(pct, lo, hi);
    fulltextAt.set(f.turn, { ...f, sentence: fill(FULLTEXT_FINDING[paperLang][i], { n: f.n, t: f.probe }) });
    show(f.turn, f.key);
  });
  const notesAt = new Map();
  [[13, 8, 35], [58, 20, 80]].forEach(([pct, lo, hi], i) => {
    const f = finding(pct, lo, hi);
    const m = metaOf(f.key);
    notesAt.set(f.turn, { key: f.key, note: fill(NOTE_FINDING[language][i], { a: m.author, y: m.year, k: f.key, c: r.int(24, 180), p: f.page, q: f.page + r.int(1, 3), n: f.n, t: f.probe }) });
  });

  const paperText = (lang, tokens) => {
    const cjk = lang === 'zh' || lang === 'ja';
    const sentences = [];
    let so = 0;
    while (so < tokens) {
      const s = r.pick(PAPER[lang]);
      sentences.push(s);
      so += tokensOf(s) + 1;
    }
    let text = '';
    sentences.forEach((s, i) => { text += (i && i % r.int(3, 6) === 0 ? '\n' : cjk || !i ? '' : ' ') + s; });
    return text;
  };
  const fulltext = (key, first, tokens, planted) => {
    const m = metaOf(key);
    const pages = Math.max(2, Math.ceil(tokens / r.int(600, 800)));
    const head = m.lang === 'zh' ? `${m.journal} ${m.year}年 第${m.volume % 60}卷` : m.lang === 'ja' ? `${m.journal} 第${m.volume % 90}巻 (${m.year})` : `${m.author} et al. / ${m.journal} ${m.volume} (${m.year}) ${m.article}`;
    const texts = Array.from({ length: pages }, () => paperText(m.lang, tokens / pages));
    if (planted) {
      // The finding goes after a sentence in the middle of the page that carries its page number.
      const t = texts[1];
      const mid = Math.floor(t.length / 2);
      const after = t.slice(mid).search(/(?<=[.。])/);
      const i = after < 0 ? t.length : mid + after;
      texts[1] = `${t.slice(0, i)}${m.lang === 'zh' || m.lang === 'ja' ? '' : ' '}${planted.sentence}${t.slice(i)}`;
    }
    const totalPages = first + pages - 1 + r.int(0, 8);
    return {
      content: texts.map((t, i) => `${head}\n\n${t}\n\n${first + i}\n`).join('\f'),
      indexedPages: Math.min(totalPages, 100),
      totalPages,
    };
  };
  const bibtex = (keys) => keys.map((k) => {
    const m = metaOf(k);
    const latin = m.lang === 'en' || m.lang === 'es';
    const cite = latin ? `${m.author.toLowerCase().replace(/[^a-z]/g, '')}_${m.title.split(' ')[0].toLowerCase().replace(/[^a-z]/g, '')}_${m.year}` : `${k.toLowerCase()}_${m.year}`;
    const author = m.authors === 1 ? m.author : `${m.author} and ${m.second}${m.authors > 2 ? ' and others' : ''}`;
    return `@article{${cite},\n\ttitle = {${m.title}},\n\tvolume = {${m.volume}},\n\tjournal = {${m.journal}},\n\tauthor = {${author}},\n\tyear = {${m.year}},\n\tpages = {${m.article}},\n}\n`;
  }).join('\n');

  const script = [];
  const latin = language === 'en' || language === 'es' || language === 'mixed';
  for (let turn = 0; turn < turns; turn++) {
    const planted = plan.get(turn) ?? [];
    const fromUser = planted.filter((p) => p.who === 'user').map((p) => p.text);
    const fromAssistant = planted.filter((p) => p.who === 'assistant').map((p) => p.text);
    const glue = () => r.pick(latin ? ['. ', ' ', '\n', '\n\n', ' - '] : [' ', '\n', '  ', '\n\n']);
    const join = (so, next) => {
      const g = glue();
      return so + (g === '. ' && /[.?!:)]$/.test(so) ? ' ' : g) + next;
    };
    // The user's message: small talk, or what is planted here (after an opener, before a question).
    const [question, reply] = r.pick(CHAT[language]);
    let userText;
    const answers = [];
    if (turn === 0) userText = fromUser.join('\n\n');
    else if (!fromUser.length) {
      userText = question;
      answers.push(reply);
      if (r.next() < 0.3) {
        const [q2, a2] = r.pick(CHAT[language]);
        if (q2 !== question) {
          userText = join(userText, q2);
          answers.push(a2);
        }
      }
    } else {
      userText = fromUser.reduce(join);
      if (r.next() < 0.35) userText = `${r.pick(u.openers)}${r.pick([' ', '\n'])}${userText}`;
      if (r.next() < 0.45) {
        userText = join(userText, question);
        answers.push(reply);
      }
    }
    const user = { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] };

    // The assistant's tool calls.
    const parts = [{ type: 'step-start' }];
    if (turn % 9 === 4) parts.push({ type: 'reasoning', text: a.reasoning, state: 'done' });
    const keys = Array.from({ length: r.int(3, 8) }, () => r.key());
    for (const k of shown.get(turn) ?? []) keys.splice(r.int(0, keys.length), 0, k);
    if (turn > at(14) && r.next() < 0.2) keys.push(r.pick(central));
    if (findingKeys.length && r.next() < 0.15) keys.push(r.pick(findingKeys));
    const searchInput = { query: r.pick(QUERIES), mode: r.pick(['everything', 'titleCreatorYear']), limit: 25 };
    if (turn % 31 === 20) {
      parts.push({ type: 'tool-zotero_search', toolCallId: `fc_search_${turn}_0`, state: 'output-error', input: searchInput, errorText: 'fetch failed: connect ECONNREFUSED 127.0.0.1:23119 (is Zotero running?)' });
    }
    if (turn === 0 || shown.has(turn) || r.next() < 0.7) {
      const lines = [...new Set(keys)].map((k) => {
        const m = metaOf(k);
        return `${k} | ${creators(m)} (${m.year}) | ${m.title}`;
      });
      parts.push({ type: 'tool-zotero_search', toolCallId: `fc_search_${turn}`, state: 'output-available', input: searchInput, output: lines.join('\n') });
    }
    const ft = fulltextAt.get(turn);
    if (ft || r.next() < 0.4) {
      const key = ft ? ft.key : keys[0];
      const share = ft || r.next() < 0.6 ? r.int(10, 20) : r.int(2, 5);
      const first = ft ? ft.page - 1 : r.int(1, 12);
      parts.push({ type: 'step-start' });
      parts.push({ type: 'tool-zotero_fulltext', toolCallId: `fc_fulltext_${turn}`, state: 'output-available', input: { itemKey: key, fromPage: first }, output: fulltext(key, first, Math.floor((window * share) / 100), ft) });
    }
    const nt = notesAt.get(turn);
    if (nt || turn % 7 === 3) {
      const key = nt ? nt.key : keys[keys.length - 1];
      const m = metaOf(key);
      const note = nt ? nt.note : fill(r.pick(NOTE_IDLE[language]), { a: m.author, y: m.year, p: r.int(2, 30) });
      parts.push({ type: 'dynamic-tool', toolName: 'zotero_notes', toolCallId: `fc_notes_${turn}`, state: 'output-available', input: { parentKey: key, format: 'markdown' }, output: note });
    }
    if (turn % 13 === 6) {
      const exported = [...new Set([keys[0], keys[1], ...(turn > at(14) ? [r.pick(central)] : [])])];
      parts.push({ type: 'tool-export_bibtex', toolCallId: `fc_bib_${turn}`, state: 'output-available', input: { itemKeys: exported }, output: bibtex(exported) });
    }
    if (turn % 19 === 11) {
      parts.push({ type: 'tool-fetch_oa_pdf', toolCallId: `fc_oa_${turn}`, state: 'output-error', input: { doi: `10.1016/j.enbuild.${metaOf(keys[0]).year}.${metaOf(keys[0]).article}` }, errorText: 'TimeoutError: The operation was aborted due to timeout' });
    }
    if (turn % 29 === 17) {
      parts.push({ type: 'dynamic-tool', toolName: 'library_proxy_fetch', toolCallId: `fc_proxy_${turn}`, state: 'output-error', input: { url: `https://www.sciencedirect.com/science/article/pii/S0378778821${r.int(100000, 999999)}` }, errorText: 'EZproxy session expired: 302 redirect to the login page' });
    }

    // The assistant's answer: a lead, the answers to the user's questions, what is planted, side remarks.
    const paras = [turn === 0 ? a.first : fromUser.length ? r.pick(a.acks) : answers.length ? answers.shift() : r.pick(a.filler)];
    paras.push(...answers);
    for (const text of fromAssistant) {
      const mode = r.next();
      if (mode < 0.45) paras.push(text);
      else if (mode < 0.75) paras.push(`${r.pick(a.side)}${al === 'zh' || al === 'ja' ? '' : ' '}${text}`);
      else paras.push(text, r.pick(a.side));
    }
    if (!fromAssistant.length && r.next() < 0.3) paras.push(r.pick(a.side));
    parts.push({ type: 'step-start' });
    parts.push({ type: 'text', text: paras.join('\n\n') });
    script.push({ user, assistant: { id: `a${turn}`, role: 'assistant', parts } });
  }
  facts.sort((x, y) => x.turn - y.turn);
  return { script, facts };
}
