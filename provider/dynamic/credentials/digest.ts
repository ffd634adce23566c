import { scrypt, scryptSync } from "node:crypto";
import type { Props } from "../inputs/props";

/**
 * Credentials are compared, never kept. `check` takes the password out of a workload's inputs
 * and puts its digest in its place (`credentials: {username?, digest}`), so neither the inputs
 * the engine stores and echoes back (also at preview) nor the outputs ever hold it:
 * `@pulumi/pulumi` logs every RegisterResource response under `--debug` with secret values in
 * clear. The password itself stays in this process's `CredentialVault` for the `create` or
 * `update` that follows `check` in the same deployment.
 *
 * The digest is scrypt of the username and password, salted with the workload id: stable across
 * runs (a diff compares it with the state's) without a random salt to keep, and costly enough that
 * a digest does not give a password back cheaply. It stays inside `credentials`, which the engine
 * keeps secret in state; in clear it is seen only by readers of `--debug` output or of the
 * decrypted state, who for a password from the stack config read the password itself there.
 *
 * `scrypt2` (N=2^12, r=8: 4 MiB and about 8 ms of CPU a guess, 8,000 SHA-256s) is what new digests
 * use. `scrypt1` (N=2^14: 16 MiB, about 34 ms) was four times the cost for every guess and for
 * every password-bearing resource at every preview and up: 3.4 s of CPU for 100 VMs on a machine
 * where a preview of 100 pods takes 2 s. A state holding a `scrypt1` digest keeps its scheme:
 * `check` digests the new password the same way, so both diffs compare like with like.
 *
 * The resource class computes it as the program runs (`crypto.scrypt`, on libuv's thread pool),
 * and `check` takes it from there: the engine calls `check` for one resource at a time, so
 * digests made in `check` added up in series, and synchronous scrypt there also stalled the
 * provider's waits and event streams. `check` computes one only where no class did, or where the
 * state's digest is of the older scheme.
 */
const SCHEMES = {
  scrypt1: { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
  scrypt2: { N: 2 ** 12, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
} as const;
type DigestScheme = keyof typeof SCHEMES;
/** The scheme of new digests. */
const DIGEST_SCHEME: DigestScheme = "scrypt2";

/** The scheme of a stored digest, when it names one this version knows. */
function schemeOf(digest: unknown): DigestScheme | undefined {
  const scheme = typeof digest === "string" ? digest.slice(0, digest.indexOf(":")) : "";
  return scheme in SCHEMES ? (scheme as DigestScheme) : undefined;
}

/** A workload's `credentials` as a bag holds them: with a password, or sealed with its digest. */
export interface Login {
  username?: unknown;
  password?: unknown;
  digest?: unknown;
}

export const loginOf = (credentials: unknown): Login | undefined =>
  typeof credentials === "object" && credentials !== null ? (credentials as Login) : undefined;

/** What is hashed, and with which salt; undefined without a password string. */
function digestInput(workloadId: string, credentials: unknown): { pair: string; salt: string } | undefined {
  const login = loginOf(credentials);
  if (typeof login?.password !== "string") return undefined;
  const pair = JSON.stringify([typeof login.username === "string" ? login.username : "", login.password]);
  return { pair, salt: `pulumi-wws/credentials/${workloadId}` };
}

/** The digest of `credentials` (`{username?, password}`), or undefined when there is no password string. */
export function credentialsDigest(
  workloadId: string,
  credentials: unknown,
  scheme: DigestScheme = DIGEST_SCHEME,
): string | undefined {
  const d = digestInput(workloadId, credentials);
  return d && `${scheme}:${scryptSync(d.pair, d.salt, 32, SCHEMES[scheme]).toString("base64url")}`;
}

/** `credentialsDigest`, computed off the event loop. */
export function credentialsDigestAsync(
  workloadId: string,
  credentials: unknown,
  scheme: DigestScheme = DIGEST_SCHEME,
): Promise<string | undefined> {
  const d = digestInput(workloadId, credentials);
  if (d === undefined) return Promise.resolve(undefined);
  return new Promise((resolve, reject) =>
    scrypt(d.pair, d.salt, 32, SCHEMES[scheme], (err, key) =>
      err ? reject(err) : resolve(`${scheme}:${key.toString("base64url")}`),
    ),
  );
}

/**
 * The digest a property bag stands for: the one its sealed credentials carry, else one computed
 * from its password (a state written by pulumi-wws 0.1.0 kept the password).
 */
export function digestOf(props: Props): string | undefined {
  const login = loginOf(props.credentials);
  if (typeof login?.digest === "string") return login.digest;
  return credentialsDigest(String(props.workloadId), props.credentials);
}

/** `credentials` with the password replaced by its digest; the same value without a password. */
export function sealLogin<T>(workloadId: string, credentials: T): T | Login {
  const login = loginOf(credentials);
  if (typeof login?.password !== "string") return credentials;
  return sealed(login, credentialsDigest(workloadId, login));
}

/** `login` with its password replaced by `digest`. */
function sealed(login: Login, digest: string | undefined): Login {
  const { password: _password, ...rest } = login;
  void _password;
  return { ...rest, digest };
}

/**
 * The passwords `check` sealed, by digest, for the `create` or `update` of the same provider
 * process (the engine runs `check` right before them, in the process it runs them in).
 */
export class CredentialVault {
  private readonly logins = new Map<string, Login>();

  /**
   * Seals `inputs` (their password replaced by its digest, as `sealLogin` does), keeping their login for `sealedLogin`. `computed`: the
   * digest the resource class made of these credentials as the program ran (the envelope's
   * `credentialsDigest`, inputs/envelope.ts), taken when it is of the scheme of `stored` (the state's digest, if any); otherwise
   * one of that scheme is computed here, off the event loop.
   */
  async seal(inputs: Props, computed?: unknown, stored?: unknown): Promise<Props> {
    const login = loginOf(inputs.credentials);
    if (login === undefined || typeof login.password !== "string") return inputs;
    const scheme = schemeOf(stored) ?? DIGEST_SCHEME;
    const digest =
      typeof computed === "string" && schemeOf(computed) === scheme
        ? computed
        : await credentialsDigestAsync(String(inputs.workloadId), login, scheme);
    if (digest === undefined) return inputs;
    this.logins.set(digest, login);
    return { ...inputs, credentials: sealed(login, digest) };
  }

  /** The login sealed into `credentials` by this process, if it sealed them. */
  sealedLogin(credentials: unknown): Login | undefined {
    const login = loginOf(credentials);
    return typeof login?.digest === "string" ? this.logins.get(login.digest) : undefined;
  }
}
