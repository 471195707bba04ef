export declare class PDFHistory {}
