export { parseFlags, parseFlagsInOrder, type FlagToken, type FlagValues, type Flags } from "./parse";
export { UsageError } from "./usage-error";
export type { Io } from "./io";
