import { inspect } from "node:util";

/** Every way an error can be shown or shipped: message, stack, own properties, causes, JSON. */
export function renderings(err: unknown): string[] {
  const out = [inspect(err, { depth: 20, showHidden: true, getters: true })];
  for (let e: unknown = err, i = 0; e instanceof Error && i < 10; e = e.cause, i++) {
    out.push(
      e.message,
      e.stack ?? "",
      JSON.stringify(e),
      JSON.stringify(
        Object.getOwnPropertyNames(e).map((k) => [k, String((e as unknown as Record<string, unknown>)[k])]),
      ),
    );
  }
  return out;
}

export function expectNoSecret(err: unknown, secrets: readonly string[]): void {
  expect(err).toBeInstanceOf(Error);
  for (const text of renderings(err)) for (const s of secrets) expect(text).not.toContain(s);
}
