export { EventFanout, type FanoutOptions, type SseSink } from "./fanout";
export { EventRing } from "./ring";
export { planResume, type ResumePlan } from "./resume";
export { formatFrame, formatComment, formatRetry, HEARTBEAT_FRAME } from "./frames";
