import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries a webhook body's signature, as GitHub names its own (`X-Hub-Signature-256`). */
export const SIGNATURE_HEADER = "X-WWS-Signature-256";

/** The environment variable whose value signs every webhook body; unset or empty: bodies are not signed. */
export const SECRET_VARIABLE = "WWS_WEBHOOK_SECRET";

/** `sha256=<hex HMAC-SHA256 of body with secret>`: the value of `X-WWS-Signature-256`. */
export function signatureOf(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Whether `header` is the signature of `body` (the raw bytes received, before any JSON parse) with
 * `secret`; compared in constant time, so that a forger learns nothing from how long a refusal takes.
 */
export function verifySignature(secret: string, body: string | Uint8Array, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
