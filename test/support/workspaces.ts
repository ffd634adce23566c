import { WorkspaceClient } from "../../sdk";

/** Workspaces `<prefix>-1…<prefix>-<count>` handed out one per test, and the clients opened on them. */
export interface WorkspacePool {
  /** API key by workspace name: the service's `keys` option. */
  readonly keys: Record<string, string>;
  /** A workspace no other test uses, with its API key. */
  workspace(): { name: string; apiKey: string };
  /** A client of `workspace` on the service at `baseUrl`, closed by `closeClients`. */
  client(baseUrl: string, workspace: string): WorkspaceClient;
  closeClients(): Promise<void>;
}

export function workspacePool(
  prefix: string,
  count: number,
  keyFor: (workspace: string, n: number) => string,
): WorkspacePool {
  const keys: Record<string, string> = {};
  for (let i = 1; i <= count; i++) keys[`${prefix}-${i}`] = keyFor(`${prefix}-${i}`, i);
  const clients: WorkspaceClient[] = [];
  let next = 0;
  return {
    keys,
    workspace() {
      next++;
      if (next > count) throw new Error(`out of ${prefix} workspaces: raise their count (${count})`);
      const name = `${prefix}-${next}`;
      return { name, apiKey: keys[name] };
    },
    client(baseUrl, workspace) {
      const c = new WorkspaceClient({ baseUrl, workspace, apiKey: keys[workspace] });
      clients.push(c);
      return c;
    },
    async closeClients() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
