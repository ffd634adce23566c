/**
 * A key rotation, through the real `pulumi` CLI against the real local service, with the key given
 * as a `Workspace` argument read from the stack config (`apiKey: cfg.requireSecret("devKey")`):
 * - the service rotates the workspace's key (the old one is revoked): `preview` fails naming the
 *   Workspace's `apiKey` argument and how to set it there, not `wws:apiKey` (which this stack does
 *   not use); `refresh` fails saying it uses the key the last `up` recorded;
 * - `devKey` set to the new key: `preview` shows `~ update [diff: ~apiKey]` and says on the pod's
 *   row that the update sends nothing to the service; `up` sends nothing, and a
 *   `--expect-no-changes` preview then passes; `destroy` works with the new key.
 * The key never appears in what the CLI prints.
 */
import { randomBytes } from "node:crypto";
import { serviceForFile } from "../e2e/harness";
import { errorLines, fileProgramStack, runOp, type OpOutcome } from "./cli-helpers";

jest.setTimeout(240_000);
const OP_TIMEOUT_MS = 120_000;
const PROJECT = "wws-key-rotation";

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");
const cfg = new pulumi.Config();
const team = new wws.Workspace("team", { apiKey: cfg.requireSecret("devKey") });
new wws.Pod("web", { workspace: team, image: "nginx:1.27" });
`;

const service = serviceForFile();

/** The text a user reads of a failed operation: its error lines. */
const said = (o: OpOutcome): string => errorLines(o, 20).join("\n");
const mutating = async (): Promise<number> => (await service.ctl.counters()).requests.mutating;

it("should name the Workspace's argument for a revoked key, and say at preview that a rotation sends nothing", async () => {
  const ws = service.workspace();
  const rotated = `rotated-key-${randomBytes(12).toString("hex")}`;
  const file = service.keep(await fileProgramStack(PROJECT));
  file.setProgram(PROGRAM);
  await file.stack.setAllConfig({
    "wws:baseUrl": { value: service.url },
    "wws:workspace": { value: ws.name },
    [`${PROJECT}:devKey`]: { value: ws.apiKey, secret: true },
  });
  const printed: OpOutcome[] = [];
  const op = async (kind: "up" | "preview" | "refresh" | "destroy"): Promise<OpOutcome> => {
    const o = await runOp(file.stack, kind, OP_TIMEOUT_MS);
    printed.push(o);
    return o;
  };

  const up = await op("up");
  expect({ ok: up.ok, error: said(up) }).toEqual({ ok: true, error: "" });
  await service.ctl.rotateKey(ws.name, rotated);
  try {
    const before = await mutating();
    const revoked = await op("preview");
    expect(revoked.ok).toBe(false);
    expect(said(revoked)).toMatch(
      /the API key \(from the `apiKey` argument of the resource or of its Workspace\) is not valid: .*answered 401 .*Set the workspace's key where the program takes that argument from/,
    );
    expect(said(revoked)).not.toMatch(/wws:apiKey|WWS_API_KEY/);
    const refresh = await op("refresh");
    expect(said(refresh)).toMatch(
      /HTTP 401 .*The API key in use comes from the `apiKey` argument of the resource or of its Workspace\. Set a valid API key where the program takes that argument from .*; a refresh or destroy uses the value the last `pulumi up` recorded, so run `pulumi up` first/,
    );

    await file.stack.setConfig(`${PROJECT}:devKey`, { value: rotated, secret: true });
    const preview = await op("preview");
    expect({ ok: preview.ok, error: said(preview) }).toEqual({ ok: true, error: "" });
    // On the pod's row, beside the engine's diff.
    expect(preview.stdout).toMatch(
      /~\s+\S+wws:Pod\s+web\s+update\s+\[diff: ~apiKey\]; pod web: apiKey changed: `pulumi up` records the new value in the state and sends nothing to the service/,
    );
    const recorded = await op("up");
    expect({ ok: recorded.ok, error: said(recorded) }).toEqual({ ok: true, error: "" });
    expect(await mutating()).toBe(before);
    const gate = await file.stack.preview({ expectNoChanges: true });
    expect(gate.changeSummary).toEqual({ same: 3 });

    const destroy = await op("destroy");
    expect({ ok: destroy.ok, error: said(destroy) }).toEqual({ ok: true, error: "" });
    expect(await service.ctl.workload(ws.name, "web")).toBeUndefined();
  } finally {
    await service.ctl.rotateKey(ws.name, ws.apiKey);
  }
  for (const o of printed)
    for (const key of [ws.apiKey, rotated]) expect(`${o.stdout}${o.stderr}${o.error}`).not.toContain(key);
});
