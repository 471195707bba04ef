// Type stub: zotero-types names a GitHub build of pdf.js types (offline: unreachable); only these names are used.
export declare const version: string;
