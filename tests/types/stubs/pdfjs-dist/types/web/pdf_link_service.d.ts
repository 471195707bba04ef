export declare class PDFLinkService {}
