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

/** A workspace's API key, or several, each with an optional label that activity rows name as their actor. */
export type WorkspaceKeys = string | ReadonlyArray<{ key: string; label?: string }>;

/** The keys of one workspace as a list. */
export function keyEntries(given: WorkspaceKeys): ReadonlyArray<{ key: string; label?: string }> {
  return typeof given === "string" ? [{ key: given }] : given;
}

/**
 * API keys, kept only as SHA-256 digests. A lookup compares the presented key's digest with every
 * stored digest in constant time and without an early exit, so timing reveals neither a key nor
 * which workspace matched.
 */
export class KeyRing {
  private entries: Array<{ digest: Buffer; workspace: string; label?: string }>;

  constructor(keys: Record<string, WorkspaceKeys>) {
    this.entries = Object.entries(keys).flatMap(([workspace, given]) =>
      keyEntries(given).map(({ key, label }) => ({ digest: sha256(key), workspace, label })),
    );
  }

  get workspaces(): string[] {
    return [...new Set(this.entries.map((e) => e.workspace))];
  }

  has(workspace: string): boolean {
    return this.entries.some((e) => e.workspace === workspace);
  }

  /** Gives `workspace` one new key: its old ones are refused from the next request on (a rotation). False for an unknown workspace. */
  replace(workspace: string, key: string): boolean {
    if (!this.has(workspace)) return false;
    this.entries = [...this.entries.filter((e) => e.workspace !== workspace), { digest: sha256(key), workspace }];
    return true;
  }

  /** The workspace the key belongs to, or undefined for an unknown key. */
  workspaceOf(key: string | undefined): string | undefined {
    return this.holderOf(key)?.workspace;
  }

  /** The workspace and label of the key, or undefined for an unknown key. */
  holderOf(key: string | undefined): { workspace: string; label?: string } | undefined {
    if (key === undefined) return undefined;
    const digest = sha256(key);
    let found: { workspace: string; label?: string } | undefined;
    for (const e of this.entries) {
      if (timingSafeEqual(e.digest, digest)) found = { workspace: e.workspace, label: e.label };
    }
    return found;
  }
}
