/**
 * The resource classes as `@pulumi/policy` matches them: by the class's static `__pulumiType`
 * (its helpers attach it to the validation, and the analyzer skips other types by it), else by
 * `isInstance({__pulumiType})`. `workloadTypeOf` reaches a workload whichever class declared it.
 */
import {
  remediateResourceOfType,
  validateRemediateResourceOfType,
  validateResourceOfType,
  validateStackResourcesOfType,
} from "@pulumi/policy";
import * as wws from "../../../provider";
import { analyze } from "../../support/policy";
import { recordResources, settle } from "../mocks";

const CLASSES = {
  VirtualMachine: wws.VirtualMachine,
  Pod: wws.Pod,
  Browser: wws.Browser,
  Controller: wws.Controller,
  Database: wws.Database,
  Workload: wws.Workload,
  Template: wws.Template,
  Workspace: wws.Workspace,
};

const NAMES = {
  VirtualMachine: "vm",
  Pod: "pod",
  Browser: "browser",
  Controller: "controller",
  Database: "db",
  Workload: "generic",
  Template: "tpl",
  Workspace: "ws",
};

it("should give each class the type token its resources register with", async () => {
  const registered = await recordResources();
  const ws = new wws.Workspace("ws", { name: "demo" });
  const login = { password: "pw-Policy-1" };
  const made = {
    VirtualMachine: new wws.VirtualMachine("vm", { workspace: ws, os: "ubuntu", credentials: login }),
    Pod: new wws.Pod("pod", { workspace: ws, image: "nginx" }),
    Browser: new wws.Browser("browser", { workspace: ws }),
    Controller: new wws.Controller("controller", { workspace: ws }),
    Database: new wws.Database("db", { workspace: ws, engine: "postgres", credentials: login }),
    Workload: new wws.Workload("generic", { workspace: ws, kind: "pod", spec: { image: "nginx" } }),
    Template: new wws.Template("tpl", { workspace: ws, name: "t", kind: "browser", config: { browser: {} } }),
    Workspace: ws,
  };
  await settle();
  const typeOf = Object.fromEntries(registered.map((r) => [r.name, r.type]));
  for (const [name, cls] of Object.entries(CLASSES)) {
    const resource = made[name as keyof typeof made];
    expect([name, typeOf[NAMES[name as keyof typeof NAMES]]]).toEqual([name, cls.__pulumiType]);
    // Each class answers for its own resources only.
    for (const [other, otherCls] of Object.entries(CLASSES))
      expect([name, other, otherCls.isInstance(resource)]).toEqual([name, other, other === name]);
  }
  for (const name of ["VirtualMachine", "Pod", "Browser", "Controller", "Database", "Workload"] as const)
    expect(wws.WorkloadResource.isInstance(made[name])).toBe(true);
  expect(wws.WorkloadResource.isInstance(made.Template)).toBe(false);
});

it("should attach the type token to every typed helper of @pulumi/policy", () => {
  const noop = (): void => undefined;
  expect(
    [
      validateResourceOfType(wws.Pod, noop),
      remediateResourceOfType(wws.Database, noop),
      validateRemediateResourceOfType(wws.Template, noop).validateResource,
      validateStackResourcesOfType(wws.VirtualMachine, noop),
    ].map((fn) => (fn as { __pulumiType?: string }).__pulumiType),
  ).toEqual([
    wws.Pod.__pulumiType,
    wws.Database.__pulumiType,
    wws.Template.__pulumiType,
    wws.VirtualMachine.__pulumiType,
  ]);
});

describe("a policy on pods", () => {
  const pod = { type: wws.Pod.__pulumiType, name: "pod", props: { type: "pod", image: "nginx" } };
  const generic = { type: wws.Workload.__pulumiType, name: "generic", props: { type: "pod", image: "nginx" } };
  const db = { type: wws.Database.__pulumiType, name: "db", props: { type: "storage", engine: "postgres" } };
  const other = { type: "aws:s3/bucket:Bucket", name: "bucket", props: { type: "pod" } };

  it("should match Pods by class with validateResourceOfType, and isType/asType", async () => {
    const seen: string[] = [];
    const byClass = {
      name: "by-class",
      description: "",
      validateResource: validateResourceOfType(wws.Pod, (props, args) => {
        seen.push(`${args.name}:${String(args.isType(wws.Pod))}:${String(args.asType(wws.Pod) === props)}`);
      }),
    };
    await analyze([byClass], [pod, generic, db, other]);
    expect(seen).toEqual(["pod:true:true"]);
  });

  it("should reach a Workload of kind pod too with workloadTypeOf", async () => {
    const seen: string[] = [];
    const byServiceType = {
      name: "by-service-type",
      description: "",
      validateResource: (args: { name: string; type: string; props: Record<string, unknown> }) => {
        if (wws.workloadTypeOf(args) === "pod") seen.push(args.name);
      },
    };
    await analyze([byServiceType], [pod, generic, db, other]);
    expect(seen).toEqual(["pod", "generic"]);
  });
});
