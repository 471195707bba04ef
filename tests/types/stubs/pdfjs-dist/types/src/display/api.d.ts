export declare class PDFPageProxy {}
export declare class PDFDocumentProxy {}
export declare class PDFDocumentLoadingTask {}
