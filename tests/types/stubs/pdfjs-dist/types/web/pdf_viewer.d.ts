export declare class PDFViewer {}
