/**
 * What a stack can read without managing it, through the real `pulumi` CLI against the local
 * service: stack `b` reads stack `local`'s database and template with `get` and calls every
 * function in both forms, first as plain JavaScript, then as TypeScript; `b`'s destroy sends
 * nothing, and `local`'s next preview is clean. On the way: a template whose `config` holds wrong
 * fields fails `local`'s preview naming each, and with the right ones is stored as declared; a
 * pod's `source` (a repository URL holding a token) stays secret in both stacks, read with `get`,
 * `getWorkload` or `getWorkloadOutput`; `Database.get` has the live `engine`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { cliProject, type CliProject } from "./cli-project";
import { ROOT, password, serviceForFile } from "./harness";

jest.setTimeout(5 * 60_000);

const service = serviceForFile({ reconcileMs: 20 });

async function ok(p: CliProject, args: string[], stack?: string | null): Promise<string> {
  const run = await p.pulumi(args, stack);
  expect({ code: run.code, out: run.code === 0 ? "" : `${run.stdout.slice(-3000)}\n${run.stderr}` }).toEqual({
    code: 0,
    out: "",
  });
  return run.stdout;
}

async function refused(p: CliProject, args: string[], stack?: string | null): Promise<string> {
  const run = await p.pulumi(args, stack);
  expect(run.code).not.toBe(0);
  return `${run.stdout}\n${run.stderr}`;
}

const outputs = async (p: CliProject, stack: string): Promise<Record<string, unknown>> =>
  JSON.parse(await ok(p, ["stack", "output", "--json", "--show-secrets"], stack)) as Record<string, unknown>;

const head = (ts: boolean): string =>
  ts
    ? 'import * as pulumi from "@pulumi/pulumi";\nimport * as wws from "pulumi-wws";\n'
    : 'const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\n';
/** `export const x = …` lines as JavaScript's `exports.x = …` unless `ts`. */
const exported = (source: string, ts: boolean): string =>
  ts ? source : source.replace(/^export const (\w+) = /gm, "exports.$1 = ");

/** A template's spec object with three wrong fields, and the same with them right. */
const WRONG_POD = { image: "nginx:1.27", memory: "512MB", memroy: "512Mi", cpu: "half" };
const RIGHT_POD = { image: "nginx:1.27", memory: "512Mi", cpu: "500m" };

/** The managing stack (`local`): a database, a pod built from a repository whose URL holds a token, and a template. */
const managing = (pw: string, repo: string, ts = false, pod: object = RIGHT_POD): string =>
  exported(
    `${head(ts)}void pulumi;
const db = new wws.Database("db", { engine: "postgres", credentials: { password: ${JSON.stringify(pw)} }, network: { exposed: true } });
new wws.Pod("web", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }], source: { repo: ${JSON.stringify(repo)} } });
const tpl = new wws.Template("tpl", { name: "base", kind: "pod", config: { pod: ${JSON.stringify(pod)} } });
export const endpoint = db.endpoint;
export const templateId = tpl.templateId;
`,
    ts,
  );

/** The reading stack (`b`): `get` and every function, each in both forms. `ts` adds types. */
const reading = (templateId: string, ts: boolean): string => {
  const any = ts ? ": any" : "";
  return exported(
    `${head(ts)}const ws = new pulumi.Config("wws").require("workspace");
const db = wws.Database.get("shared-db", \`\${ws}/db\`);
const web = wws.Pod.get("shared-web", \`\${ws}/web\`);
const tpl = wws.Template.get("shared-tpl", \`\${ws}/${templateId}\`);
const short = (w${any}) => [w.workloadId, w.type, w.status.phase];
const names = (list${any}) => list.map((t${any}) => t.name + "=" + t.id).sort();
const hosts = (f${any}) => f.regions.flatMap((r${any}) => r.hosts.map((h${any}) => h.name)).sort();
const read = {
  getWorkload: wws.getWorkload({ workloadId: "web" }).then(short),
  getWorkloadOutput: wws.getWorkloadOutput({ workloadId: "web" }).apply(short),
  listWorkloads: wws.listWorkloads({ kind: "storage" }).then((l) => l.map(short)),
  listWorkloadsOutput: wws.listWorkloadsOutput().apply((l) => l.map(short).sort()),
  getTemplate: wws.getTemplate({ name: "base" }).then((t) => t.id),
  getTemplateOutput: wws.getTemplateOutput({ templateId: "${templateId}" }).apply((t) => t.name),
  listTemplates: wws.listTemplates().then(names),
  listTemplatesOutput: wws.listTemplatesOutput().apply(names),
  getFleetHosts: wws.getFleetHosts().then(hosts),
  getFleetHostsOutput: wws.getFleetHostsOutput().apply(hosts),
  getWorkloadStatus: wws.getWorkloadStatus({ workloadId: "db" }).then((s) => s.phase),
  getWorkloadStatusOutput: wws.getWorkloadStatusOutput({ workloadId: "db" }).apply((s) => s.phase),
};
export const endpoint = db.endpoint;
export const connectionUri = db.connectionUri;
export const phase = db.phase;
export const templateName = tpl.name;
export const functions = read;
export const engine = db.engine;
export const sourceByGet = web.source;
export const sourceByGetWorkload = wws.getWorkload({ workloadId: "web" }).then((w) => w.spec.source);
export const sourceByGetWorkloadOutput = wws.getWorkloadOutput({ workloadId: "web" }).apply((w) => w.spec.source);
`,
    ts,
  );
};

describe("get and the functions", () => {
  it("reads another stack's database and template, calls every function in JS and TS, and leaves the managing stack alone", async () => {
    const p = service.keep(await cliProject(service, "wws-reads"));
    const pw = password("db");
    const token = password("repo-token");
    const repo = `https://x-access-token:${token}@git.example/team/app.git`;
    // Wrong fields inside a template's config fail preview, each named with its path and value.
    p.setProgram(managing(pw, repo, false, WRONG_POD));
    const wrong = await refused(p, ["preview"]);
    expect(wrong).toContain('config.pod.memory (set to "512MB"): must be a size such as 512Mi, 4Gi or 1Ti');
    expect(wrong).toContain('config.pod.cpu (set to "half"): must be millicores such as 500m or whole cores such as 2');
    expect(wrong).toContain('config.pod.memroy (set to "512Mi"): unknown field: did you mean memory?');
    // Right, they preview clean (`up` previews first) and the service stores them.
    p.setProgram(managing(pw, repo));
    await ok(p, ["up", "--yes"]);
    const a = await outputs(p, "local");
    const templateId = String(a.templateId);
    expect(a.endpoint).toEqual(expect.stringContaining(":5432"));
    expect((await p.client.getTemplate(templateId)).config).toEqual({ pod: RIGHT_POD });
    expect((await p.client.getSpec()).workloads.find((w) => w.id === "web")?.spec.source).toEqual({ repo });
    // The token is in no state and no output in clear, in either stack.
    const inClear = async (stack: string): Promise<boolean> =>
      (await ok(p, ["stack", "export"], stack)).includes(token) ||
      (await ok(p, ["stack", "output", "--json"], stack)).includes(token);
    expect(await inClear("local")).toBe(false);

    await p.addStack("b");
    p.setProgram(reading(templateId, false));
    await ok(p, ["up", "--yes", "--skip-preview"], "b");
    const b = await outputs(p, "b");
    const ws = p.ws.name;
    const live = await p.client.listTemplates();
    const fleet = await p.client.getFleetHosts();
    const fleetNames = fleet.regions.flatMap((r) => r.hosts.map((h) => h.name)).sort();
    const expected = {
      getWorkload: ["web", "pod", "Running"],
      getWorkloadOutput: ["web", "pod", "Running"],
      listWorkloads: [["db", "storage", "Running"]],
      listWorkloadsOutput: [
        ["db", "storage", "Running"],
        ["web", "pod", "Running"],
      ],
      getTemplate: templateId,
      getTemplateOutput: "base",
      listTemplates: live.map((t) => `${t.name}=${t.id}`).sort(),
      listTemplatesOutput: live.map((t) => `${t.name}=${t.id}`).sort(),
      getFleetHosts: fleetNames,
      getFleetHostsOutput: fleetNames,
      getWorkloadStatus: (await p.client.getStatus("db")).phase,
      getWorkloadStatusOutput: (await p.client.getStatus("db")).phase,
    };
    expect(b).toEqual({
      endpoint: a.endpoint,
      connectionUri: `postgresql://app@${String(a.endpoint)}/postgres?sslmode=require`,
      phase: "Running",
      templateName: "base",
      functions: expected,
      engine: "postgres",
      sourceByGet: { repo },
      sourceByGetWorkload: { repo },
      sourceByGetWorkloadOutput: { repo },
    });
    // The token, secret in the managing stack, is secret in the reading one's state and outputs.
    expect(await inClear("b")).toBe(false);
    const shown = JSON.parse(await ok(p, ["stack", "output", "--json"], "b")) as Record<string, unknown>;
    expect([shown.sourceByGet, shown.sourceByGetWorkload, shown.sourceByGetWorkloadOutput]).toEqual([
      "[secret]",
      "[secret]",
      "[secret]",
    ]);
    // Write-only: the password is nowhere in the reading stack's state.
    const stateB = await ok(p, ["stack", "export", "--show-secrets"], "b");
    expect(stateB).not.toContain(pw);
    expect(stateB).toContain(token); // (the search above can find it)
    expect(stateB).toContain(`"id": "${ws}/db"`);

    // Refresh reads again; the managing stack's preview is clean (the read claims nothing).
    await ok(p, ["refresh", "--yes", "--skip-preview"], "b");
    p.setProgram(managing(pw, repo));
    await ok(p, ["preview", "--expect-no-changes"], "local");

    // The same program as TypeScript, typed by the package's declarations (ts-node checks them).
    fs.writeFileSync(path.join(p.workDir, "Pulumi.yaml"), "name: wws-reads\nruntime: nodejs\n");
    fs.writeFileSync(path.join(p.workDir, "package.json"), JSON.stringify({ name: "wws-reads", main: "index.ts" }));
    for (const dep of ["typescript", "ts-node", "@types"])
      fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(p.workDir, "node_modules", dep), "dir");
    fs.writeFileSync(path.join(p.workDir, "index.ts"), reading(templateId, true));
    fs.rmSync(path.join(p.workDir, "index.js"));
    await ok(p, ["up", "--yes", "--skip-preview", "--refresh"], "b");
    expect(await outputs(p, "b")).toEqual(b);

    // Destroy forgets the read resources: nothing is sent, the database runs on.
    const mark = await p.mark();
    await ok(p, ["destroy", "--yes", "--skip-preview"], "b");
    expect(await mark.since()).toEqual({ rows: [], mutating: 0 });
    expect((await p.client.getStatus("db")).phase).toBe("Running");
    fs.writeFileSync(path.join(p.workDir, "index.ts"), managing(pw, repo, true));
    await ok(p, ["preview", "--expect-no-changes"], "local");

    // A missing id fails preview naming the workspace and the id; two templates of one name fail naming both.
    const second = await p.client.createTemplate({
      name: "base",
      kind: "pod",
      config: { pod: { image: "nginx:1.27" } },
    });
    fs.writeFileSync(
      path.join(p.workDir, "index.ts"),
      `import * as wws from "pulumi-wws";\nwws.Pod.get("ghost", "${ws}/ghost");\nwws.Template.get("gone", "${ws}/tpl_0");\n`,
    );
    const missing = await refused(p, ["preview"], "b");
    expect(missing).toContain(`get: workspace ${ws} has no workload ghost (id ${ws}/ghost)`);
    expect(missing).toContain(`get: workspace ${ws} has no template tpl_0 (id ${ws}/tpl_0)`);
    fs.writeFileSync(
      path.join(p.workDir, "index.ts"),
      `import * as wws from "pulumi-wws";\nexport const t = wws.getTemplate({ name: "base" }).then((t) => t.id);\n`,
    );
    const twice = await refused(p, ["preview"], "b");
    expect(twice).toContain(`workspace ${ws} has 2 templates named "base": ${templateId}, ${second.id}`);
  });
});
