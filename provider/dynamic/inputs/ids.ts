/**
 * Resource ids in Pulumi state, and the ids `pulumi import` takes: `<workspace>/<workloadId>`
 * for workloads and `<workspace>/<templateId>` for templates. Workspace names are DNS labels, so
 * the first `/` always separates the two.
 */
export function formatId(workspace: string, id: string): string {
  return `${workspace}/${id}`;
}

export function parseId(resourceId: string, what: "workload" | "template"): { workspace: string; id: string } {
  const slash = resourceId.indexOf("/");
  if (slash <= 0 || slash === resourceId.length - 1) {
    throw new Error(`invalid ${what} id "${resourceId}": expected <workspace>/<${what}Id>, e.g. demo/web`);
  }
  return { workspace: resourceId.slice(0, slash), id: resourceId.slice(slash + 1) };
}

/** Why `Class.get(name, id)` failed: no such workload or template. */
export function missingForGet(what: "workload" | "template", workspace: string, id: string): string {
  return (
    `get: workspace ${workspace} has no ${what} ${id} (id ${formatId(workspace, id)}): ` +
    `pass the id its managing stack's state holds, <workspace>/<${what}Id>`
  );
}
