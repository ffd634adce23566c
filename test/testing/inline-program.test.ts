/**
 * `pulumi-wws/testing` with an inline program (examples/testing, run by test/package/packed.test.ts,
 * covers a project directory): the CLI's provider process must find `pulumi-wws` from the temp
 * project the helper makes.
 */
import * as fs from "node:fs";
import * as wws from "../../index";
import { createTestStack, startLocalService, type LocalService } from "../../testing";
import { ensureBuilt, pulumiCommand } from "../e2e/harness";

jest.setTimeout(120_000);

let service: LocalService;

beforeAll(async () => {
  ensureBuilt();
  service = await startLocalService({ workspace: "inline" });
});

afterAll(() => service?.close());

it("should run an inline program against the local service and clean up after itself", async () => {
  const s = await createTestStack({
    service,
    program: async () => {
      const pod = new wws.Pod("web", { image: "nginx:1.27" });
      return { phase: pod.phase };
    },
    pulumiCommand: await pulumiCommand(),
  });
  const up = await s.stack.up();
  expect(up.outputs.phase.value).toBe("Running");
  expect((await service.client.getSpec()).workloads.map((w) => w.id)).toEqual(["web"]);
  const backend = s.backendDir;
  await s.close();
  expect((await service.client.getSpec()).workloads).toEqual([]);
  expect(fs.existsSync(backend)).toBe(false);
});
