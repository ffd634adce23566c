/**
 * A spec field is declared once, in the SDK's create-body schema: each class's arguments are
 * checked against it by the compiler (this file is typechecked with the suite), and each class
 * sends what the schema names. Adding a field to a kind is one edit to the schema, plus its
 * documented argument in the class's interface, which the compiler then demands.
 */
import { createBodyFields, type WorkloadType } from "../../../sdk";
import type { BrowserArgs, ControllerArgs, DatabaseArgs, PodArgs, VirtualMachineArgs } from "../../../provider";
import { specArgsOf, type SpecArgsMatch } from "../../../provider/resources/spec-args";

// Each class's arguments declare exactly its body's spec fields.
const classesMatchTheirBodies: [
  SpecArgsMatch<PodArgs, "pod">,
  SpecArgsMatch<BrowserArgs, "browser">,
  SpecArgsMatch<ControllerArgs, "controller">,
  SpecArgsMatch<DatabaseArgs, "storage">,
  SpecArgsMatch<VirtualMachineArgs, "vm-ubuntu", "os">,
] = [true, true, true, true, true];

// A body field the class's arguments lack does not compile...
// @ts-expect-error: missingFromArgs: "cpu"
const missing: SpecArgsMatch<Omit<PodArgs, "cpu">, "pod"> = true;
// ...nor does an argument the body does not take.
// @ts-expect-error: notInBody: "gpus"
const extra: SpecArgsMatch<BrowserArgs & { gpus?: number }, "browser"> = true;

describe("one declaration per spec field", () => {
  it("should be checked by the compiler against each class's arguments", () => {
    expect([...classesMatchTheirBodies, missing, extra]).toEqual([true, true, true, true, true, true, true]);
  });

  it("should send exactly the schema's spec fields of each type, from the arguments", () => {
    const types: WorkloadType[] = ["pod", "browser", "controller", "storage", "vm-ubuntu"];
    for (const type of types) {
      const fields = createBodyFields(type).filter((k) => k !== "credentials");
      const args = Object.fromEntries([...fields, "credentials", "workspace", "notAField"].map((k) => [k, `${k}!`]));
      expect(specArgsOf(type, args)).toEqual(Object.fromEntries(fields.map((k) => [k, `${k}!`])));
    }
  });
});
