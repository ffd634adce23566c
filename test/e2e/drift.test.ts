/**
 * The drift gate CI runs on a schedule, through the real CLI: `pulumi preview --refresh
 * --expect-no-changes` exits non-zero when something changed outside Pulumi, and so does
 * `pulumi refresh --preview-only --expect-no-changes`; both name what drifted. One stack per
 * kind of drift: a spec edited, a workload restarted, a template deleted.
 */
import { serviceForFile, until } from "./harness";
import { deployedCliStack, programOf, type CliRun, type CliStack } from "./cli-json";

jest.setTimeout(240_000);

const PROGRAM = programOf([
  { cls: "Pod", name: "web", args: { image: "nginx:1.27", memory: "512Mi" } },
  { cls: "Template", name: "tpl", args: { name: "web", kind: "pod", config: { pod: { image: "nginx" } } } },
]);

const service = serviceForFile();
let s: CliStack;

beforeAll(async () => {
  s = service.keep(await deployedCliStack(service, "wws-drift", PROGRAM));
});

/** What the CLI exits with when `--expect-no-changes` saw changes (ExitNoChanges, cmd/pulumi/cmd/exit_codes.go). */
const EXIT_CHANGES = 7;
const client = () => service.client(s.ws.name);
const gate = (): Promise<CliRun> => s.cli(["preview", "--refresh", "--expect-no-changes", "--diff"]);
const refreshPreview = (): Promise<CliRun> => s.cli(["refresh", "--preview-only", "--expect-no-changes", "--diff"]);

/** The lines of `--diff` output that show a property change (`~ memory: …`, `+ restartsOutsidePulumi: 1`). */
const changedProps = (r: CliRun): string[] =>
  [...new Set([...r.stdout.matchAll(/^\s*([~+-]) ([A-Za-z]+)\s*:/gm)].map((m) => `${m[1]} ${m[2]}`))].sort();

describe("drift gate: preview --refresh --expect-no-changes and refresh --preview-only", () => {
  it("passes when nothing changed outside Pulumi", async () => {
    const r = await gate();
    expect({ code: r.code, out: r.stdout }).toMatchObject({ code: 0 });
  });

  it("fails on a spec edited outside Pulumi, naming the field", async () => {
    await client().upsertWorkload("pod", { id: "web", image: "nginx:1.27", memory: "1Gi" });
    const [g, p] = [await gate(), await refreshPreview()];
    expect([g.code, p.code]).toEqual([EXIT_CHANGES, EXIT_CHANGES]);
    // The refresh shows what runs; the plan after it, what `pulumi up` would set back.
    expect(g.stdout).toMatch(/~ memory\s*: "1Gi" => "512Mi"/);
    expect(p.stdout).toMatch(/~ memory\s*: "512Mi" => "1Gi"/);
    expect(changedProps(p)).toEqual(["~ memory"]);
    // Put back as declared: only the generation moves, which is no drift.
    await client().upsertWorkload("pod", { id: "web", image: "nginx:1.27", memory: "512Mi" });
    await until("web at its new generation", async () => (await client().getStatus("web")).observedGeneration === 3);
  });

  it("fails on a workload restarted outside Pulumi, naming the restarts; pulumi up acknowledges them without a request", async () => {
    await client().restartWorkload("web");
    await until("web restarted", async () => (await client().getStatus("web")).restartCount === 1);
    const [g, p] = [await gate(), await refreshPreview()];
    expect([g.code, p.code]).toEqual([EXIT_CHANGES, EXIT_CHANGES]);
    expect(changedProps(p)).toEqual(["+ restartsOutsidePulumi"]);
    expect(g.stdout).toMatch(/- restartsOutsidePulumi\s*: 1/);
    await service.ctl.resetCounters();
    const up = await s.cli(["up", "--yes", "--refresh", "--skip-preview"]);
    expect(up.code).toBe(0);
    expect((await service.ctl.counters()).requests.mutating).toBe(0);
    expect((await gate()).code).toBe(0);
  });

  it("fails on a template deleted outside Pulumi, naming it", async () => {
    for (const t of await client().listTemplates()) await client().deleteTemplate(t.id);
    const [g, p] = [await gate(), await refreshPreview()];
    expect([g.code, p.code]).toEqual([EXIT_CHANGES, EXIT_CHANGES]);
    expect(g.stdout).toMatch(/\+ pulumi-nodejs:dynamic\/wws:Template: \(create\)/);
    expect(p.stdout).toMatch(/- pulumi-nodejs:dynamic\/wws:Template: \(delete\)/);
  });
});
