// Type stub: zotero-types names a GitHub build of epub.js (offline: unreachable); only these names are used.
export declare class Book {}
export declare class EpubCFI {}
