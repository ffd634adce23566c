import type { CreateBody } from "../../../sdk";
import { loginOf, type CredentialVault } from "../credentials/digest";
import type { Props } from "../inputs/props";
import { describeWorkload, parseWorkload, specFields, type WorkloadModel } from "./model";

/** The upsert body of `m`: `{id, ...spec, credentials?}`, with `credentials` in place of the stored login. */
function createBodyOf(m: WorkloadModel, credentials: unknown): CreateBody {
  const body: Props = { id: m.identity.workloadId, ...specFields(m) };
  if (credentials !== undefined && credentials !== null) body.credentials = credentials;
  return body as unknown as CreateBody;
}

/** The upsert body a flat bag stands for, as written (what `check` validates). */
export function declaredBodyOf(props: Props): CreateBody {
  const m = parseWorkload(props);
  return createBodyOf(m, m.credentials);
}

/**
 * The upsert body to send: the password `check` sealed in this process put back. Credentials
 * still sealed (a digest in place of the password: this process did not `check` them) are left
 * out, and the service keeps the login it has; where the request must set them (a create, or new
 * credentials) that would create or update the workload without them, so it fails instead.
 */
export function requestBodyOf(m: WorkloadModel, vault: CredentialVault, setsCredentials: boolean): CreateBody {
  const credentials = vault.sealedLogin(m.credentials) ?? m.credentials;
  const login = loginOf(credentials);
  const sealedOnly = login !== undefined && login.password === undefined && login.digest !== undefined;
  if (sealedOnly && setsCredentials)
    throw new Error(
      `${describeWorkload(m.identity)}: the password of \`credentials\` is not known to this provider process (its inputs carry only the digest an earlier \`check\` made), so it cannot be sent. No change was sent; run \`pulumi up\` again, which checks the inputs and sends the password`,
    );
  return createBodyOf(m, sealedOnly ? undefined : credentials);
}
