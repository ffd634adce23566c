import type { Finding } from "./finding";
import type { LearnDeps } from "./learn";
import type { StackPlace } from "../automation/place";
import type { Subscribe } from "./streams";

/** Options of a `Watch`; every timing is optional, its default stated beside it. */
export interface WatchOptions {
  /** Stack names; their project directory is the process's working directory unless `placeOf` says another. */
  stacks: string[];
  /** A stack's project directory and environment. @default this process's, with `env` */
  placeOf?: (stack: string) => StackPlace;
  onFinding: (finding: Finding) => void;
  /** Status lines ("all as declared", waits, stream changes, the provider's retries): never findings. */
  onStatus?: (line: string) => void;
  /** Put back drifted in-place fields. */
  revert?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Events within this window are compared in one go. @default 100 */
  debounceMs?: number;
  /** How often the status line is printed. @default 60000 */
  statusEveryMs?: number;
  /** How often each stack's stamp (state and config file times) is checked; read again only when it changed. @default 15000 */
  relearnEveryMs?: number;
  /** How often everything is compared whatever the streams say (client-go's resync). @default 600000 (10 min) */
  resyncEveryMs?: number;
  /** A workspace whose stream is not open this long is reported blind. @default 10000 (10 s) */
  streamOpenBoundMs?: number;
  /** At most one catch-up read of the activity per workspace per window. @default 2000 (2 s) */
  catchUpWindowMs?: number;
  /** Each resource's comparison as it ends: how long it took, and whether it read (metrics). */
  onCompared?: (durationMs: number, ok: boolean) => void;
  /** Counts every comparison request (bench). */
  onRead?: (workspace: string, workloads: number) => void;
  /** Stack readers, provider seams and streams (tests). @default the Automation API, the provider, one EventHub */
  deps?: Partial<LearnDeps & { subscribe: Subscribe }>;
}
