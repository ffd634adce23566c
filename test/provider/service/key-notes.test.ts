import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceConnection } from "../../../sdk";
import { KeyNotes, keyFingerprint } from "../../../provider/dynamic/service/recorded-settings";
import { recordedConfigCommandOf } from "../../../provider/dynamic/engine/host";
import { ROOT } from "../../support/build";

const KEY = "wws-key-0123456789abcdef";
const conn = (apiKey = KEY, workspace = "demo") => ({
  baseUrl: "http://127.0.0.1:8787",
  workspace,
  connection: workspaceConnection({ baseUrl: "http://127.0.0.1:8787", workspace, apiKey }),
});

describe("keyFingerprint", () => {
  it("should be the first 8 hex digits of the key's SHA-256, as sha256sum | cut -c1-8 gives them, never the key", () => {
    const expected = createHash("sha256").update(KEY).digest("hex").slice(0, 8);
    expect(keyFingerprint(KEY)).toBe(`sha256:${expected}`);
    expect(keyFingerprint(KEY)).not.toContain(KEY.slice(0, 6));
  });
});

describe("KeyNotes", () => {
  it("should say each key a destroy uses once, naming its source and fingerprint, and never the key", () => {
    const notes = new KeyNotes("destroy");
    const first = notes.noteFor({ from: { apiKey: "config" } }, conn());
    expect(first).toBe(
      `this destroy uses the API key ${keyFingerprint(KEY)} (the stack config wws:apiKey as recorded at the last \`pulumi up\`: ` +
        "this command does not read the config as it is now) for workspace demo at http://127.0.0.1:8787; " +
        'compare with your key\'s fingerprint: printf %s "$KEY" | sha256sum | cut -c1-8. ' +
        "To use the config's current key, run `pulumi up` first (a change of connection settings alone sends nothing)",
    );
    expect(notes.noteFor({ from: { apiKey: "config" } }, conn())).toBeUndefined();
    // Another key (a resource's own argument) is another line, once too.
    const other = notes.noteFor({ from: { apiKey: "args" } }, conn("another-key-of-demo"));
    expect(other).toContain(`uses the API key ${keyFingerprint("another-key-of-demo")} (the \`apiKey\` argument`);
    expect(notes.noteFor({ from: { apiKey: "args" } }, conn("another-key-of-demo"))).toBeUndefined();
    for (const n of [first, other]) expect(n).not.toContain(KEY);
  });

  it("should say nothing outside a destroy or a refresh", () => {
    expect(new KeyNotes(undefined).noteFor({ from: { apiKey: "config" } }, conn())).toBeUndefined();
  });
});

describe("recordedConfigCommandOf", () => {
  it.each([
    [["pulumi", "destroy", "--yes", "--skip-preview"], "destroy"],
    [["pulumi", "refresh", "--yes"], "refresh"],
    [["pulumi", "--cwd", "infra", "-s", "dev", "refresh"], "refresh"],
    [["pulumi", "refresh", "--run-program"], undefined],
    [["pulumi", "up", "--refresh"], undefined],
    [["pulumi", "preview", "-r", "--stack", "destroy"], undefined],
    [[], undefined],
  ])("should read %j as %s", (argv, command) => {
    expect(recordedConfigCommandOf(argv)).toBe(command);
  });
});

describe("the provider process", () => {
  it("should spawn no process: no file of provider/ imports child_process", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
      );
    const spawning = files(join(ROOT, "provider")).filter((f) => /child_process/.test(readFileSync(f, "utf8")));
    expect(spawning).toEqual([]);
  });
});
