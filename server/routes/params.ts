import { DNS_LABEL, DNS_LABEL_RULE } from "../../sdk/schemas";
import type { ServiceContext } from "../context";
import { ErrorReply, validationFailed } from "../http/errors";
import type { RequestContext } from "../http/router";
import type { WorkspaceState } from "../state/workspace-state";

/** Template ids are `tpl_` and lower-case hex. */
export const TEMPLATE_ID = /^tpl_[0-9a-f]{1,64}$/;

/** The path's workspace; auth has already checked that the key belongs to it. */
export function workspaceOf(ctx: ServiceContext, rc: RequestContext): WorkspaceState {
  const ws = ctx.store.workspace(rc.params.name);
  if (!ws) throw new ErrorReply("not_found", "workspace not found", [{ path: "name", message: "not found" }]);
  return ws;
}

/** A workload id from the path: a DNS label, else 400 naming `id`. */
export function workloadIdParam(rc: RequestContext): string {
  const id = rc.params.id;
  if (!DNS_LABEL.test(id)) throw validationFailed([{ path: "id", message: DNS_LABEL_RULE }], "invalid workload id");
  return id;
}

export function templateIdParam(rc: RequestContext): string {
  const id = rc.params.id;
  if (!TEMPLATE_ID.test(id))
    throw validationFailed([{ path: "id", message: "must be tpl_ followed by lower-case hex" }], "invalid template id");
  return id;
}

/** An optional integer query parameter within [min, max], else 400 naming it. */
export function intQuery(rc: RequestContext, name: string, min: number, max: number): number | undefined {
  const raw = rc.query.get(name);
  if (raw === null) return undefined;
  const n = /^[0-9]{1,20}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw validationFailed([{ path: name, message: `must be an integer from ${min} to ${max}` }]);
  }
  return n;
}
