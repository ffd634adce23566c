import { WorkspaceClient } from "./client";
import type { SavedTemplate, WorkloadStatus } from "./schemas";

export interface LiveWorkload {
  id: string;
  type: string;
  spec: Record<string, unknown>;
  status?: WorkloadStatus;
}

export interface LiveWorkspace {
  workspace: string;
  baseUrl: string;
  workloads: LiveWorkload[];
  /** Workloads left out, with why (being deleted). */
  skipped: Array<{ id: string; why: string }>;
  templates: SavedTemplate[];
}

/**
 * A live workspace read whole, with reads only: its workloads (each with its status; one being
 * deleted is left out, with why) and its templates, sorted. What `pulumi-wws import` writes a project
 * from and `rehearse` copies.
 */
export async function readWorkspace(options: {
  baseUrl: string;
  workspace: string;
  apiKey: string;
}): Promise<LiveWorkspace> {
  const client = new WorkspaceClient(options);
  try {
    const [spec, templates] = await Promise.all([client.getSpec(), client.listTemplates()]);
    const statuses = await Promise.all(spec.workloads.map((w) => client.findStatus(w.id)));
    const workloads: LiveWorkload[] = [];
    const skipped: LiveWorkspace["skipped"] = [];
    spec.workloads.forEach((w, i) => {
      const status = statuses[i];
      // A workload being deleted (or gone since the spec was read) is nothing to take over.
      if (status === undefined || status.phase === "Deleting")
        skipped.push({ id: w.id, why: status ? "being deleted" : "gone" });
      else workloads.push({ id: w.id, type: w.type, spec: w.spec, status });
    });
    workloads.sort((a, b) => a.id.localeCompare(b.id));
    templates.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return { workspace: options.workspace, baseUrl: client.baseUrl, workloads, skipped, templates };
  } finally {
    await client.close();
  }
}
