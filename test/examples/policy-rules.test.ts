/**
 * The rules of examples/policy, with no engine and no service: programs run under `WwsMocks`,
 * whose resources' inputs are what a policy is shown (test/e2e/policy-pack.test.ts compares them
 * with what `pulumi preview --policy-pack` shows one), then the pack's policies run over them as
 * `@pulumi/policy`'s analyzer runs them (test/support/policy.ts).
 */
import * as wws from "../../provider";
import { WwsMocks } from "../../testing";
import { policies } from "../../examples/policy/policies";
import { analyze, type Violation } from "../support/policy";

const login = { password: "rules-Pass-1" };

/** The violations the pack reports of what `program` declares, by resource name (registrations may finish in any order). */
async function violationsOf(program: () => void): Promise<Violation[]> {
  const mocks = new WwsMocks({ config: { "wws:workspace": "team" } });
  await mocks.install();
  program();
  const resources = await mocks.settled();
  const violations = await analyze(
    policies,
    resources.map((r) => ({ type: r.type, name: r.name, props: r.inputs })),
  );
  return violations.sort((a, b) => a.resource.localeCompare(b.resource));
}

it("should require a cpu limit on every pod, a Workload of kind pod too", async () => {
  const violations = await violationsOf(() => {
    new wws.Pod("bare", { image: "nginx:1.27" });
    new wws.Workload("generic", { kind: "pod", spec: { image: "nginx:1.27" } });
    new wws.Pod("limited", { image: "nginx:1.27", cpu: "500m" });
    new wws.Workload("limited-generic", { kind: "pod", spec: { image: "nginx:1.27", cpu: "1" } });
    new wws.Browser("browser", {});
  });
  expect(violations.map((v) => [v.policy, v.resource])).toEqual([
    ["wws-pod-cpu-limit", "bare"],
    ["wws-pod-cpu-limit", "generic"],
  ]);
  expect(violations[0].message).toBe('Set cpu on the pod: millicores such as "500m", or whole cores such as "2".');
});

it("should require tls: true on every database, a Workload of kind storage too", async () => {
  const violations = await violationsOf(() => {
    new wws.Database("plain", { engine: "postgres", credentials: login });
    new wws.Database("off", { engine: "redis", tls: false, credentials: login });
    new wws.Workload("generic", { kind: "storage", spec: { engine: "postgres" }, credentials: login });
    new wws.Database("safe", { engine: "postgres", tls: true, credentials: login });
    new wws.VirtualMachine("vm", { os: "ubuntu", credentials: login });
  });
  expect(violations.map((v) => [v.policy, v.resource])).toEqual([
    ["wws-database-tls", "generic"],
    ["wws-database-tls", "off"],
    ["wws-database-tls", "plain"],
  ]);
});
