import { parseFlags, UsageError } from "../../command-line";
import { parseImportArgs } from "../../cli/import/args";
import { parseRecoverArgs } from "../../cli/recover/args";
import { parseRehearseArgs } from "../../cli/rehearse/args";
import { parseCliArgs } from "../../server/cli-args";
import { parseWatchArgs } from "../../cli/watch/args";

const ENV = { WWS_API_KEY: "k", WWS_BASE_URL: "http://127.0.0.1:1", WWS_WORKSPACE: "demo" };

describe("parseFlags", () => {
  const FLAGS = {
    stack: { type: "string", short: "s", multiple: true },
    json: { type: "boolean" },
  } as const;

  it.each([
    [["--stack", "dev"], { stack: ["dev"] }],
    [["--stack=dev"], { stack: ["dev"] }],
    [["-s", "dev", "--stack=prod", "--json"], { stack: ["dev", "prod"], json: true }],
    [["--stack=a=b"], { stack: ["a=b"] }],
    [[], {}],
  ])("should read %j", (argv, values) => {
    expect(parseFlags(argv, FLAGS)).toEqual(values);
  });

  it.each([
    [["--nope"], "unknown option --nope"],
    [["stray"], "unknown option stray"],
    [["--stack"], "--stack: missing value"],
    [["--stack="], "--stack: missing value"],
    [["-s"], "-s: missing value"],
    [["--json=yes"], "--json: takes no value"],
  ])("should refuse %j, naming it", (argv, message) => {
    expect(() => parseFlags(argv, FLAGS)).toThrow(UsageError);
    expect(() => parseFlags(argv, FLAGS)).toThrow(message);
  });
});

/** Every flag with a value of every command parsed by `parseFlags`, in both forms: the same result. */
describe("every command line", () => {
  const parsers: Array<[string, (argv: string[]) => unknown, string[], string]> = [
    ["import", (a) => parseImportArgs(["--out", "o", ...a], ENV), ["--workspace", "--base-url", "--project"], "x"],
    ["import --out", (a) => parseImportArgs(a, ENV), ["--out"], "dir"],
    ["recover", parseRecoverArgs, ["--stack"], "dev"],
    ["rehearse", parseRehearseArgs, ["--stack", "--markdown"], "dev"],
    [
      "wws-local",
      parseCliArgs,
      ["--host", "--port", "--ring-size", "--heartbeat-ms", "--reconcile-ms", "--profile", "--transitions"],
      "5",
    ],
    ["wws-local --key", parseCliArgs, ["--key"], "demo=k"],
    ["watch", parseWatchArgs, ["--stack", "--project", "--config", "--status-every", "--resync-every"], "7"],
    ["watch --webhook-retry-for", parseWatchArgs, ["--webhook-retry-for"], "30"],
    ["watch --webhook", parseWatchArgs, ["--webhook"], "https://hooks.example.test/x"],
    ["watch --webhook-format", parseWatchArgs, ["--webhook-format"], "slack"],
    ["watch --listen", parseWatchArgs, ["--listen"], "127.0.0.1:9464"],
  ];
  const cases = parsers.flatMap(([name, parse, flags, value]) =>
    flags.map((flag) => [name, flag, parse, value] as const),
  );

  it.each(cases)("%s should take %s VALUE and its =VALUE form alike", (_name, flag, parse, value) => {
    const spaced = parse([flag, value]);
    expect(parse([`${flag}=${value}`])).toEqual(spaced);
    // The value reached the result (wws-local's `--key demo=k` as the key of workspace demo).
    expect(JSON.stringify(spaced)).toContain(value === "demo=k" ? '"demo":"k"' : value);
  });

  it.each([
    ["import", () => parseImportArgs(["--bogus"], ENV), "unknown option --bogus"],
    ["recover", () => parseRecoverArgs(["--yes=1"]), "--yes: takes no value"],
    ["rehearse", () => parseRehearseArgs(["--markdown"]), "--markdown: missing value"],
    ["wws-local", () => parseCliArgs(["--quiet=yes"]), "--quiet: takes no value"],
  ])("%s should refuse a bad command line with one UsageError", (_name, parse, message) => {
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(message);
  });
});

describe("pulumi-wws watch", () => {
  it("should give each --project the --stacks after it, and the working directory's those before", () => {
    const args = parseWatchArgs(["-s", "dev", "--project", "../a", "--stack=prod", "--project=../b", "--json"]);
    expect(args.stacks).toEqual(["dev"]);
    expect(args.projects).toEqual([
      { dir: "../a", stacks: ["prod"] },
      { dir: "../b", stacks: [] },
    ]);
    expect(args.json).toBe(true);
  });
});
