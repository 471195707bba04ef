export declare class PDFFindController {}
