/** A workspace as a team has it before Pulumi: 20 workloads of every type and 3 templates, made through the API. */
import type { CreateBody, WorkloadType, WorkspaceClient } from "../../sdk";
import { until } from "../e2e/harness";

export const DB_PASSWORDS = { orders: "Orders-Pw-7f3a91c2", cache: "Cache-Pw-b81d44e0", audit: "Audit-Pw-2c9e05d7" };
export const VM_PASSWORD = "Vm-Pw-5e0a7b13";

const WORKLOADS: Array<[WorkloadType, CreateBody]> = [
  ...["web-1", "web-2", "web-3"].map((id): [WorkloadType, CreateBody] => [
    "pod",
    { id, image: "nginx:1.27", cpu: "250m", memory: "256Mi", ports: [{ name: "http", port: 80 }] },
  ]),
  [
    "pod",
    {
      id: "api",
      image: "ghcr.io/acme/api:2.4.1",
      command: ["node", "server.js"],
      cpu: "1",
      memory: "512Mi",
      ports: [{ name: "http", port: 8080 }],
    },
  ],
  ["pod", { id: "worker", source: { repo: "https://git.example.com/acme/worker", ref: "main" }, memory: "1Gi" }],
  ["pod", { id: "cron", image: "busybox:1.36", command: ["sh", "-c", "sleep 3600"] }],
  ...["scraper-1", "scraper-2", "scraper-3"].map((id): [WorkloadType, CreateBody] => [
    "browser",
    { id, cpu: "1", memory: "2Gi" },
  ]),
  ["browser", { id: "screenshots" }],
  ["controller", { id: "automation", autodiscover: true }],
  ["controller", { id: "automation-eu", autodiscover: false }],
  [
    "vm-ubuntu",
    {
      id: "build-vm",
      cpus: 4,
      memory: "8Gi",
      storageSize: "80Gi",
      credentials: { password: VM_PASSWORD },
      placement: { region: "eu-central" },
    },
  ],
  [
    "vm-ubuntu-desktop",
    {
      id: "design-vm",
      cpus: 2,
      memory: "4Gi",
      credentials: { username: "design", password: VM_PASSWORD },
      ports: [{ name: "rdp", port: 3389, protocol: "tcp" }],
    },
  ],
  [
    "vm-windows",
    { id: "qa-vm", cpus: 2, memory: "8Gi", credentials: { password: VM_PASSWORD }, placement: { host: "us-east-1" } },
  ],
  [
    "vm-ubuntu",
    {
      id: "agent-vm",
      cpus: 2,
      credentials: { password: VM_PASSWORD },
      aiDaemon: { enabled: true, provider: "anthropic", model: "claude" },
    },
  ],
  [
    "storage",
    {
      id: "orders",
      engine: "postgres",
      version: "16",
      instances: 2,
      storageSize: "20Gi",
      adminConsole: true,
      network: { exposed: true },
      backup: { enabled: true, schedule: "0 3 * * *", retentionDays: 7 },
      credentials: { password: DB_PASSWORDS.orders },
    },
  ],
  ["storage", { id: "cache", engine: "redis", tls: true, credentials: { password: DB_PASSWORDS.cache } }],
  [
    "storage",
    {
      id: "audit",
      engine: "postgres",
      memory: "2Gi",
      credentials: { username: "auditor", password: DB_PASSWORDS.audit },
    },
  ],
  ["pod", { id: "docs", image: "nginx:1.27" }],
];

/** Creates the workloads and templates, and waits until every workload is Running. */
export async function seedWorkspace(client: WorkspaceClient): Promise<void> {
  for (const [type, body] of WORKLOADS) await client.upsertWorkload(type, body);
  await client.createTemplate({
    name: "nginx web",
    description: "A small nginx container app",
    kind: "pod",
    config: { pod: { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] } },
  });
  await client.createTemplate({
    name: "scraper",
    kind: "browser",
    config: { browser: { aiAgent: { enabled: true, provider: "anthropic", model: "claude" } } },
  });
  await client.createTemplate({ name: "build machine", kind: "vm-ubuntu", config: { vm: { cpus: 4, memory: "8Gi" } } });
  await until(
    "the 20 seeded workloads to be Running",
    async () => {
      const statuses = await Promise.all(WORKLOADS.map(([, b]) => client.getStatus(b.id)));
      return statuses.every((s) => s.phase === "Running");
    },
    60_000,
  );
}

export const SEEDED_WORKLOADS = WORKLOADS.length;
