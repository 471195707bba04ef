export declare class PDFThumbnailViewer {}
