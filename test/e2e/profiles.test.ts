/**
 * One stack flow through the real `pulumi` CLI per service profile × transition mode: create,
 * then in one `up` an update, a restart (restartTrigger) and a replacement, a refresh that finds
 * drift, and destroy. Each checks, on the service's own full record (`/_control`), that what
 * `up` reported ready is the new spec and generation, and that it was ready before the engine
 * heard the step finish (an early resolve would be seen there), well inside the ready timeout.
 */
import * as wws from "../../index";
import { PROFILES, TRANSITIONS, type Profile, type Transitions } from "../../server";
import { E2E_TIMEOUT_MS, configuredStack, serviceForFile } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const READY_TIMEOUT_S = 60;
const MATRIX = PROFILES.flatMap((profile) =>
  TRANSITIONS.map((transitions) => [profile, transitions] as [Profile, Transitions]),
);
/** Wall time of the `up` that updates, restarts and replaces, per combination, for the closing note. */
const changeUpMs: string[] = [];

afterAll(() => console.log(`pulumi up (update + restart + replace) wall time:\n${changeUpMs.join("\n")}`));

describe.each(MATRIX)("pulumi CLI, service profile %s, transitions %s", (profile, transitions) => {
  const service = serviceForFile({ profile, transitions });

  it("should create, update, restart, replace, refresh a drift and destroy, ready on the new spec each time", async () => {
    let image = "nginx:1.27";
    let trigger = "deploy-1";
    let kind: "browser" | "controller" = "browser";
    const stack = await configuredStack(service, async () => {
      const opts = { readyTimeoutSeconds: READY_TIMEOUT_S };
      new wws.Pod("web", { image, ports: [{ name: "http", port: 80 }], ...opts });
      new wws.Pod("worker", { image: "busybox:1", restartTrigger: trigger, ...opts });
      new wws.Workload("kindy", { kind, ...opts });
    });
    service.keep(stack);
    const ws = stack.ws.name;
    const record = (id: string) => service.ctl.workload(ws, id);
    /** When the service reached Running for `generation` of `id` (epoch ms). */
    const runningAt = async (id: string, generation: number) =>
      (await service.ctl.transitions(ws, id)).find((t) => t.phase === "Running" && t.generation === generation)?.at;

    const up1 = await stack.up();
    expect(up1.summary.resourceChanges).toEqual({ create: 4 });
    for (const id of ["web", "worker", "kindy"])
      expect(await record(id)).toMatchObject({ phase: "Running", generation: 1, observedGeneration: 1 });

    image = "nginx:1.28";
    trigger = "deploy-2";
    kind = "controller";
    const started = Date.now();
    const up2 = await stack.up();
    const tookMs = Date.now() - started;
    changeUpMs.push(`  ${profile} × ${transitions}: ${tookMs} ms`);
    expect(up2.summary.resourceChanges).toEqual({ same: 1, update: 2, replace: 1 });
    expect(await record("web")).toMatchObject({
      phase: "Running",
      generation: 2,
      observedGeneration: 2,
      spec: { image: "nginx:1.28" },
    });
    expect(await record("worker")).toMatchObject({
      phase: "Running",
      generation: 2,
      observedGeneration: 2,
      restartCount: 1,
    });
    expect(await record("kindy")).toMatchObject({
      type: "controller",
      phase: "Running",
      generation: 1,
      observedGeneration: 1,
    });
    // Ready on the new generation before the engine heard the step finish: not on the old record.
    expect(await runningAt("web", 2)).toBeLessThanOrEqual(up2.doneAt.get("web")!);
    expect(await runningAt("worker", 2)).toBeLessThanOrEqual(up2.doneAt.get("worker")!);
    expect(tookMs).toBeLessThan((READY_TIMEOUT_S * 1000) / 2);

    // Drift outside Pulumi: refresh takes the live spec, the next preview wants it back.
    await stack.client.upsertWorkload("pod", { id: "web", image: "nginx:drift", ports: [{ name: "http", port: 80 }] });
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await stack.resources()).find((r) => r.id === `${ws}/web`)?.outputs).toMatchObject({
      image: "nginx:drift",
    });

    await stack.destroy();
    for (const id of ["web", "worker", "kindy"]) expect(await record(id)).toBeUndefined();
  });
});
