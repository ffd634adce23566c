import { failureAt, type Failure } from "./failures";
import type { Props } from "./props";
import { containsUnknown } from "./unknown";

/** The operations a `customTimeouts` resource option names. */
const TIMEOUT_OPERATIONS = ["create", "update", "delete"] as const;
export type TimeoutOperation = (typeof TIMEOUT_OPERATIONS)[number];

/** The longest wait a setting may ask for: 24 h. */
export const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;
/** Without any setting, each wait gives up after 10 min. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
const DURATION = /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h)/;

/**
 * Seconds of a duration as `customTimeouts` takes it (Go's `time.ParseDuration`: `30s`, `5m`,
 * `1h30m`, `1.5h`), or undefined when `text` is not one. A sign is refused: a wait is positive.
 */
export function parseDurationSeconds(text: string): number | undefined {
  let rest = text.trim();
  if (rest === "") return undefined;
  let seconds = 0;
  while (rest.length > 0) {
    const m = DURATION.exec(rest);
    if (!m) return undefined;
    const unit = /(ns|us|µs|ms|s|m|h)$/.exec(m[0])![1];
    seconds += Number(m[0].slice(0, -unit.length)) * UNIT_SECONDS[unit];
    rest = rest.slice(m[0].length);
  }
  return seconds;
}

/** Why the `customTimeouts` value carried in the inputs is wrong, per operation, or nothing. */
function timeoutProblems(value: unknown): Array<{ path: string[]; reason: string }> {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object" || Array.isArray(value))
    return [
      {
        path: ["customTimeouts"],
        reason: "must be an object {create?, update?, delete?} of durations such as 30s, 5m or 1h30m",
      },
    ];
  const problems: Array<{ path: string[]; reason: string }> = [];
  for (const [op, v] of Object.entries(value as Props)) {
    if (!(TIMEOUT_OPERATIONS as readonly string[]).includes(op)) {
      problems.push({ path: ["customTimeouts", op], reason: `unknown operation: use create, update or delete` });
      continue;
    }
    if (v === undefined || v === null || v === "") continue;
    const seconds = typeof v === "string" ? parseDurationSeconds(v) : undefined;
    if (seconds === undefined || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
      problems.push({
        path: ["customTimeouts", op],
        reason: `must be a duration above 0 and at most 24h, such as 30s, 5m or 1h30m (got ${JSON.stringify(v)})`,
      });
    }
  }
  return problems;
}

/**
 * How long a wait of `op` may take, in ms. `readyTimeoutSeconds` is the explicit setting of the
 * readiness waits (create and update); `customTimeouts.<op>` comes next, and is the only setting
 * of the deletion wait besides `readyTimeoutSeconds`; then 10 min.
 */
export function timeoutMsOf(props: Props, op: TimeoutOperation): number {
  const ready =
    typeof props.readyTimeoutSeconds === "number" && props.readyTimeoutSeconds > 0
      ? props.readyTimeoutSeconds
      : undefined;
  const custom = props.customTimeouts as Props | undefined | null;
  const raw = custom && typeof custom === "object" ? custom[op] : undefined;
  const fromOption = typeof raw === "string" ? parseDurationSeconds(raw) : undefined;
  const valid = fromOption !== undefined && fromOption > 0 ? fromOption : undefined;
  const seconds = op === "delete" ? (valid ?? ready) : (ready ?? valid);
  return Math.round((seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
}

/** The problems of the `customTimeouts` resource option a class carried into `news`, workload's or template's. */
export function customTimeoutsFailures(news: Props): Failure[] {
  if (containsUnknown(news.customTimeouts)) return [];
  return timeoutProblems(news.customTimeouts).map((p) =>
    failureAt(p.path, `${p.reason} (the customTimeouts resource option)`, news),
  );
}
