import type { CreateBody } from "../../sdk/schemas";
import { loginOf, type CredentialVault } from "./credentials-digest";
import type { Props } from "./props";
import { parseWorkload, specFields, type WorkloadModel } from "./workload-model";

/** The upsert body of `m`: `{id, ...spec, credentials?}`, with `credentials` in place of the stored login. */
function createBodyOf(m: WorkloadModel, credentials: unknown): CreateBody {
  const body: Props = { id: m.identity.workloadId, ...specFields(m) };
  if (credentials !== undefined && credentials !== null) body.credentials = credentials;
  return body as unknown as CreateBody;
}

/** The upsert body a flat bag stands for, as written (what `check` validates). */
export function bodyOf(props: Props): CreateBody {
  const m = parseWorkload(props);
  return createBodyOf(m, m.credentials);
}

/**
 * The upsert body to send: the password `check` sealed in this process put back. Credentials
 * still sealed (a digest in place of the password: this process did not `check` them) are left
 * out, and the service keeps the login it has.
 */
export function requestBodyOf(m: WorkloadModel, vault: CredentialVault): CreateBody {
  const credentials = vault.sealedLogin(m.credentials) ?? m.credentials;
  const login = loginOf(credentials);
  const sealedOnly = login !== undefined && login.password === undefined && login.digest !== undefined;
  return createBodyOf(m, sealedOnly ? undefined : credentials);
}
