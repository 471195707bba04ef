export declare class PDFRenderingQueue {}
