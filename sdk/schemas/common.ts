import { z } from "zod";

/**
 * Workload ids and workspace names are DNS labels (RFC 1123): 1 to 63 characters of lower-case
 * letters, digits and '-', starting and ending with a letter or digit. They become host names
 * (`<id>.<workspace>.<domain>`), so nothing else could be served.
 */
export const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const DNS_LABEL_RULE =
  "must be 1-63 characters of lower-case letters, digits and '-', starting and ending with a letter or digit";

export const Name = z.string().regex(DNS_LABEL, { error: DNS_LABEL_RULE });

/** Memory and disk sizes: `<N>Mi`, `<N>Gi` or `<N>Ti`. */
export const SizeQuantity = z
  .string()
  .regex(/^[1-9][0-9]{0,6}(Mi|Gi|Ti)$/, { error: "must be a size such as 512Mi, 4Gi or 1Ti" });

/** CPU: millicores `<N>m` or whole cores `<N>`. */
export const CpuQuantity = z
  .string()
  .regex(/^[1-9][0-9]{0,6}m?$/, { error: "must be millicores such as 500m or whole cores such as 2" });

export const Port = z.number().int().min(1).max(65535);

/** Write-only login. `password` is never returned by the service. */
export const Credentials = z.strictObject({
  username: z.string().min(1).max(64).optional(),
  password: z.string().min(1).max(1024),
});
export type Credentials = z.infer<typeof Credentials>;

/** Error body of every 4xx/5xx answer. */
export const ErrorDetail = z.looseObject({ path: z.string(), message: z.string() });
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
  }),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Error codes of the contract, with the HTTP status each one travels with. */
export const ERROR_CODES = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

const UNIT_MI: Record<string, number> = { Mi: 1, Gi: 1024, Ti: 1024 * 1024 };

/** `4Gi` → 4096 (MiB); undefined when it is not a size quantity. */
export function parseMemoryMi(q: string): number | undefined {
  const m = /^([0-9]+)(Mi|Gi|Ti)$/.exec(q);
  return m ? Number(m[1]) * UNIT_MI[m[2]] : undefined;
}

/** 4096 → `4Gi`; 1536 → `1536Mi`. */
export function formatMemoryMi(mi: number): string {
  if (mi > 0 && mi % (1024 * 1024) === 0) return `${mi / (1024 * 1024)}Ti`;
  if (mi > 0 && mi % 1024 === 0) return `${mi / 1024}Gi`;
  return `${mi}Mi`;
}
