/**
 * What a user reads when the service refuses the key or cannot be reached, by where the setting
 * came from (a resource argument, the stack config, the environment), at preview (`check`) and at
 * `up`, `refresh` and `destroy` (the methods that call the service); and what preview says of a
 * change of connection settings alone. Against the real local service; the key never appears.
 */
import { createContext, type ManagedContext } from "../../../provider/dynamic/context";
import { createTemplateProvider } from "../../../provider/dynamic/templates/provider";
import { createWorkloadProvider } from "../../../provider/dynamic/workloads/provider";
import type { ProviderImpl } from "../../../provider/dynamic/types";
import { closedPort } from "../../support/ports";
import { OTHER_KEY, STUB, change, startHarness, uid, up, type Harness } from "../harness";

const REVOKED = "revoked-Key-Secret-0b7e55";
const ROTATED = "rotated-Key-Secret-5c21d9";

let h: Harness;
const contexts: ManagedContext[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await h.close();
});

/** A provider whose settings come from `env` and the stack config `config`, its notes in `notes`. */
function providerWith(
  sources: { env?: Record<string, string>; config?: Record<string, string> },
  notes: string[] = [],
): { workload: ProviderImpl; template: ProviderImpl } {
  const config = sources.config;
  const ctx = createContext({
    env: sources.env ?? {},
    config: config && { get: (k) => config[k] },
    progress: { write: (l) => notes.push(l) },
  });
  contexts.push(ctx);
  return { workload: createWorkloadProvider(ctx), template: createTemplateProvider(ctx) };
}

async function checkReasons(provider: ProviderImpl, news: Record<string, unknown>): Promise<string> {
  const { failures } = await provider.check({}, { workloadId: uid("m"), type: "browser", ...news });
  return failures.map((f) => f.reason).join("\n");
}

describe("a rejected key or an unreachable URL at preview", () => {
  it("should name the setting the key came from and how to set it there, never the key", async () => {
    const fromArgs = await checkReasons(providerWith({ env: { ...h.env, WWS_API_KEY: "" } }).workload, {
      apiKey: REVOKED,
    });
    expect(fromArgs).toMatch(
      /the API key \(from the `apiKey` argument of the resource or of its Workspace\) is not valid: .*answered 401 .*Set the workspace's key where the program takes that argument from \(a stack config value it reads: `pulumi config set --secret <its name> <key>`\)/,
    );
    expect(fromArgs).not.toMatch(/wws:apiKey|WWS_API_KEY/);

    const fromConfig = await checkReasons(
      providerWith({ env: { WWS_BASE_URL: h.svc.url }, config: { "wws:workspace": "demo", "wws:apiKey": REVOKED } })
        .workload,
      {},
    );
    expect(fromConfig).toMatch(
      /the API key \(from the stack config wws:apiKey\) is not valid: the service at \S+ \(from the environment variable WWS_BASE_URL\) answered 401 .*Set the workspace's key: pulumi config set --secret wws:apiKey <key>$/,
    );

    const fromEnv = await checkReasons(providerWith({ env: { ...h.env, WWS_API_KEY: REVOKED } }).workload, {});
    expect(fromEnv).toMatch(
      /the API key \(from the environment variable WWS_API_KEY\) is not valid: .*Set the workspace's key: export WWS_API_KEY=<key>$/,
    );

    const otherWorkspace = await checkReasons(providerWith({ env: h.env }).workload, { apiKey: OTHER_KEY });
    expect(otherWorkspace).toMatch(
      /the API key \(from the `apiKey` argument of the resource or of its Workspace\) belongs to another workspace than demo \(from the environment variable WWS_WORKSPACE\): .*answered 403/,
    );
    for (const text of [fromArgs, fromConfig, fromEnv, otherWorkspace])
      for (const key of [REVOKED, OTHER_KEY]) expect(text).not.toContain(key);
  });

  it("should name the argument an unreachable loopback URL came from, in a second, its advice once and without https", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const said = await checkReasons(providerWith({ env: h.env }).workload, { baseUrl: url });
    const tookMs = Date.now() - started;
    expect(said).toMatch(
      new RegExp(
        `^baseUrl: cannot reach the service at ${url.replace(/\./g, "\\.")} \\(from the \`baseUrl\` argument of the resource or of its Workspace\\): ` +
          `could not reach the service \\((?:Error: )?connect ECONNREFUSED [^)]*\\)\\. Nothing was sent; check that the service runs on this machine at that port \\(\`npx wws-local --port ${port}\`\\), ` +
          `or point the base URL at where it runs\\. Set the base URL where the program takes that argument from \\(a stack config value it reads: \`pulumi config set <its name> http://127\\.0\\.0\\.1:<port>\`\\)$`,
      ),
    );
    // Nothing listens on a port of this machine: the kernel said so; no retrying for seconds.
    expect(tookMs).toBeLessThan(4000);
    expect(said.match(/check/gi)).toHaveLength(1);
    expect(said).not.toMatch(/https|Check the base URL/);
    expect(said).not.toContain("..");
    expect(said).not.toMatch(/wws:baseUrl|WWS_BASE_URL/);
  });
});

describe("a key revoked after up", () => {
  it("should say at refresh and destroy where the key in use came from", async () => {
    // Workspace `other`, its key rotated: the old one is revoked.
    const env = { ...h.env, WWS_WORKSPACE: "other", WWS_API_KEY: OTHER_KEY };
    const { workload } = providerWith({ env });
    const argsKey = await up(workload, { workloadId: uid("a"), type: "browser", apiKey: OTHER_KEY });
    const envKey = await up(workload, { workloadId: uid("e"), type: "browser" });
    await h.ctl.rotateKey("other", ROTATED);
    try {
      const refresh = await workload.read!(argsKey.id, { ...argsKey.outs, __provider: STUB }).catch((e: Error) => e);
      expect(String(refresh)).toMatch(
        /HTTP 401 .*The API key in use comes from the `apiKey` argument of the resource or of its Workspace\. Set a valid API key where the program takes that argument from \(a stack config value it reads: `pulumi config set --secret <its name> <key>`\); a refresh or destroy uses the value the last `pulumi up` recorded, so run `pulumi up` first \(a change of connection settings alone sends nothing\)\.$/,
      );
      const destroy = await workload.delete!(envKey.id, envKey.outs).catch((e: Error) => e);
      expect(String(destroy)).toMatch(
        /HTTP 401 .*The API key in use comes from the environment variable WWS_API_KEY\. Set a valid API key: export WWS_API_KEY=<key>\.$/,
      );
      for (const e of [refresh, destroy]) expect(String(e)).not.toContain(OTHER_KEY);
    } finally {
      await h.ctl.rotateKey("other", OTHER_KEY);
    }
    await workload.delete!(argsKey.id, argsKey.outs);
    await workload.delete!(envKey.id, envKey.outs);
  });
});

describe("a change of connection settings alone", () => {
  it("should say at preview that the update sends nothing, and send nothing", async () => {
    const notes: string[] = [];
    const { workload, template } = providerWith({ env: h.env }, notes);
    const pod = await up(workload, { workloadId: uid("r"), type: "pod", image: "nginx:1.27" });
    const tpl = await template.create({ name: uid("t"), kind: "pod", config: { pod: { image: "nginx" } } });
    await h.ctl.resetCounters();
    notes.length = 0; // the create's progress

    const rotated = { workloadId: pod.outs.workloadId, type: "pod", image: "nginx:1.27", apiKey: h.env.WWS_API_KEY };
    const { diff } = await change(workload, pod.id, pod.outs, rotated);
    expect(diff.changes).not.toBe(false); // undefined: the engine diffs the inputs itself
    const tplDiff = await template.diff!(tpl.id, tpl.outs, { ...tpl.outs, baseUrl: `${h.svc.url}/` });
    expect(tplDiff.changes).not.toBe(false);
    expect(notes).toEqual([
      `wws: pod ${String(pod.outs.workloadId)}: apiKey changed: \`pulumi up\` records the new value in the state and sends nothing to the service`,
      `wws: template ${String(tpl.outs.name)}: baseUrl changed: \`pulumi up\` records the new value in the state and sends nothing to the service`,
    ]);
    expect((await h.ctl.counters()).requests.mutating).toBe(0);

    // With a spec change beside it, the update sends: no such note.
    notes.length = 0;
    await workload.diff!(pod.id, pod.outs, { ...pod.outs, image: "nginx:1.28", apiKey: "another" });
    expect(notes).toEqual([]);
    await template.delete!(tpl.id, tpl.outs);
    await workload.delete!(pod.id, pod.outs);
  });
});
