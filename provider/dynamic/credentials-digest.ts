import { scryptSync } from "node:crypto";
import type { Props } from "./props";

/**
 * Credentials are compared, never kept. A workload's outputs hold `credentialsDigest` (and the
 * username, which is no secret) instead of the password: `@pulumi/pulumi` logs every
 * RegisterResource response under `--debug` with secret values in clear, so a password kept in
 * outputs was printed whenever it had been given as a plain string.
 *
 * The digest is scrypt (N=2^14, r=8: about 40 ms and 16 MiB) of the username and password, salted
 * with the workload id: stable across runs (a diff compares it with the state's) without a random
 * salt to keep, and costly enough that a digest seen in a log does not give a password back cheaply.
 */
export const DIGEST_KEY = "credentialsDigest";
const SCHEME = "scrypt1";
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** The digest of `credentials` (`{username?, password}`), or undefined when there is no password string. */
export function credentialsDigest(workloadId: string, credentials: unknown): string | undefined {
  if (typeof credentials !== "object" || credentials === null) return undefined;
  const { username, password } = credentials as { username?: unknown; password?: unknown };
  if (typeof password !== "string") return undefined;
  const login = JSON.stringify([typeof username === "string" ? username : "", password]);
  return `${SCHEME}:${scryptSync(login, `pulumi-wws/credentials/${workloadId}`, 32, SCRYPT).toString("base64url")}`;
}

/**
 * The digest a property bag stands for: the one it carries (the resource computed it from the
 * real password, also at preview, where the password itself is withheld), else one computed from
 * its password (a state written by pulumi-wws 0.1.0 kept the password in outputs).
 */
export function digestOf(props: Props): string | undefined {
  const given = props[DIGEST_KEY];
  if (typeof given === "string") return given;
  return credentialsDigest(String(props.workloadId), props.credentials);
}

/** `props` as outputs keep them: the username without the password, and the digest. */
export function sealCredentials(props: Props): Props {
  const digest = digestOf(props);
  const { credentials, [DIGEST_KEY]: _given, ...rest } = props;
  void _given;
  const out: Props = rest;
  const username = (credentials as { username?: unknown } | undefined)?.username;
  if (typeof username === "string") out.credentials = { username };
  if (digest !== undefined) out[DIGEST_KEY] = digest;
  return out;
}

/** A stand-in for a password at preview: as long as it (so `check` judges it the same), nothing of it. */
export function withheldPassword(password: string): string {
  return "*".repeat(password.length);
}
