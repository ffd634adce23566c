import { collectSecrets, redact } from "../../../sdk";
import { ResourceInitError } from "../engine/init-error";

/** The strings that must never appear in what a provider method throws: credentials and the API key in use. */
export function secretsOf(props: { credentials?: unknown; apiKey?: unknown }, apiKey?: string): string[] {
  const found = collectSecrets({ credentials: props.credentials, apiKey: props.apiKey });
  if (apiKey) found.push(apiKey);
  return found;
}

/**
 * The error a provider method lets out. The host prints `message` and `stack` to the user and may
 * store init-error reasons in state, so each is redacted; frames are dropped (noise to a user).
 * The SDK's errors already hold no credential: this is the second line of defence.
 */
function safeError(err: unknown, secrets: readonly string[]): Error {
  const message = redact(err instanceof Error ? err.message : String(err), secrets);
  if (err instanceof ResourceInitError) {
    return new ResourceInitError(
      message,
      err.id,
      err.properties,
      err.reasons.map((r) => redact(r, secrets)),
    );
  }
  const safe = new Error(message);
  safe.stack = `Error: ${message}`;
  return safe;
}

/** Runs `fn`; whatever it throws leaves redacted. */
export async function guarded<T>(secrets: () => readonly string[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw safeError(err, secrets());
  }
}
