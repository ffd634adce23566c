/**
 * Templates: a saved blueprint for every workload kind, and a container app made from the same
 * blueprint, so that the template and the workload cannot drift apart.
 *
 * A template's `config` holds the kind's spec under its spec key: `vm` for the three VM kinds,
 * else the kind itself. Templates hold no passwords (the service would strip them; the provider
 * refuses them at preview): credentials belong to the workloads made from a template.
 * Templates cannot be updated: changing one creates the new template, then deletes the old one.
 *
 * Stack config: wws:baseUrl, wws:workspace, wws:apiKey (secret).
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "pulumi-wws";

const workspace = new wws.Workspace("workspace", { name: new pulumi.Config("wws").require("workspace") });

const web = { image: "nginx:1.27", cpu: "250m", memory: "256Mi", ports: [{ name: "http", port: 80 }] };

const blueprints = {
  "vm-ubuntu": {
    name: "Ubuntu dev box",
    description: "2 vCPUs, 4 GiB, SSH",
    config: { vm: { cpus: 2, memory: "4Gi", storageSize: "40Gi", ports: [{ name: "ssh", port: 22 }] } },
  },
  "vm-ubuntu-desktop": {
    name: "Ubuntu desktop with an AI agent",
    description: "A desktop VM the AI daemon operates over SSH",
    config: {
      vm: {
        cpus: 4,
        memory: "8Gi",
        storageSize: "60Gi",
        aiDaemon: { enabled: true, provider: "anthropic", model: "claude-sonnet" },
      },
    },
  },
  "vm-windows": {
    name: "Windows workstation",
    description: "RDP on 3389",
    config: { vm: { cpus: 4, memory: "16Gi", storageSize: "128Gi", ports: [{ name: "rdp", port: 3389 }] } },
  },
  pod: {
    name: "nginx web",
    description: "A small nginx container app",
    config: { pod: web },
  },
  browser: {
    name: "Headless Chromium with an AI agent",
    description: "For browser automation driven by a model",
    config: {
      browser: { cpu: "1", memory: "2Gi", aiAgent: { enabled: true, provider: "anthropic", model: "claude-sonnet" } },
    },
  },
  controller: {
    name: "Browser controller",
    description: "Finds the workspace's browsers by itself",
    config: { controller: { autodiscover: true } },
  },
  storage: {
    name: "Postgres 16, HA",
    description: "Two instances, TLS, admin console, nightly backups",
    config: {
      storage: {
        engine: "postgres",
        version: "16",
        instances: 2,
        storageSize: "20Gi",
        tls: true,
        adminConsole: true,
        backup: { enabled: true, schedule: "0 3 * * *", retentionDays: 14 },
      },
    },
  },
} satisfies Record<string, { name: string; description: string; config: Record<string, object> }>;

const templates = Object.entries(blueprints).map(
  ([kind, t]) =>
    new wws.Template(`tpl-${kind}`, {
      workspace,
      kind: kind as keyof typeof blueprints,
      name: t.name,
      description: t.description,
      config: t.config,
    }),
);

// A workload from the pod blueprint.
const site = new wws.Pod("site", { workspace, ...web });

/** kind → template id (`tpl_<hex>`). */
export const templateIds = pulumi.all(
  Object.fromEntries(Object.keys(blueprints).map((kind, i) => [kind, templates[i].templateId])),
);
export const siteEndpoint = site.endpoint;
export const sitePhase = site.phase;
