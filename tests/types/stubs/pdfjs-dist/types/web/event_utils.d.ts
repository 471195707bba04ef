export declare class EventBus {}
