/**
 * Replacements the engine drives, through the real `pulumi` CLI against the real local service:
 * one stack walked through every door. A Pod is replaced by `replaceOnChanges`,
 * `replacementTrigger`, `pulumi up --replace` and `--target-replace`, each time deleted first (its
 * id is its own) and created again with the declared spec. A Database is refused through each
 * door without `allowDataLoss` (the options at preview, `--replace` at preview, a taint at its
 * delete), with nothing deleted; with `allowDataLoss: true`, `--replace` replaces it. A
 * Pod replaced along with another (`replaceWith`) is deleted first and created again. A
 * `deletedWith` pointing at a Pod says at preview that the service does not cascade, and it is so.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { ActivityRow } from "../../sdk";
import { password, pulumiBinDir, serviceForFile } from "../e2e/harness";
import { fileProgramStack, runOp, type OpOutcome } from "./cli-helpers";

jest.setTimeout(6 * 60_000);
const OP_TIMEOUT_MS = 120_000;

const service = serviceForFile({ reconcileMs: 20 });

interface Declared {
  memory?: string;
  trigger?: string;
  dbOptions?: string;
  dbArgs?: string;
  /** More resources, after the three. */
  more?: string;
}

/** Pod "rp" (memory replaced on change), Database "db", and Pod "side" deleted with "rp". */
function program(d: Declared = {}): string {
  return (
    `const pulumi = require("@pulumi/pulumi");\nconst wws = require("pulumi-wws");\nconst cfg = new pulumi.Config();\n` +
    `const rp = new wws.Pod("rp", { image: "nginx:1.27", memory: "${d.memory ?? "256Mi"}" }, ` +
    `{ replaceOnChanges: ["memory"], replacementTrigger: "${d.trigger ?? "a"}" });\n` +
    `new wws.Database("db", { engine: "postgres", cpu: "500m", credentials: { password: cfg.requireSecret("dbPassword") }${d.dbArgs ?? ""} }, ` +
    `{ ${d.dbOptions ?? ""} });\n` +
    `new wws.Pod("side", { image: "nginx:1.27" }, { deletedWith: rp });\n` +
    (d.more ?? "")
  );
}

/** `pulumi <args>` in the stack's project, as a user types it; resolves to its output, exit code included. */
function pulumi(stack: Stack, args: string[]): Promise<{ code: number; out: string }> {
  const { workDir, envVars } = stack.workspace;
  return new Promise((resolve) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      [...args, "--stack", "local", "--non-interactive"],
      { cwd: workDir, env: { ...process.env, ...envVars }, timeout: OP_TIMEOUT_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

describe("replacements through pulumi", () => {
  it("should replace a pod through every door, delete first, and never delete a database without allowDataLoss", async () => {
    const ws = service.workspace();
    const s = service.keep(await fileProgramStack("wws-replace"));
    await s.stack.setAllConfig({
      "wws:baseUrl": { value: service.url },
      "wws:workspace": { value: ws.name },
      "wws:apiKey": { value: ws.apiKey, secret: true },
      "wws-replace:dbPassword": { value: password("db"), secret: true },
    });
    const client = service.client(ws.name);
    const urn = (type: string, name: string) =>
      `urn:pulumi:local::wws-replace::pulumi-nodejs:dynamic/wws:${type}::${name}`;
    const POD = urn("Pod", "rp");
    const DB = urn("Database", "db");
    let seen: string | undefined;
    /** The audit rows since the last call, as `action id`. */
    const activity = async (): Promise<string[]> => {
      const rows: ActivityRow[] = await client.listActivity(seen ? { after: seen, limit: 500 } : { limit: 500 });
      if (rows.length > 0) seen = String(rows[rows.length - 1].id);
      return rows
        .filter((r) => /^workload\.(created|deleted|updated)$/.test(String(r.action)))
        .map((r) => `${String(r.action)} ${String((r.target as { id?: unknown }).id)}`);
    };
    const mutating = async () => (await service.ctl.counters()).requests.mutating;
    const op = async (kind: "up" | "preview" | "destroy", extra = {}): Promise<OpOutcome> =>
      runOp(s.stack, kind, OP_TIMEOUT_MS, extra);
    const ok = (o: OpOutcome | { code: number; out: string }) => {
      const good = "ok" in o ? o.ok : o.code === 0;
      if (!good) throw new Error("ok" in o ? `${o.error}\n${o.stdout}` : o.out);
    };
    const podRuns = async (memory: string) => {
      expect(await client.getStatus("rp")).toMatchObject({ phase: "Running", generation: 1 });
      const pods = (await client.getSpec()).workloads.filter((w) => w.id === "rp");
      expect(pods).toEqual([{ id: "rp", type: "pod", spec: { image: "nginx:1.27", memory } }]);
    };

    // The first up, and the deletedWith warning at every preview.
    s.setProgram(program());
    const first = await op("up");
    ok(first);
    expect(first.stdout).toMatch(
      /warning: Pod "side": deletedWith points at Pod "rp", but the service deletes nothing along with another resource/,
    );
    await activity();

    // Pod: each door replaces it, the old workload deleted before the new one is created.
    const doors: Array<[string, () => Promise<OpOutcome | { code: number; out: string }>, string]> = [
      ["replaceOnChanges", () => (s.setProgram(program({ memory: "512Mi" })), op("up")), "512Mi"],
      ["replacementTrigger", () => (s.setProgram(program({ memory: "512Mi", trigger: "b" })), op("up")), "512Mi"],
      ["--replace", () => op("up", { replace: [POD] }), "512Mi"],
      ["--target-replace", () => pulumi(s.stack, ["up", "--yes", "--target-replace", POD]), "512Mi"],
    ];
    for (const [door, run, memory] of doors) {
      const before = await mutating();
      const o = await run();
      ok(o);
      expect({ door, out: ("ok" in o ? o.stdout : o.out).match(/Pod rp replaced|\+-1 replaced/)?.[0] }).toEqual({
        door,
        out: expect.any(String),
      });
      expect({ door, rows: await activity() }).toEqual({ door, rows: ["workload.deleted rp", "workload.created rp"] });
      expect({ door, sent: (await mutating()) - before }).toEqual({ door, sent: 2 }); // DELETE, then PUT
      await podRuns(memory);
    }

    // Database: refused through each door without allowDataLoss, nothing sent.
    const pod = { memory: "512Mi", trigger: "b" };
    const refusals: Array<[string, () => Promise<OpOutcome | { code: number; out: string }>, RegExp]> = [
      [
        "replaceOnChanges",
        () => (
          s.setProgram(program({ ...pod, dbOptions: `replaceOnChanges: ["cpu"], deleteBeforeReplace: true` })),
          op("up")
        ),
        /database db in workspace \S+: the resource option replaceOnChanges \(cpu\) can replace it, and a replacement deletes the database with all its data/,
      ],
      [
        "replacementTrigger",
        () => (s.setProgram(program({ ...pod, dbOptions: `replacementTrigger: "x"` })), op("preview")),
        /the resource option replacementTrigger can replace it/,
      ],
      [
        "replaceWith",
        () => (s.setProgram(program({ ...pod, dbOptions: `replaceWith: [rp]` })), op("preview")),
        /the resource option replaceWith can replace it/,
      ],
      [
        "--replace",
        () => (s.setProgram(program(pod)), op("up", { replace: [DB] })),
        /database db in workspace \S+: this command asks to replace it, and a replacement deletes the database with all its data/,
      ],
      [
        "taint",
        async () => {
          ok(await pulumi(s.stack, ["state", "taint", DB, "--yes"]));
          // `adopt` passes the check a taint hides from the provider: the delete is the last guard.
          s.setProgram(program({ ...pod, dbArgs: ", adopt: true" }));
          return op("up");
        },
        /database db in workspace \S+ was not deleted: the program still declares it, so this delete is the first half of a replacement/,
      ],
    ];
    for (const [door, run, said] of refusals) {
      const before = await mutating();
      const o = (await run()) as OpOutcome;
      expect({ door, ok: o.ok }).toEqual({ door, ok: false });
      expect(`${o.stdout}\n${o.error}`).toMatch(said);
      expect({ door, sent: (await mutating()) - before, rows: await activity() }).toEqual({ door, sent: 0, rows: [] });
    }
    expect(await client.getStatus("db")).toMatchObject({ phase: "Running", generation: 1 });
    ok(await pulumi(s.stack, ["state", "untaint", DB, "--yes"]));

    // With allowDataLoss: true, --replace replaces the database (its data goes, as said).
    s.setProgram(program({ ...pod, dbArgs: ", allowDataLoss: true" }));
    ok(await op("up")); // records allowDataLoss: sends nothing
    expect(await activity()).toEqual([]);
    const replaced = await op("up", { replace: [DB] });
    ok(replaced);
    expect(replaced.stdout).toMatch(/Database db replaced/);
    expect(await activity()).toEqual(["workload.deleted db", "workload.created db"]);
    expect(await client.getStatus("db")).toMatchObject({ phase: "Running", generation: 1 });

    // replaceWith: a pod replaced along with "rp" is deleted, then checked without its state: its id
    // is its own, so it is created again, not refused.
    const follower = {
      ...pod,
      dbArgs: ", allowDataLoss: true",
      more: `new wws.Pod("rw", { image: "nginx:1.27" }, { replaceWith: [rp] });\n`,
    };
    s.setProgram(program(follower));
    ok(await op("up"));
    expect(await activity()).toEqual(["workload.created rw"]);
    s.setProgram(program({ ...follower, trigger: "c" }));
    ok(await op("up"));
    expect((await activity()).sort()).toEqual([
      "workload.created rp",
      "workload.created rw",
      "workload.deleted rp",
      "workload.deleted rw",
    ]);
    expect(await client.getStatus("rw")).toMatchObject({ phase: "Running", generation: 1 });

    // deletedWith: the destroy skips "side", which keeps running, as the warning said.
    ok(await op("destroy"));
    expect((await client.getSpec()).workloads.map((w) => w.id)).toEqual(["side"]);
    await client.deleteWorkload("side");
  });
});
