import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time equality of two secrets of any length (their digests have the same length). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** The presented API key: `x-api-key`, else `Authorization: Bearer`. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const direct = headers["x-api-key"];
  if (typeof direct === "string" && direct !== "") return direct;
  const auth = headers.authorization;
  if (typeof auth !== "string") return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
  return m ? m[1] : undefined;
}

/**
 * API keys, kept only as SHA-256 digests. A lookup compares the presented key's digest with every
 * stored digest in constant time and without an early exit, so timing reveals neither a key nor
 * which workspace matched.
 */
export class KeyRing {
  private readonly entries: Array<{ digest: Buffer; workspace: string }>;

  constructor(keys: Record<string, string>) {
    this.entries = Object.entries(keys).map(([workspace, key]) => ({ digest: sha256(key), workspace }));
  }

  get workspaces(): string[] {
    return this.entries.map((e) => e.workspace);
  }

  has(workspace: string): boolean {
    return this.entries.some((e) => e.workspace === workspace);
  }

  /** Gives `workspace` a new key: the old one is refused from the next request on (a rotation). False for an unknown workspace. */
  replace(workspace: string, key: string): boolean {
    const entry = this.entries.find((e) => e.workspace === workspace);
    if (entry) entry.digest = sha256(key);
    return entry !== undefined;
  }

  /** The workspace the key belongs to, or undefined for an unknown key. */
  workspaceOf(key: string | undefined): string | undefined {
    if (key === undefined) return undefined;
    const digest = sha256(key);
    let found: string | undefined;
    for (const e of this.entries) {
      if (timingSafeEqual(e.digest, digest)) found = e.workspace;
    }
    return found;
  }
}
