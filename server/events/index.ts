export { EventHub, type HubOptions, type SseSink } from "./hub";
export { EventRing } from "./ring";
export { planResume, type ResumePlan } from "./resume";
export { formatFrame, formatComment, formatRetry, HEARTBEAT_FRAME } from "./frames";
