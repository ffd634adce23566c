import { WorkspaceClient, redact } from "../../sdk";
import { requireConnection, type ConnectionSources } from "../../provider/dynamic/service/connection";
import { requireNetworkSettings } from "../../provider/dynamic/service/network";
import { describeUrn } from "../../provider/dynamic/ownership/declarations";
import { formatId } from "../../provider/dynamic/inputs/ids";
import { runsDeclaredSpec } from "../../provider/dynamic/ownership/takeover";
import { parseWorkload } from "../../provider/dynamic/workloads/model";
import { OUR_TYPE_PREFIX, type PendingOperation } from "./pending-creates";

/** How long the reads about one pending create may retry (429, 503, a dropped connection). */
const READ_BUDGET_MS = 30 * 1000; // 30 s

/**
 * What the engine's record and the service together say of one pending create:
 * - `proven`: the workload exists and runs exactly the pending create's type and spec, so it is
 *   the one this stack's killed run created: it becomes the resource `resourceId`;
 * - `stale`: the state already has a resource of that URN (a later run created it);
 * - `absent`: the workload does not exist, so there is nothing to take: the create never reached
 *   the service (or its workload was deleted since), and the next `pulumi up` creates it. Its
 *   pending create is dropped, as the engine drops the record of any create that ended;
 * - `unproven`: nothing ties anything on the service to this create; `why` says what was found.
 */
export type Verdict =
  | { kind: "proven"; urn: string; resourceId: string; what: string }
  | { kind: "stale" | "absent"; urn: string; what: string }
  | { kind: "unproven"; urn: string; why: string };

/** `Pod "p1"`, as the plan names a resource. */
export const nameOf = (urn: string): string => describeUrn(urn);

/** The verdict on one pending create whose inputs are in plaintext (an export made with `--show-secrets`). */
export async function prove(op: PendingOperation, sources: ConnectionSources, inState: boolean): Promise<Verdict> {
  const urn = op.resource.urn;
  if (inState) return { kind: "stale", urn, what: "the state already has this resource (a later run created it)" };
  if (op.resource.type === `${OUR_TYPE_PREFIX}Template`)
    return {
      kind: "unproven",
      urn,
      why:
        "a template's id is made by the service when it is saved, so nothing ties a saved template to this create. " +
        "The next `pulumi up` saves it again; a copy the killed run saved, if any, is listed by GET /v1/tenants/<workspace>/templates " +
        "(delete it there, or declare it with adoptId)",
    };
  const inputs = op.resource.inputs ?? {};
  const conn = requireConnection(inputs, sources, `cannot check ${nameOf(urn)}`);
  const m = parseWorkload(inputs);
  const id = m.identity.workloadId;
  const at = `workload ${formatId(conn.workspace, id)}`;
  const network = requireNetworkSettings(sources, `cannot check ${nameOf(urn)}`);
  const client = new WorkspaceClient(conn.connection, network.options);
  try {
    const call = { deadline: Date.now() + READ_BUDGET_MS };
    const status = await client.findStatus(id, call);
    if (status === undefined)
      return {
        kind: "absent",
        urn,
        what: `${at} does not exist: the create never reached the service (or it was deleted since); the next \`pulumi up\` creates it`,
      };
    if (status.phase === "Deleting") return { kind: "unproven", urn, why: `${at} is being deleted` };
    if (!(await runsDeclaredSpec(client, m, call)))
      return {
        kind: "unproven",
        urn,
        why: `${at} exists but does not run the pending create's type and spec (${m.identity.type}): it was changed since, or it is not this stack's; declare it with \`adopt: true\` to take it over`,
      };
    return {
      kind: "proven",
      urn,
      resourceId: formatId(conn.workspace, id),
      what: `${at} exists and runs the pending create's type and spec (${status.type ?? m.identity.type}, phase ${status.phase})`,
    };
  } catch (err) {
    const message = redact(err instanceof Error ? err.message : String(err), [conn.connection.apiKey]);
    return { kind: "unproven", urn, why: `the service could not be asked about ${at}: ${message}` };
  } finally {
    await client.close();
  }
}
