// The one place the Node tests of the JS glue get it from: the packed package when
// BIBGENIE_PKG names it (e.g. BIBGENIE_PKG=bibgenie-compaction), the js-glue/ sources otherwise.
const spec = process.env.BIBGENIE_PKG;

export const glue = spec
  ? await import(spec)
  : {
      ...(await import('../../js-glue/stores/index.js')),
      ...(await import('../../js-glue/zotero/loader.js')),
      ...(await import('../../js-glue/zotero/window-globals.js')),
      ...(await import('../../js-glue/util/abort-signal.js')),
      ...(await import('../../js-glue/chat/ai-sdk.js')),
    };
