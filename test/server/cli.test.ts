import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { UsageError } from "../../command-line";
import { parseCliArgs } from "../../server/cli-args";

const ROOT = join(__dirname, "../..");

/**
 * Runs server/cli.ts from source (compiled on require by @swc/core), so the test never runs a
 * stale dist/ and needs no build step; `npm run service` runs the same file compiled by tsc.
 */
const BOOT = `
const swc = require("@swc/core");
const fs = require("fs");
require.extensions[".ts"] = (m, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, "utf8"), {
    filename, jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" },
  });
  m._compile(code, filename);
};
process.argv.splice(1, 0, "server/cli.ts");
require("./server/cli.ts");
`;

function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["-e", BOOT, "--", ...args], { cwd: ROOT });
}

function outputs(child: ChildProcessWithoutNullStreams): {
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { stdout: () => out, stderr: () => err, exit };
}

async function lineMatching(get: () => string, re: RegExp, exit: Promise<unknown>): Promise<RegExpMatchArray> {
  let exited = false;
  void exit.then(() => (exited = true));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = get().match(re);
    if (m) return m;
    if (exited || Date.now() > deadline) throw new Error(`no line matching ${re}; output: ${get()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("cli", () => {
  it("should print the listening line with the demo key, serve, and exit 0 on SIGTERM", async () => {
    const child = runCli(["--port", "0", "--reconcile-ms", "10"]);
    const io = outputs(child);
    const m = await lineMatching(io.stdout, /listening on (http:\/\/127\.0\.0\.1:(\d+)).*demo-key/, io.exit);
    expect(Number(m[2])).toBeGreaterThan(0);
    const health = await fetch(`${m[1]}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    await lineMatching(io.stdout, /GET \/healthz 200/, io.exit);
    child.kill("SIGTERM");
    expect(await io.exit).toBe(0);
  });

  it("should exit 2 naming an invalid option", async () => {
    for (const [args, named] of [
      [["--bogus"], "--bogus"],
      [["--port", "x"], "--port"],
      [["--ring-size", "0"], "--ring-size"],
      [["--key", "Bad_Name=k"], "--key"],
      [["--profile", "hosted"], "--profile: must be one of full, spec"],
    ] as const) {
      const io = outputs(runCli([...args]));
      expect(await io.exit).toBe(2);
      expect(io.stderr()).toContain(named);
    }
  });
});

describe("parseCliArgs", () => {
  it("should read every option, in both --flag value and --flag=value forms", () => {
    const args = parseCliArgs([
      "--host",
      "0.0.0.0",
      "--port=9000",
      "--key",
      "a=ka",
      "--key=b=kb=x",
      "--ring-size",
      "5",
      "--heartbeat-ms",
      "6",
      "--stream-max-ms",
      "7",
      "--reconcile-ms",
      "0",
      "--workload-domain",
      "w.test",
      "--data-dir",
      "/tmp/d",
      "--control-token",
      "t",
      "--quiet",
      "--profile",
      "spec",
      "--transitions=in-place",
      "--in-place-delay-ms",
      "300",
    ]);
    expect(args).toEqual({
      quiet: true,
      help: false,
      options: {
        host: "0.0.0.0",
        port: 9000,
        keys: { a: "ka", b: "kb=x" },
        ringSize: 5,
        heartbeatMs: 6,
        streamMaxMs: 7,
        reconcileMs: 0,
        workloadDomain: "w.test",
        dataDir: "/tmp/d",
        controlToken: "t",
        profile: "spec",
        transitions: "in-place",
        inPlaceDelayMs: 300,
      },
    });
  });

  it.each([
    [["--nope"], /unknown option --nope/],
    [["--port"], /--port: missing value/],
    [["--port", "-1"], /--port/],
    [["--key", "nokey"], /--key: expected WORKSPACE=KEY/],
    [["--quiet=yes"], /--quiet: takes no value/],
  ])("should reject %j", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
