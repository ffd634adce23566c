/**
 * `WwsMocks` answer `get` and the functions, as a team's unit test of a program that reads what
 * another stack manages: from the `live` workloads and templates of the options and from what the
 * program declared, with no service; a missing id fails as `pulumi preview` does.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "../../provider";
import { WwsMocks } from "../../testing";

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

const live = {
  workloads: [{ workloadId: "db", type: "storage", spec: { engine: "postgres", network: { exposed: true } } }],
  templates: [
    {
      id: "tpl_1",
      name: "base",
      kind: "pod",
      config: { pod: { image: "nginx:1.27" } },
      createdAt: "2026-01-01T00:00:00Z",
    },
    { id: "tpl_2", name: "twin", kind: "pod", config: {}, createdAt: "2026-01-01T00:00:00Z" },
    { id: "tpl_3", name: "twin", kind: "pod", config: {}, createdAt: "2026-01-01T00:00:00Z" },
  ],
};

describe("WwsMocks answer get and the functions", () => {
  it("reads a live database with get, and every function answers from the mocks", async () => {
    const mocks = new WwsMocks({ config: { "wws:workspace": "team" }, live });
    await mocks.install();
    new wws.Pod("web", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
    const db = wws.Database.get("shared", "team/db");
    const tpl = wws.Template.get("shared-tpl", "team/tpl_1");
    const read = (await mocks.settled()).find((r) => r.name === "shared");
    expect(read?.outputs).toMatchObject({ workloadId: "db", type: "storage", phase: "Running", engine: "postgres" });
    expect(await valueOf(db.endpoint)).toBe("db.team.workloads.localhost:5432");
    expect(await valueOf(db.engine)).toBe("postgres"); // the live spec field, typed
    expect(await valueOf(tpl.name)).toBe("base");

    expect((await wws.getWorkload({ workloadId: "web" })).status.endpoint).toBe("web.team.workloads.localhost:80");
    expect((await valueOf(wws.listWorkloadsOutput({ kind: "storage" }))).map((w) => w.workloadId)).toEqual(["db"]);
    expect((await wws.listWorkloads()).map((w) => w.workloadId).sort()).toEqual(["db", "web"]);
    expect((await wws.getTemplate({ name: "base" })).id).toBe("tpl_1");
    await expect(wws.getTemplate({ name: "twin" })).rejects.toThrow(
      'getTemplate: workspace team has 2 templates named "twin": tpl_2, tpl_3; ask for one by templateId',
    );
    expect((await wws.listTemplates()).map((t) => t.id)).toEqual(["tpl_1", "tpl_2", "tpl_3"]);
    expect((await wws.getWorkloadStatus({ workloadId: "db" })).phase).toBe("Running");
    expect((await wws.getFleetHosts()).regions.map((r) => r.name)).toEqual(["eu-central", "us-east"]);
  });

  // (`Pod.get`'s own `source` is secret by `additionalSecretOutputs`, which the engine applies and
  // mocks do not: test/e2e/reads.test.ts proves it through the CLI.)
  it("keeps a pod's source secret where it sits in every lookup's result, in both forms", async () => {
    const repo = "https://x-access-token:tok-1@git.example/app.git";
    const pod = { workloadId: "built", type: "pod", spec: { source: { repo } } };
    const tplLive = {
      id: "tpl_9",
      name: "src",
      kind: "pod",
      config: { pod: { source: { repo } } },
      createdAt: "2026-01-01T00:00:00Z",
    };
    const mocks = new WwsMocks({
      config: { "wws:workspace": "team" },
      live: { workloads: [pod], templates: [tplLive] },
    });
    await mocks.install();
    const secretValue = async (o: unknown): Promise<[boolean, unknown]> => {
      const out = o as pulumi.Output<unknown>;
      return [await pulumi.isSecret(out), await valueOf(out)];
    };
    expect(await secretValue((await wws.getWorkload({ workloadId: "built" })).spec.source)).toEqual([true, { repo }]);
    const [listed] = await valueOf(wws.listWorkloadsOutput({ kind: "pod" }));
    expect(await secretValue(listed.spec.source)).toEqual([true, { repo }]);
    const tpl = await wws.getTemplate({ templateId: "tpl_9" });
    expect(await secretValue((tpl.config.pod as Record<string, unknown>).source)).toEqual([true, { repo }]);
  });

  it("fails a get of a missing id as preview does, naming the workspace and the id", async () => {
    const mocks = new WwsMocks({ config: { "wws:workspace": "team" } });
    await mocks.install();
    wws.Pod.get("ghost", "team/ghost");
    await expect(mocks.settled()).rejects.toThrow("get: workspace team has no workload ghost (id team/ghost)");
  });
});
