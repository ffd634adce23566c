import { NotFoundError, type SavedTemplate, type WorkloadStatus, type WorkspaceClient } from "../sdk";
import { DEFAULT_FLEET, Fleet } from "../server/fleet";
import { NOT_SPEC_KEYS, type Props } from "../provider/dynamic/inputs/props";
import { formatId, missingForGet } from "../provider/dynamic/inputs/ids";
import { parseWorkload, writeWorkload } from "../provider/dynamic/workloads/model";
import { recorded } from "../provider/dynamic/workloads/recorded-status";
import type { MockRun } from "./mock-run";
import { runningStatus } from "./mock-workload";

/** Workloads and templates that exist before the program runs, for `get` and the functions to find. */
export interface MockLive {
  /** Each runs, with the spec given; in the config's workspace unless `workspace` is set. */
  workloads?: Array<{ workloadId: string; type: string; workspace?: string; spec?: Record<string, unknown> }>;
  /** Each saved, in the config's workspace unless `workspace` is set. */
  templates?: Array<SavedTemplate & { workspace?: string }>;
}

const NOT_SPEC = new Set<string>(NOT_SPEC_KEYS);
const notFound = (workspace: string, operation: string): NotFoundError =>
  new NotFoundError({ status: 404, code: "not_found", workspace, operation, serviceMessage: "not found" });

/**
 * What the mocks hold as the service would: the workloads and templates earlier runs and this run
 * recorded, and the `live` ones of the options. Outputs without the login.
 */
export class MockService {
  constructor(
    private readonly run: () => MockRun,
    private readonly live: MockLive,
    private readonly defaultWorkspace: () => string | undefined,
  ) {}

  private recorded(): Props[] {
    return [...this.run().state.values()];
  }

  /** The outputs of each workload, by resource id `<workspace>/<workloadId>`. */
  workloads(): Map<string, Props> {
    const out = new Map<string, Props>();
    const run = this.run();
    for (const w of this.live.workloads ?? []) {
      const workspace = w.workspace ?? this.defaultWorkspace() ?? "";
      const m = parseWorkload({ ...w.spec, workspace, workloadId: w.workloadId, type: w.type });
      out.set(formatId(workspace, w.workloadId), writeWorkload(recorded(m, runningStatus(m, run, 1, 0))));
    }
    for (const p of this.recorded())
      if (typeof p.workloadId === "string" && typeof p.type === "string" && p.phase !== undefined) {
        const shown = Object.fromEntries(Object.entries(p).filter(([k]) => k !== "credentials"));
        out.set(formatId(String(p.workspace), p.workloadId), shown);
      }
    return out;
  }

  /** Each template, by resource id `<workspace>/<templateId>`. */
  templates(): Map<string, Props> {
    const out = new Map<string, Props>();
    for (const t of this.live.templates ?? []) {
      const workspace = t.workspace ?? this.defaultWorkspace() ?? "";
      const { id, ...fields } = t;
      out.set(formatId(workspace, id), { ...fields, workspace, templateId: id });
    }
    for (const p of this.recorded())
      if (typeof p.templateId === "string") out.set(formatId(String(p.workspace), p.templateId), p);
    return out;
  }

  /** The outputs `get` gives the read resource of `id`, or the error preview prints. */
  get(id: string, isTemplate: boolean): Props | { error: string } {
    const found = (isTemplate ? this.templates() : this.workloads()).get(id);
    if (found) return found;
    const slash = id.indexOf("/");
    return { error: missingForGet(isTemplate ? "template" : "workload", id.slice(0, slash), id.slice(slash + 1)) };
  }

  /** A client of `workspace` whose reads answer from the mocks (only what the functions call). */
  client(workspace: string | undefined): WorkspaceClient {
    const ws = workspace ?? this.defaultWorkspace() ?? "";
    const mine = <T>(all: Map<string, T>): T[] =>
      [...all.entries()].filter(([id]) => id.startsWith(`${ws}/`)).map(([, v]) => v);
    const statusOf = (w: Props): WorkloadStatus =>
      Object.fromEntries(
        ["phase", "message", "generation", "observedGeneration", "restartCount", "endpoint", "adminUrl", "adminReady"]
          .filter((k) => w[k] !== undefined)
          .map((k) => [k, w[k]]),
      ) as WorkloadStatus;
    const template = (p: Props): SavedTemplate =>
      ({
        id: p.templateId,
        name: p.name,
        description: p.description,
        kind: p.kind,
        config: p.config,
        createdAt: p.createdAt,
      }) as SavedTemplate;
    const reads = {
      workspace: ws,
      getSpec: async () => ({
        name: ws,
        workloads: mine(this.workloads()).map((w) => ({
          id: String(w.workloadId),
          type: String(w.type),
          spec: Object.fromEntries(Object.entries(w).filter(([k]) => !NOT_SPEC.has(k))),
        })),
      }),
      getStatus: async (id: string) => {
        const w = this.workloads().get(formatId(ws, id));
        if (!w) throw notFound(ws, `get status of workload ${id} in workspace ${ws}`);
        return statusOf(w);
      },
      listTemplates: async () => mine(this.templates()).map(template),
      getTemplate: async (id: string) => {
        const t = this.templates().get(formatId(ws, id));
        if (!t) throw notFound(ws, `get template ${id} in workspace ${ws}`);
        return template(t);
      },
      getFleetHosts: async () => new Fleet(DEFAULT_FLEET).describe([]),
      close: async () => undefined,
    };
    return reads as unknown as WorkspaceClient;
  }
}
