export declare class PDFScriptingManager {}
