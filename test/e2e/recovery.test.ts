/**
 * What happens when the world and the stack disagree, through the real `pulumi` CLI: a workload
 * deleted out of band, one that exists before the stack (import / adopt), one that fails, one
 * whose wait times out. Each ends with the stack and the service converged, and with no password
 * or API key in plaintext anywhere the stack's operations left something.
 */
import * as wws from "../../index";
import {
  configuredStack as configuredStackOn,
  E2E_TIMEOUT_MS,
  password,
  serviceForFile,
  until,
  type Program,
} from "./harness";
import { NotFoundError } from "../../sdk";

jest.setTimeout(E2E_TIMEOUT_MS);

const service = serviceForFile();

async function configuredStack(program: Program, secrets: string[] = []) {
  return service.keep(await configuredStackOn(service, program, secrets));
}

const gone = async (client: { getStatus(id: string): Promise<unknown> }, id: string): Promise<boolean> =>
  client.getStatus(id).then(
    () => false,
    (err: unknown) => {
      if (err instanceof NotFoundError) return true;
      throw err;
    },
  );

it("should drop a workload deleted out of band from the stack on `pulumi refresh`, and create it again on `up`", async () => {
  const s = await configuredStack(async () => {
    new wws.Pod("web", { image: "nginx:1.27" });
    new wws.Browser("browser", {});
  });
  await s.up();
  await s.client.deleteWorkload("web");
  await until("web to be gone", () => gone(s.client, "web"), 30_000);

  const refresh = await s.refresh();
  expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
  expect((await s.resources()).map((r) => r.id).sort()).toEqual([`${s.ws.name}/browser`]);

  const preview = await s.preview();
  expect(preview.ops.get("web")).toEqual(["create"]);
  expect(preview.ops.get("browser")).toEqual(["same"]);
  await s.up();
  expect(await s.client.getStatus("web")).toMatchObject({ phase: "Running" });
  await s.destroy();
  expect((await s.client.getSpec()).workloads).toEqual([]);
});

it("should take over an existing workload with `adopt`, the `import` option taking it only as it runs", async () => {
  const dbPassword = password("db");
  let mode: "import" | "adopt" = "import";
  const s = await configuredStack(async () => {
    const db = new wws.Database(
      "orders",
      {
        engine: "postgres",
        storageSize: "20Gi",
        credentials: { password: dbPassword },
        adopt: mode === "adopt" ? true : undefined,
      },
      mode === "import" ? { import: `${wsName()}/orders` } : {},
    );
    return { phase: db.phase, generation: db.generation };
  }, [dbPassword]);
  const wsName = (): string => s.ws.name;
  // Created before the stack, by hand, with the same password (set once for a database).
  await s.client.upsertWorkload("storage", {
    id: "orders",
    engine: "postgres",
    storageSize: "10Gi",
    credentials: { password: dbPassword },
  });
  await until("orders to run", async () => (await s.client.getStatus("orders")).phase === "Running", 30_000);

  // The import option takes a workload only as it runs: one that runs another spec is refused
  // at preview, naming the difference and `adopt`, with nothing sent.
  const error = await s.upError();
  expect(error).toMatch(
    /the import resource option takes storage orders of workspace \S+ as it runs, and it runs another spec than this declaration \(it differs in storageSize\).*`adopt: true`.*No change was sent/,
  );
  expect(await s.resources()).toEqual([]);
  expect((await s.client.getSpec()).workloads).toEqual([
    { id: "orders", type: "storage", spec: { engine: "postgres", storageSize: "10Gi" } },
  ]);

  mode = "adopt";
  const preview = await s.preview();
  expect(preview.ops.get("orders")).toEqual(["create"]);
  const up = await s.up();
  expect(up.ops.get("orders")).toEqual(["create"]);
  expect(up.outputs).toMatchObject({ phase: { value: "Running" }, generation: { value: 2 } });
  expect((await s.client.getSpec()).workloads).toEqual([
    { id: "orders", type: "storage", spec: { engine: "postgres", storageSize: "20Gi" } },
  ]);
  expect((await s.resources()).map((r) => r.id)).toEqual([`${s.ws.name}/orders`]);
  expect((await s.preview()).changeSummary).toEqual({ same: 2 });
  await s.destroy();
  expect((await s.client.getSpec()).workloads).toEqual([]);
});

it("should fail `up` with the service's message when a workload fails, and converge on the next `up` once fixed", async () => {
  let image = "registry.example/app:broken";
  const s = await configuredStack(async () => {
    const app = new wws.Pod("app", { image });
    return { phase: app.phase };
  });
  const message = `image ${image} cannot be pulled: manifest unknown`;
  // Held in Pending (the reconciler paused) until the service fails it, while `up` waits for it.
  await service.ctl.pauseReconciler();
  let error: string;
  try {
    let settled = false;
    const failing = s.upError().finally(() => (settled = true));
    failing.catch(() => undefined); // awaited below; never an unhandled rejection
    await until("app to be accepted", async () => settled || !(await gone(s.client, "app")), 90_000);
    if (settled) throw new Error(`\`up\` ended before the workload was accepted: ${await failing}`);
    await service.ctl.failWorkload(s.ws.name, "app", message);
    error = await failing;
  } finally {
    await service.ctl.resumeReconciler();
  }
  expect(error).toContain(message);
  expect(error).toMatch(/Failed/);
  // Recorded with the error, not orphaned: the next `up` picks it up.
  const recorded = await s.resources();
  expect(recorded.map((r) => [r.id, r.outputs?.phase])).toEqual([[`${s.ws.name}/app`, "Failed"]]);

  // Unchanged, it is awaited again and still fails with the service's message.
  expect(await s.upError()).toContain(message);

  image = "registry.example/app:fixed";
  const preview = await s.preview();
  expect(preview.ops.get("app")).toEqual(["update"]);
  expect(preview.diffs.get("app")).toEqual(["image"]);
  const up = await s.up();
  expect(up.outputs.phase.value).toBe("Running");
  expect(await s.client.getStatus("app")).toMatchObject({ phase: "Running" });
  expect((await s.preview()).changeSummary).toEqual({ same: 2 });
  await s.destroy();
});

it("should keep a workload whose wait timed out in the stack, and wait for it again on the next `up`", async () => {
  const s = await configuredStack(async () => {
    const slow = new wws.Controller("slow", { readyTimeoutSeconds: 2 });
    return { phase: slow.phase };
  });
  await service.ctl.pauseReconciler();
  let error: string;
  try {
    error = await s.upError();
  } finally {
    await service.ctl.resumeReconciler();
  }
  expect(error).toMatch(/did not become ready/);
  expect(error).toMatch(/Pending/); // the last phase seen
  const recorded = await s.resources();
  expect(recorded.map((r) => r.id)).toEqual([`${s.ws.name}/slow`]); // recorded, nothing orphaned
  expect((await s.client.getSpec()).workloads.map((w) => w.id)).toEqual(["slow"]);

  const preview = await s.preview();
  expect(preview.ops.get("slow")).toEqual(["update"]); // the engine retries a resource with init errors
  const up = await s.up();
  expect(up.ops.get("slow")).toEqual(["update"]);
  expect(up.outputs.phase.value).toBe("Running");
  expect((await s.client.getStatus("slow")).generation).toBe(1); // awaited, not sent again
  expect((await s.preview()).changeSummary).toEqual({ same: 2 });
  await s.destroy();
  expect((await s.client.getSpec()).workloads).toEqual([]);
});
