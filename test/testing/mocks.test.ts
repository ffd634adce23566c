/**
 * `WwsMocks` of `pulumi-wws/testing`: a team's unit test of its program, with no service and no
 * CLI. Bad programs fail with the very text `pulumi preview` 3.259 printed for them (captured from
 * the CLI with project `mockcmp` and stack `dev`; test/e2e/mocks-preview.test.ts compares the two
 * live), each in well under a second; a good one gets the outputs of a running workload.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "../../provider";
import { WwsMocks, type MockedResource } from "../../testing";

const POD = "pulumi-nodejs:dynamic/wws:Pod";
const DB = "pulumi-nodejs:dynamic/wws:Database";
const PASSWORD = "first-Pass-1";
/** Each case, the mocks' install to `settled()`, stays below this (the issue's bound). */
const BOUND_MS = 1000;
const timings: string[] = [];

afterAll(() => console.log(`WwsMocks, install to settled:\n${timings.join("\n")}`));

// The file's first program also loads and compiles what every later one reuses (the schemas,
// @pulumi/pulumi's resource machinery): timed apart, once, and not held to the bound.
beforeAll(async () => {
  const started = performance.now();
  const mocks = new WwsMocks({ config: { "wws:workspace": "team" } });
  await mocks.install();
  new wws.Pod("warm-up", { image: "nginx:1.27" });
  await mocks.settled();
  timings.push(`  (first program of the file, warm-up: ${(performance.now() - started).toFixed(1)} ms)`);
});

/** Runs `program` under fresh mocks (or `mocks`) as a stack `dev` of project `mockcmp` would; returns the outcome and its time. */
async function run(
  title: string,
  program: () => void,
  mocks = new WwsMocks({ project: "mockcmp", stack: "dev", config: { "wws:workspace": "team" } }),
): Promise<{ resources?: MockedResource[]; error?: string }> {
  const started = performance.now();
  let outcome: { resources?: MockedResource[]; error?: string };
  try {
    await mocks.install();
    program();
    outcome = { resources: await mocks.settled() };
  } catch (err) {
    outcome = { error: (err as Error).message };
  }
  const ms = performance.now() - started;
  timings.push(`  ${title}: ${ms.toFixed(1)} ms`);
  expect(ms).toBeLessThan(BOUND_MS);
  return outcome;
}

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

describe("a bad program", () => {
  it.each([
    [
      "a pod with no image",
      () => new wws.Pod("web", {}),
      `${POD} resource 'web': property image value {<nil>} has a problem: set image or source.repo: a pod needs something to run`,
    ],
    [
      "a database of engine mysql",
      () => new wws.Database("db", { engine: "mysql" as "postgres", credentials: { password: PASSWORD } }),
      `${DB} resource 'db': property engine value {mysql} has a problem: must be one of postgres, redis; got "mysql"`,
    ],
    [
      'a pod with cpu "lots"',
      () => new wws.Pod("web", { image: "nginx:1.27", cpu: "lots" }),
      `${POD} resource 'web': property cpu value {lots} has a problem: must be millicores such as 500m or whole cores such as 2`,
    ],
    [
      "a pod with memroy for memory",
      () => new wws.Pod("web", { image: "nginx:1.27", memroy: "512Mi" } as wws.PodArgs),
      `${POD} resource 'web': property memroy value {512Mi} has a problem: unknown field: did you mean memory? Rename or remove it (the fields are image, command, cpu, memory, ports, source)`,
    ],
    [
      "two pods with one workload id known later",
      () => {
        new wws.Pod("a", { image: "nginx:1.27", workloadId: pulumi.output("web") });
        new wws.Pod("b", { image: "nginx:1.27", workloadId: pulumi.output("web") });
      },
      `${POD} resource 'b': property workloadId value {web} has a problem: workload web of workspace team is also declared by Pod "a" (urn:pulumi:dev::mockcmp::${POD}::a): a workload belongs to one resource, and two would overwrite each other's spec. Give Pod "b" a workloadId of its own, or remove one of the two`,
    ],
    [
      "a database that replaceOnChanges replaces on a cpu change, without allowDataLoss",
      () =>
        new wws.Database(
          "db",
          { engine: "postgres", cpu: "1", credentials: { password: PASSWORD } },
          { replaceOnChanges: ["cpu"] },
        ),
      `${DB} resource 'db' has a problem: database db in workspace team: the resource option replaceOnChanges (cpu) can replace it, ` +
        "and a replacement deletes the database with all its data and creates a new, empty one. No change was sent.\n" +
        "The engine replaces on this option without asking this provider. To keep the database, remove the option " +
        "(a changed field is then updated in place); to let it replace it, set `allowDataLoss: true` on the resource",
    ],
  ])("should fail %s with pulumi preview's message", async (title, program, message) => {
    expect(await run(title, program)).toEqual({ error: message });
  });

  it("should print a secret input and a large number as preview prints them, every failure a line", async () => {
    const outcome = await run("a secret cpu and cpus for cpu", () => {
      new wws.Pod("web", { image: "nginx", cpu: pulumi.secret("lots"), cpus: 1500000 } as wws.PodArgs);
    });
    expect(outcome.error?.split("\n")).toEqual([
      `${POD} resource 'web': property cpu value {&{{lots}}} has a problem: must be millicores such as 500m or whole cores such as 2`,
      `${POD} resource 'web': property cpus value {1.5e+06} has a problem: unknown field: did you mean cpu? Rename or remove it (the fields are image, command, cpu, memory, ports, source)`,
    ]);
  });

  it("should fail two pods with one plain workload id as the program runs, as preview does", async () => {
    const outcome = await run("two pods with one plain workload id", () => {
      new wws.Pod("a", { image: "nginx:1.27", workloadId: "web" });
      new wws.Pod("b", { image: "nginx:1.27", workloadId: "web" });
    });
    expect(outcome).toEqual({
      error: `Pod "b": workload web of the stack's workspace is also declared by Pod "a": a workload belongs to one resource, and two would overwrite each other's spec. Give Pod "b" a workloadId of its own, or remove one of the two`,
    });
  });

  it("should refuse, on a second run, a change that would replace a database, unless allowDataLoss", async () => {
    const mocks = new WwsMocks({ project: "mockcmp", stack: "dev", config: { "wws:workspace": "team" } });
    const db = (password: string, allowDataLoss?: boolean) => () =>
      new wws.Database("db", { engine: "postgres", credentials: { password }, allowDataLoss });
    expect((await run("a database", db(PASSWORD), mocks)).error).toBeUndefined();
    expect(await run("its password changed", db("second-Pass-2"), mocks)).toEqual({
      error:
        "database db in workspace team: credentials changed, but the service sets a database's login once and cannot change it. " +
        "Applying this would replace the database: delete it with all its data and create a new, empty one. Nothing was changed. " +
        "To keep the database, put back the password (and username) it was created with; to replace it and lose its data, set `allowDataLoss: true` on the resource",
    });
    expect((await run("the same password", db(PASSWORD), mocks)).error).toBeUndefined();
    expect((await run("allowDataLoss: true", db("second-Pass-2", true), mocks)).error).toBeUndefined();
  });
});

describe("templates and other resources", () => {
  it("should check a template as its provider does, and save a good one", async () => {
    const bad = await run("a template holding a password", () => {
      new wws.Template("tpl", {
        name: "t",
        kind: "vm-ubuntu",
        config: { vm: { credentials: { password: PASSWORD } } },
      });
    });
    expect(bad.error).toMatch(
      /^pulumi-nodejs:dynamic\/wws:Template resource 'tpl' has a problem: config\.vm\.credentials\.password \(set; not shown, it may be secret\): a template cannot hold a password/,
    );
    const good = await run(
      "a template",
      () => new wws.Template("tpl", { name: "t", kind: "browser", config: { browser: {} } }),
    );
    expect(good.resources?.[0].outputs).toMatchObject({
      templateId: expect.stringMatching(/^tpl_[0-9a-f]{16}$/),
      workspace: "team",
    });
  });

  it("should hand the program's other resources to the mocks given as others", async () => {
    const others: pulumi.runtime.Mocks = {
      newResource: (args) => ({ id: "bucket-1", state: { ...args.inputs, arn: "arn:bucket" } }),
      call: (args) => args.inputs,
    };
    class Bucket extends pulumi.CustomResource {
      declare readonly arn: pulumi.Output<string>;
      constructor(name: string) {
        super("aws:s3/bucket:Bucket", name, { arn: undefined });
      }
    }
    let bucket: Bucket | undefined;
    const mocks = new WwsMocks({ config: { "wws:workspace": "team" }, others });
    const outcome = await run(
      "a bucket beside a pod",
      () => {
        bucket = new Bucket("b");
        new wws.Pod("web", { image: "nginx:1.27" });
      },
      mocks,
    );
    expect(outcome.resources?.map((r) => r.name)).toEqual(["web"]);
    expect(await valueOf(bucket!.arn)).toBe("arn:bucket");
  });
});

describe("a good program", () => {
  let web: wws.Pod;
  let db: wws.Database;
  let resources: MockedResource[];

  beforeAll(async () => {
    const outcome = await run("a pod and a database", () => {
      const ws = new wws.Workspace("team", {});
      web = new wws.Pod("web", {
        workspace: ws,
        image: "nginx:1.27",
        cpu: "500m",
        ports: [{ name: "http", port: 80 }],
      });
      db = new wws.Database("db", {
        workspace: ws,
        engine: "postgres",
        tls: true,
        network: { exposed: true },
        adminConsole: true,
        credentials: { password: pulumi.secret(PASSWORD) },
      });
    });
    expect(outcome.error).toBeUndefined();
    resources = outcome.resources ?? [];
  });

  it("should give the outputs of running workloads", async () => {
    // Sorted: registrations reach the mocks in any order (the database waits for its password's digest).
    expect(resources.map((r) => [r.type, r.name, r.id]).sort()).toEqual([
      [DB, "db", "team/db"],
      [POD, "web", "team/web"],
    ]);
    expect(await valueOf(web.phase)).toBe("Running");
    expect(await valueOf(web.endpoint)).toBe("web.team.workloads.localhost:80");
    expect(await valueOf(web.generation)).toBe(1);
    expect(await valueOf(db.connectionUri)).toBe(
      "postgresql://app@db.team.workloads.localhost:5432/postgres?sslmode=require",
    );
    expect(await valueOf(db.adminUrl)).toBe("https://db-admin-team.workloads.localhost");
  });

  it("should keep the internal inputs and the password out, and the login secret", async () => {
    for (const r of resources) {
      for (const key of ["__provider", "__wws"]) {
        expect([r.name, key, key in r.inputs]).toEqual([r.name, key, false]);
        expect([r.name, key, key in r.outputs]).toEqual([r.name, key, false]);
      }
    }
    const dbInputs = resources.find((r) => r.name === "db")?.inputs;
    expect(dbInputs?.credentials).toEqual({ digest: expect.stringMatching(/^scrypt2:/) });
    expect(JSON.stringify(resources)).not.toContain(PASSWORD);
    const credentials = (db as unknown as { credentials: pulumi.Output<unknown> }).credentials;
    expect(await pulumi.isSecret(credentials)).toBe(true);
  });
});
