import type { RunningService } from "../../server";
import { DB, VM, call, start, waitReady, type Answer } from "./helpers";
import { openStream, type StreamReader } from "./sse";

const PASSWORDS = [
  "vm-first-PW-111",
  "vm-second-PW-222",
  "db-only-PW-333",
  "db-wrong-PW-444",
  "tpl-PW-555",
  "bad-PW-666",
  "long-PW-777",
  "array-PW-888",
];

let svc: RunningService;
const logLines: string[] = [];
const answers: Answer[] = [];
let stream: StreamReader;

beforeAll(async () => {
  svc = await start({ log: (line) => logLines.push(line) });
  stream = await openStream(svc);
});
afterAll(async () => {
  stream.close();
  await svc.close();
});

async function record(...args: Parameters<typeof call>): Promise<Answer> {
  const a = await call(...args);
  answers.push(a);
  return a;
}

describe("credentials", () => {
  it("should never appear in any response, event, activity row, spec or log line", async () => {
    const T = "/v1/tenants/demo";
    await record(svc, "POST", `${T}/workloads/vm-ubuntu`, {
      body: VM("vm", { credentials: { username: "u", password: PASSWORDS[0] }, aiDaemon: { enabled: true } }),
    });
    await record(svc, "POST", `${T}/workloads/vm-ubuntu`, {
      body: VM("vm", { credentials: { password: PASSWORDS[1] } }),
    });
    await record(svc, "POST", `${T}/workloads/storage`, {
      body: DB("db", { credentials: { password: PASSWORDS[2] }, adminConsole: true }),
    });
    expect(
      (
        await record(svc, "POST", `${T}/workloads/storage`, {
          body: DB("db", { credentials: { password: PASSWORDS[3] } }),
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await record(svc, "POST", `${T}/templates`, {
          body: {
            name: "t",
            kind: "vm-ubuntu",
            config: { password: PASSWORDS[4], vm: { credentials: { password: PASSWORDS[4] } } },
          },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await record(svc, "POST", `${T}/workloads/storage`, {
          body: DB("db2", { credentials: { password: PASSWORDS[5], pin: 1 } }),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await record(svc, "POST", `${T}/workloads/storage`, {
          body: DB("db3", { credentials: { password: PASSWORDS[6].repeat(200) } }),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await record(svc, "POST", `${T}/workloads/vm-ubuntu`, {
          body: VM("vm", { credentials: { password: [PASSWORDS[7]] } }),
        })
      ).status,
    ).toBe(400);
    await waitReady(svc, "vm");
    await waitReady(svc, "db");
    await record(svc, "POST", `${T}/workloads/db/restart`);
    for (const path of [
      "workloads/vm/status",
      "workloads/db/status",
      "spec",
      "pulse",
      "activity?limit=1000",
      "secrets",
      "templates",
    ]) {
      await record(svc, "GET", `${T}/${path}`);
    }
    await record(svc, "DELETE", `${T}/workloads/db`);
    await stream.until(
      (f) =>
        f.some((x) => x.event === "secret-changed" && x.data?.includes("workloads/db/")) &&
        f.filter((x) => x.event === "secret-changed").length >= 4,
    );

    const everything = [...answers.map((a) => a.text + JSON.stringify([...a.headers])), stream.raw, ...logLines].join(
      "\n",
    );
    for (const pw of PASSWORDS) expect(everything).not.toContain(pw);
    // The secrets list names where credentials are, never what they are.
    const secrets = answers.find((a) => a.json?.secrets)!.json.secrets;
    expect(secrets.every((s: Record<string, unknown>) => Object.keys(s).sort().join() === "path,updatedAt")).toBe(true);
    expect(logLines.length).toBeGreaterThanOrEqual(answers.length);
  });

  it("should log one line per request with method, route pattern, status, ms and request id only", async () => {
    const res = await call(svc, "GET", "/v1/tenants/demo/workloads/vm/status");
    const line = logLines.find((l) => l.includes(res.headers.get("x-request-id")!));
    expect(line).toMatch(/^GET \/v1\/tenants\/:name\/workloads\/:id\/status 200 [0-9.]+ms req_[0-9a-f]+$/);
  });
});
