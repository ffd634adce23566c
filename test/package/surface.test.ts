/**
 * What each entry point of package.json "exports" gives a user at run time (README.md, "API").
 * Anything else is internal: a new export here is a promise to keep, so it is added on purpose.
 * The SDK's longer list (errors, schemas) is checked in test/sdk/package.test.ts.
 */
import * as root from "../../index";
import * as provider from "../../provider";
import * as dynamic from "../../provider/dynamic";
import * as server from "../../server";
import * as testing from "../../testing";

const RESOURCES = [
  "Browser",
  "Controller",
  "Database",
  "Pod",
  "Template",
  "VirtualMachine",
  "Workload",
  "WorkloadResource",
  "Workspace",
  "getFleetHosts",
  "getWorkloadStatus",
];

describe("the package's entry points", () => {
  it.each([
    ["pulumi-wws", root, [...RESOURCES, "sdk"]],
    ["pulumi-wws/provider", provider, RESOURCES],
    ["pulumi-wws/provider/dynamic", dynamic, ["template", "workload"]],
    [
      "pulumi-wws/server",
      server,
      ["ControlClient", "DEFAULT_SERVICE_OPTIONS", "OptionError", "PROFILES", "TRANSITIONS", "startService"],
    ],
    ["pulumi-wws/testing", testing, ["createTestStack", "startLocalService"]],
  ])("should export from %s exactly what a user needs", (_entry, mod, names) => {
    expect(Object.keys(mod).sort()).toEqual([...names].sort());
  });
});
