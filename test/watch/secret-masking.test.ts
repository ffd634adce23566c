/**
 * No secret value in anything the watch says of a drift: for each class, its declared secret
 * fields (provider/fields/: a login, the API key) and fields a user kept secret at any depth (the
 * state's secret markers), compared by the watch's own comparison, in the finding (`--json`) and
 * in its line (text). A plain field beside them still shows its values.
 */
import { revealed } from "../../cli/recover/pending-creates";
import type { ProviderImpl } from "../../provider/dynamic/types";
import { compareWorkload } from "../../watch/compare";
import { findingsOf, lineOf } from "../../watch/finding";
import type { ManagedResource } from "../../watch/stack";
import { secretPathsOf } from "../../watch/state-record";

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";
/** A value as `pulumi stack export --show-secrets` writes a secret. */
const secret = (v: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, plaintext: JSON.stringify(v) });

const connection = { baseUrl: "http://127.0.0.1:1", workspace: "team", apiKey: secret("key-recorded-0001") };

interface Case {
  resource: string;
  kind: ManagedResource["kind"];
  /** The outputs as exported, secrets marked. */
  outputs: Record<string, unknown>;
  /** The live props the provider's read returns. */
  live: Record<string, unknown>;
  /** Paths whose values must never show, and the values they hold before and after. */
  hidden: Record<string, unknown[]>;
  /** A plain field that changed and shows its values. */
  plain?: [string, unknown, unknown];
}

const cases: Case[] = [
  {
    resource: "Pod",
    kind: "workload",
    outputs: {
      workloadId: "web",
      type: "pod",
      ...connection,
      image: "nginx:1.27",
      memory: "512Mi",
      source: { repo: secret("https://tok-recorded-aaaa@git.example/app"), ref: "main" },
    },
    live: { source: { repo: "https://tok-live-bbbb@git.example/app", ref: "main" }, memory: "1Gi" },
    hidden: { "source.repo": ["https://tok-recorded-aaaa@git.example/app", "https://tok-live-bbbb@git.example/app"] },
    plain: ["memory", "512Mi", "1Gi"],
  },
  {
    resource: "Pod (its whole source secret, replaced by another shape)",
    kind: "workload",
    outputs: { workloadId: "web", type: "pod", ...connection, source: secret({ repo: "https://tok-whole-cccc@g/a" }) },
    live: { source: { repo: "https://tok-whole-dddd@g/a", ref: "dev" } },
    hidden: { source: ["https://tok-whole-cccc@g/a", "https://tok-whole-dddd@g/a"] },
  },
  {
    resource: "Browser",
    kind: "workload",
    outputs: { workloadId: "b", type: "browser", ...connection, memory: secret("777Mi"), cpu: "1" },
    live: { memory: "999Mi", cpu: "2" },
    hidden: { memory: ["777Mi", "999Mi"] },
    plain: ["cpu", "1", "2"],
  },
  {
    resource: "Controller",
    kind: "workload",
    outputs: { workloadId: "c", type: "controller", ...connection, autodiscover: secret(true) },
    live: { autodiscover: false },
    hidden: { autodiscover: [true, false] },
  },
  {
    resource: "Database",
    kind: "workload",
    outputs: {
      workloadId: "db",
      type: "storage",
      ...connection,
      engine: "postgres",
      cpu: "500m",
      // Declared secret: hidden even where the state did not mark it.
      credentials: { username: "app", digest: "digest-recorded-eeee" },
      network: { exposed: secret(false) },
    },
    live: { credentials: { username: "app", digest: "digest-live-ffff" }, network: { exposed: true }, cpu: "1" },
    hidden: { credentials: ["digest-recorded-eeee", "digest-live-ffff"], "network.exposed": [false, true] },
    plain: ["cpu", "500m", "1"],
  },
  {
    resource: "VirtualMachine",
    kind: "workload",
    outputs: {
      workloadId: "vm",
      type: "vm-ubuntu",
      ...connection,
      cpus: 1,
      credentials: secret({ username: "ubuntu", password: "vm-password-gggg" }),
      ports: [{ name: secret("port-name-hhhh"), port: 22 }],
      placement: { host: secret("host-iiii") },
    },
    live: {
      cpus: 2,
      credentials: { username: "ubuntu", password: "vm-password-jjjj" },
      ports: [{ name: "port-name-kkkk", port: 22 }],
      placement: { host: "host-llll" },
    },
    hidden: {
      credentials: ["vm-password-gggg", "vm-password-jjjj"],
      ports: ["port-name-hhhh", "port-name-kkkk"],
      "placement.host": ["host-iiii", "host-llll"],
    },
    plain: ["cpus", 1, 2],
  },
  {
    resource: "Template",
    kind: "template",
    outputs: {
      name: "base",
      kind: "vm-ubuntu",
      ...connection,
      description: secret("description-mmmm"),
      // A login in a blueprint: hidden by its name, though nothing marked it.
      config: { vm: { cpus: 1, credentials: { password: "tpl-password-nnnn" } } },
      templateId: "tpl_1",
    },
    live: {
      description: "description-oooo",
      config: { vm: { cpus: 2, credentials: { password: "tpl-password-pppp" } } },
      apiKey: "key-live-0002",
    },
    hidden: {
      description: ["description-mmmm", "description-oooo"],
      "config.vm.credentials.password": ["tpl-password-nnnn", "tpl-password-pppp"],
      apiKey: ["key-recorded-0001", "key-live-0002"],
    },
    plain: ["config.vm.cpus", 1, 2],
  },
];

/** The provider's read, answering `live` over the record (the comparison under test is the watch's). */
const readingAs = (props: Record<string, unknown>): ProviderImpl =>
  ({ read: async (id: string) => ({ id, props }) }) as unknown as ProviderImpl;

describe("the watch's findings", () => {
  it.each(cases.map((c) => [c.resource, c] as const))("should hide every secret of a %s", async (_name, c) => {
    const recorded = revealed(c.outputs) as Record<string, unknown>;
    const w: ManagedResource = {
      kind: c.kind,
      stack: "dev",
      urn: `urn:pulumi:dev::demo::pulumi-nodejs:dynamic/wws:${c.resource.split(" ")[0]}::x`,
      id: "team/x",
      recorded,
      secretKeys: secretPathsOf(c.outputs),
    };
    const diffs = await compareWorkload(readingAs({ ...recorded, ...c.live }), w);
    const findings = findingsOf(diffs, w, { actor: "ops" }, new Date());
    const said = `${JSON.stringify(findings)}\n${findings.map(lineOf).join("\n")}`;
    const fields = findings.flatMap((f) => f.fields ?? []);
    for (const [path, values] of Object.entries(c.hidden)) {
      const field = fields.find((f) => f.path === path || f.path.startsWith(`${path}.`));
      expect(field).toEqual({ path: field?.path, secret: true });
      for (const v of values) if (typeof v === "string") expect(said).not.toContain(v);
    }
    for (const line of findings.map(lineOf))
      for (const f of fields.filter((x) => x.secret)) expect(line).toContain(`${f.path} changed (secret, not shown)`);
    if (c.plain) {
      const [path, before, after] = c.plain;
      expect(fields).toContainEqual({ path, secret: false, recorded: before, live: after });
    }
  });
});
