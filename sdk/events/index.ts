export { EventHub, eventHub, type StreamConnectionSpec, type HubStream, type StreamFactory } from "./hub";
export { EventStream, DEFAULT_STREAM_OPTIONS, WATCHDOG_FACTOR, resolveStreamOptions, type StreamOptions, type EventStreamInit } from "./stream";
export { decodeEvent, type Decoded } from "./decode";
export type { StreamListener, StreamState, Unsubscribe } from "./types";
