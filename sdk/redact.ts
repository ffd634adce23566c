/** Secrets shorter than this are not redacted: replacing every "a" would mangle the message and hide nothing. */
const MIN_SECRET_LENGTH = 4;
const SECRET_KEYS = /^(password|secret|token|apikey|api_key|privatekey|private_key)$/i;

/**
 * The strings of a request body that are credentials: every string value under a `credentials`
 * object, and every string of a key that names a secret (`password`, `token`, …) at any depth.
 */
export function collectSecrets(body: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown, secret: boolean, depth: number): void => {
    if (depth > 32) return;
    if (typeof value === "string") {
      if (secret) found.push(value);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [k, v] of Object.entries(value))
      visit(v, secret || k === "credentials" || SECRET_KEYS.test(k), depth + 1);
  };
  visit(body, false, 0);
  return found;
}

/** `text` with every occurrence of each secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= MIN_SECRET_LENGTH) out = out.split(s).join("[redacted]");
  return out;
}
