import { replaceTargets, replaceTargetsOf } from "../../../provider/dynamic/engine/replace-targets";
import { replaceTargetFailure, replacementOptionsFailure } from "../../../provider/dynamic/workloads/data-loss";
import { deletedWithWarning, replacementOptions } from "../../../provider/resources/replacement-options";
import type * as pulumi from "@pulumi/pulumi";

const POD = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/wws:Pod::web";
const DB = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/wws:Database::db";
const database = { type: "storage", workloadId: "db", workspace: "team" };

describe("replace targets of the command line", () => {
  it("should read --replace and --target-replace in both forms, and nothing after --", () => {
    const argv = ["pulumi", "up", "--yes", "--replace", POD, `--target-replace=${DB}`, "--", "--replace", "x"];
    expect(replaceTargetsOf(argv)).toEqual([POD, DB]);
    expect(replaceTargetsOf(["pulumi", "up", "--target", POD])).toEqual([]);
  });

  it("should match globs as the engine does: * within a URN part, ** across parts", () => {
    expect(replaceTargets([POD]).has(POD)).toBe(true);
    expect(replaceTargets([POD]).has(DB)).toBe(false);
    expect(replaceTargets(["urn:pulumi:dev::app::pulumi-nodejs:dynamic/wws:Pod::*"]).has(POD)).toBe(true);
    expect(replaceTargets(["urn:pulumi:dev::app::*::web"]).has(POD)).toBe(false); // the type holds a ':'
    expect(replaceTargets(["urn:pulumi:dev::app::**::web"]).has(POD)).toBe(true);
  });
});

describe("replacement options of a workload class", () => {
  it("should delete before replacing unless the user said otherwise", () => {
    expect(replacementOptions(undefined, ["type"]).deleteBeforeReplace).toBe(true);
    expect(replacementOptions({ deleteBeforeReplace: false }, ["type"]).deleteBeforeReplace).toBe(false);
  });

  it("should name the options that replace without diff, leaving out the class's own keys", () => {
    expect(replacementOptions({ replaceOnChanges: ["type"] }, ["type"]).replacedBy).toBeUndefined();
    const opts = { replaceOnChanges: ["type", "cpu"], replacementTrigger: 0, replaceWith: [{} as pulumi.Resource] };
    expect(replacementOptions(opts, ["type"]).replacedBy).toEqual([
      "replaceOnChanges (cpu)",
      "replacementTrigger",
      "replaceWith",
    ]);
  });

  it("should warn of a deletedWith that points at a resource of this package only", () => {
    const ours = { __pulumiType: "pulumi-nodejs:dynamic/wws:Pod", __name: "web" } as unknown as pulumi.Resource;
    const theirs = { __pulumiType: "kubernetes:core/v1:Namespace", __name: "ns" } as unknown as pulumi.Resource;
    expect(deletedWithWarning(`Pod "side"`, { deletedWith: ours })).toMatch(
      /^Pod "side": deletedWith points at Pod "web", but the service deletes nothing along with another resource/,
    );
    expect(deletedWithWarning(`Pod "side"`, { deletedWith: theirs })).toBeUndefined();
    expect(deletedWithWarning(`Pod "side"`, {})).toBeUndefined();
  });
});

describe("database replacements check refuses", () => {
  it("should refuse replacing options on a database without allowDataLoss, naming the fix", () => {
    const failure = replacementOptionsFailure(database, ["replaceOnChanges (cpu)", "replacementTrigger"]);
    expect(failure?.reason).toMatch(
      /^database db in workspace team: the resource options replaceOnChanges \(cpu\) and replacementTrigger can replace it, .*No change was sent\.\n.*set `allowDataLoss: true` on the resource$/,
    );
    expect(replacementOptionsFailure({ ...database, allowDataLoss: true }, ["replacementTrigger"])).toBeUndefined();
    expect(replacementOptionsFailure({ ...database, type: "pod" }, ["replacementTrigger"])).toBeUndefined();
  });

  it("should refuse --replace of a database without allowDataLoss", () => {
    expect(replaceTargetFailure(database, DB)?.reason).toMatch(/this command asks to replace it[\s\S]*names urn:/);
    expect(replaceTargetFailure({ ...database, allowDataLoss: true }, DB)).toBeUndefined();
  });
});
