import { scrypt, scryptSync } from "node:crypto";
import type { Props } from "./props";

/**
 * Credentials are compared, never kept. `check` takes the password out of a workload's inputs
 * and puts its digest in its place (`credentials: {username?, digest}`), so neither the inputs
 * the engine stores and echoes back (also at preview) nor the outputs ever hold it:
 * `@pulumi/pulumi` logs every RegisterResource response under `--debug` with secret values in
 * clear. The password itself stays in this process's `CredentialVault` for the `create` or
 * `update` that follows `check` in the same deployment.
 *
 * The digest is scrypt (N=2^14, r=8: about 40 ms and 16 MiB) of the username and password, salted
 * with the workload id: stable across runs (a diff compares it with the state's) without a random
 * salt to keep, and costly enough that a digest does not give a password back cheaply. It stays
 * inside `credentials`, which the engine keeps secret in state.
 *
 * The resource class computes it as the program runs (`crypto.scrypt`, on libuv's thread pool),
 * and `check` takes it from there: the engine calls `check` for one resource at a time, so 100
 * digests made in `check` took 100 × 44 ms in series, and synchronous scrypt there also stalled
 * the provider's waits and event streams. `check` computes it only where no class did.
 */
const SCHEME = "scrypt1";
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

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
export function credentialsDigest(workloadId: string, credentials: unknown): string | undefined {
  const d = digestInput(workloadId, credentials);
  return d && `${SCHEME}:${scryptSync(d.pair, d.salt, 32, SCRYPT).toString("base64url")}`;
}

/** `credentialsDigest`, computed off the event loop. */
export function credentialsDigestAsync(workloadId: string, credentials: unknown): Promise<string | undefined> {
  const d = digestInput(workloadId, credentials);
  if (d === undefined) return Promise.resolve(undefined);
  return new Promise((resolve, reject) =>
    scrypt(d.pair, d.salt, 32, SCRYPT, (err, key) =>
      err ? reject(err) : resolve(`${SCHEME}:${key.toString("base64url")}`),
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
  const { password: _password, ...rest } = login;
  void _password;
  return { ...rest, digest: credentialsDigest(workloadId, login) };
}

/** `props` with the password of its credentials replaced by its digest; unchanged without a password. */
export function sealCredentials(props: Props): Props {
  const sealed = sealLogin(String(props.workloadId), props.credentials);
  return sealed === props.credentials ? props : { ...props, credentials: sealed };
}

/**
 * The passwords `check` sealed, by digest, for the `create` or `update` of the same provider
 * process (the engine runs `check` right before them, in the process it runs them in).
 */
export class CredentialVault {
  private readonly logins = new Map<string, Login>();

  /**
   * Seals `inputs` (see `sealCredentials`), keeping their login for `sealedLogin`. `computed`: the
   * digest the resource class made of these credentials as the program ran (see `DIGEST_KEY` in
   * props.ts); without one it is computed here, off the event loop.
   */
  async seal(inputs: Props, computed?: unknown): Promise<Props> {
    const login = loginOf(inputs.credentials);
    if (typeof login?.password === "string" && typeof computed === "string") {
      const { password: _password, ...rest } = login;
      void _password;
      this.logins.set(computed, login);
      return { ...inputs, credentials: { ...rest, digest: computed } };
    }
    const digest = await credentialsDigestAsync(String(inputs.workloadId), login);
    if (digest === undefined || login === undefined) return inputs;
    const { password: _password, ...rest } = login;
    void _password;
    this.logins.set(digest, login);
    return { ...inputs, credentials: { ...rest, digest } };
  }

  /** The login sealed into `credentials` by this process, if it sealed them. */
  sealedLogin(credentials: unknown): Login | undefined {
    const login = loginOf(credentials);
    return typeof login?.digest === "string" ? this.logins.get(login.digest) : undefined;
  }
}
