import { z } from "zod";
import { ErrorReply, codeOfStatus } from "./errors";

/** Body of `PUT /_control/faults`. */
export const FaultConfig = z.strictObject({
  /** Extra latency before every matching request: fixed ms, or uniformly random in [min, max]. */
  latencyMs: z
    .union([
      z.number().int().min(0).max(600_000),
      z.tuple([z.number().int().min(0).max(600_000), z.number().int().min(0).max(600_000)]),
    ])
    .optional(),
  /** Share of matching requests answered with an error instead of being handled. */
  errorRate: z.number().min(0).max(1).optional(),
  /** Statuses of faulted answers, picked at random. @default [503, 429] */
  errorStatuses: z.array(z.number().int().min(400).max(599)).min(1).optional(),
  /** `Retry-After` of faulted answers, in seconds. @default 1 */
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  /** Faults apply to paths starting with this; always within `/v1`. @default "/v1" */
  pathPrefix: z.string().startsWith("/v1").optional(),
  /** Faults apply to requests of these methods only (`["POST"]`: the creates, not the list). @default every method */
  methods: z
    .array(z.enum(["GET", "POST", "DELETE", "PUT"]))
    .min(1)
    .optional(),
  /** At most this many faulted answers, then error injection stops (latency stays). @default unlimited */
  maxFaults: z.number().int().min(0).optional(),
  /**
   * Faulted requests are handled, then their connection is closed instead of the answer: the
   * client cannot know the outcome (a reset after sending). @default false: answered with an error, not handled
   */
  dropAnswer: z.boolean().optional(),
});
export type FaultConfig = z.infer<typeof FaultConfig>;

const DEFAULT_ERROR_STATUSES = [503, 429];
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Fault injection for `/v1` requests. A faulted request is never handled, so state stays as it
 * was; or, with `dropAnswer`, handled and its answer dropped.
 */
export class Faults {
  private config: FaultConfig | undefined;
  private faulted = 0;

  set(config: FaultConfig): void {
    this.config = config;
    this.faulted = 0;
  }

  clear(): void {
    this.config = undefined;
  }

  current(): FaultConfig | undefined {
    return this.config;
  }

  /** Waits the configured latency, then returns the error to answer with, or "drop-answer", if any. */
  async apply(
    path: string,
    random: () => number = Math.random,
    method?: string,
  ): Promise<ErrorReply | "drop-answer" | undefined> {
    const c = this.config;
    if (c === undefined || !path.startsWith(c.pathPrefix ?? "/v1")) return undefined;
    if (c.methods !== undefined && (method === undefined || !(c.methods as string[]).includes(method)))
      return undefined;
    const delay = Array.isArray(c.latencyMs)
      ? c.latencyMs[0] + random() * Math.max(0, c.latencyMs[1] - c.latencyMs[0])
      : c.latencyMs;
    if (delay !== undefined && delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (!c.errorRate || random() >= c.errorRate) return undefined;
    if (c.maxFaults !== undefined && this.faulted >= c.maxFaults) return undefined;
    this.faulted++;
    if (c.dropAnswer) return "drop-answer";
    const statuses = c.errorStatuses ?? DEFAULT_ERROR_STATUSES;
    const status = statuses[Math.floor(random() * statuses.length)];
    const retryAfter = String(c.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
    return new ErrorReply(
      codeOfStatus(status),
      `injected fault (status ${status})`,
      undefined,
      { "retry-after": retryAfter },
      status,
    );
  }
}
