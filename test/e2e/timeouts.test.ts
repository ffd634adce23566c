/**
 * `customTimeouts` on our resources through the real CLI. The engine does not hand them to dynamic
 * providers, so the resource classes carry them in the inputs: `create` and `update` bound the
 * readiness waits (`readyTimeoutSeconds` overrides both), `delete` bounds the wait for the 404;
 * `waitForDeletion: false` skips only that wait. Changing a timeout sends no request.
 */
import * as wws from "../../index";
import { configuredStack, E2E_TIMEOUT_MS, serviceForFile, until, type E2eStack, type Service } from "./harness";

jest.setTimeout(E2E_TIMEOUT_MS);

const service = serviceForFile();

const names = (resources: Array<{ urn: string }>): string[] =>
  resources.map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2)).sort();

/** A stack of the test's own (each test runs alone: `jest -t`), with the client of its workspace. */
async function stackOf(program: () => Promise<void>): Promise<E2eStack & { client: ReturnType<Service["client"]> }> {
  return service.keep(await configuredStack(service, program));
}

/** Runs `body` with the service's reconciler paused: nothing becomes ready, nothing is deleted. */
async function whilePaused<T>(body: () => Promise<T>): Promise<T> {
  await service.ctl.pauseReconciler();
  try {
    return await body();
  } finally {
    await service.ctl.resumeReconciler();
  }
}

describe("customTimeouts", () => {
  it("bounds the readiness wait of a create, readyTimeoutSeconds overriding it", async () => {
    const s = await stackOf(async () => {
      new wws.Pod("a", { image: "nginx:1.26" }, { customTimeouts: { create: "2s" } });
      new wws.Pod("b", { image: "nginx:1.26", readyTimeoutSeconds: 3 }, { customTimeouts: { create: "1h" } });
    });
    const err = await whilePaused(() => s.upError());
    expect(err).toMatch(/pod a was created but did not become ready: timed out after 2 s/);
    expect(err).toMatch(/pod b was created but did not become ready: timed out after 3 s/);
    await s.up(); // both were kept: this waits for them again
  });

  it("bounds the readiness wait of an update", async () => {
    const s = await stackOf(async () => {
      new wws.Pod("a", { image: "nginx:1.26" });
    });
    await s.up();
    s.setProgram(async () => {
      new wws.Pod("a", { image: "nginx:1.27" }, { customTimeouts: { update: "2s" } });
    });
    expect(await whilePaused(() => s.upError())).toMatch(
      /pod a was updated but did not become ready: timed out after 2 s/,
    );
  });

  it("changes a timeout without a request, then bounds the deletion wait, or skips it", async () => {
    const program = (updateTimeout: string) => async () => {
      new wws.Pod("a", { image: "nginx:1.27" }, { customTimeouts: { update: updateTimeout, delete: "2s" } });
      new wws.Pod(
        "b",
        { image: "nginx:1.26", readyTimeoutSeconds: 3, waitForDeletion: false },
        { customTimeouts: { create: "1h" } },
      );
    };
    const s = await stackOf(program("5m"));
    await s.up();
    await service.ctl.resetCounters();
    s.setProgram(program("10m"));
    const up = await s.up();
    expect(up.ops.get("a")).toEqual(["update"]);
    expect((await service.ctl.counters()).requests.mutating).toBe(0);

    let destroyError = "";
    await whilePaused(async () => {
      await s.destroy().catch((e: unknown) => void (destroyError = String(e)));
      expect(destroyError).toMatch(/timed out after 2 s waiting for pod a to be gone/);
      // b's delete returned once accepted: gone from the stack, still being deleted by the service.
      expect(names(await s.resources())).toEqual(["a"]);
      expect((await s.client.getStatus("b")).phase).toBe("Deleting");
    });
    await s.destroy();
    await until("b deleted", async () =>
      s.client.getStatus("b").then(
        () => false,
        () => true,
      ),
    );
  });
});
