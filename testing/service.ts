import { randomBytes } from "node:crypto";
import { WorkspaceClient } from "../sdk";
import { startService, type RunningService, type ServiceOptions } from "../server";

/** The local service of a test, with one workspace, its API key and a client of it. */
export interface LocalService {
  /** Base URL, e.g. `http://127.0.0.1:40123`: the stack config `wws:baseUrl`. */
  baseUrl: string;
  workspace: string;
  apiKey: string;
  /** Reads what the service holds: `getSpec()`, `getStatus(id)`, `listTemplates()`, … */
  client: WorkspaceClient;
  service: RunningService;
  close(): Promise<void>;
}

export interface LocalServiceOptions {
  /** @default "test" */
  workspace?: string;
  /** One reconciler step; a workload is Running about three steps after it is accepted. @default 20 (ms) */
  reconcileMs?: number;
  /** Any other option of the service (`server/README.md`). */
  service?: ServiceOptions;
}

/** Starts the local service in this process on a free port of 127.0.0.1, with a random API key. */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const workspace = options.workspace ?? "test";
  const apiKey = `test-key-${randomBytes(12).toString("hex")}`;
  const service = await startService({
    host: "127.0.0.1",
    port: 0,
    reconcileMs: options.reconcileMs ?? 20,
    ...options.service,
    keys: { [workspace]: apiKey },
    log: false,
  });
  const client = new WorkspaceClient({ baseUrl: service.url, workspace, apiKey });
  return {
    baseUrl: service.url,
    workspace,
    apiKey,
    client,
    service,
    async close() {
      await client.close();
      await service.close();
    },
  };
}
