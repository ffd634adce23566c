import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import * as sdk from "../../sdk";

const SDK_DIR = join(__dirname, "../../sdk");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("sdk package", () => {
  it("should send the package's version in User-Agent", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(sdk.SDK_VERSION).toBe(pkg.version);
  });

  it("should import neither Pulumi nor the server", () => {
    for (const file of sources(SDK_DIR)) {
      const text = readFileSync(file, "utf8");
      expect([file, /from "@pulumi\//.test(text) || /from "(\.\.\/)+server/.test(text)]).toEqual([file, false]);
    }
  });

  it("should keep every source file under about 300 lines", () => {
    for (const file of sources(SDK_DIR))
      expect([file, readFileSync(file, "utf8").split("\n").length <= 320]).toEqual([file, true]);
  });

  it("should export the client, the errors, the hub, the waiter and the schemas", () => {
    for (const name of [
      "WorkspaceClient",
      "workspaceConnection",
      "WwsError",
      "NotFoundError",
      "ServerError",
      "EventHub",
      "eventHub",
      "waitForWorkload",
      "WorkloadStatus",
      "SavedTemplate",
      "EVENT_PAYLOADS",
      "DEFAULT_CLIENT_OPTIONS",
      "DEFAULT_RETRY",
    ]) {
      expect([name, name in sdk]).toEqual([name, true]);
    }
  });

  it("should keep internals out of the barrel users import", () => {
    const internals = [
      "errorFromResponse",
      "retryAfterOf",
      "shouldRetry",
      "backoffDelay",
      "parseRetryAfter",
      "isTransientFailure",
      "isTransientStatus",
      "systemClock",
      "sleep",
      "EventStream",
      "StatusObserver",
      "WorkloadCondition",
      "issuesToDetails",
      "isWorkspaceConnection",
    ];
    expect(internals.filter((name) => name in sdk)).toEqual([]);
  });
});
