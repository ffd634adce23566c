export { waitForWorkload, DEFAULT_WAIT_TIMING, type WaitOptions, type WaitableClient } from "./waiter";
export { formatDuration, type WaitProgress } from "./workload-wait";
export { describeWaitGoal } from "./goal";
export { WorkloadCondition, type ConditionOptions, type Observation, type Since, type Verdict, type WaitGoal } from "./condition";
export { StatusObserver, type ObserverInit, type ObserverTiming } from "./observer";
export { relevanceOf, rowWorthALook, namesTarget, type Relevance } from "./relevance";
export { SharedStatusReads, type StatusSource } from "./reads";
export { DEFAULT_SETTLE_RULE, settleAt, type SettleRule, type SettleClock } from "./settle";
