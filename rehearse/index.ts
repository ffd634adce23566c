export { rehearse, type RehearseOptions } from "./rehearse";
export type { RehearsalReport, ResourceRow, StepResult } from "./report";
export type { NotCopied } from "./copy-workspace";
export type { FailureKind } from "./classify";
export { reportText } from "./render-text";
export { reportMarkdown } from "./render-markdown";
