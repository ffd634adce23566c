/** Secrets shorter than this are not redacted: replacing every "a" would mangle the message and hide nothing. */
const MIN_SECRET_LENGTH = 4;
const SECRET_KEYS = /^(password|secret|token|apikey|api_key|privatekey|private_key)$/i;

/** Keys under `credentials` that name who logs in, not a secret: an error may show them. */
const NOT_SECRET_KEYS = /^(username|user)$/i;

/**
 * The strings of a request body that are credentials: every string value under a `credentials`
 * object but the user name (inner fields other than the password are not specified: any of them
 * may be a key), and every string of a key that names a secret (`password`, `token`, …) at any
 * depth. A user name is not one: hiding it would also mangle every text that contains it.
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
    for (const [k, v] of Object.entries(value)) {
      const named = k === "credentials" || SECRET_KEYS.test(k);
      visit(v, SECRET_KEYS.test(k) || (!NOT_SECRET_KEYS.test(k) && (secret || named)), depth + 1);
    }
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
