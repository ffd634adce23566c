import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ControlClient, type RunningService } from "../../server";
import {
  CONTROL_TOKEN,
  KEYS,
  call,
  openStream,
  start,
  waitFor,
  type Answer,
  type CallOptions,
  type Stream,
} from "./helpers";

/** Every credential of the test: distinctive, and with characters JSON and URLs escape. */
const PW = {
  vmFirst: 'vm-First-"q"-\\b-Pw-1101',
  vmSecond: "vm-Second-Pw-ü-2202",
  vmAfterRestart: "vm-AfterRestart-Pw-3303",
  win: "win-Pw-<tag>&-4404",
  db: "db-Postgres-Pw-5505",
  dbOther: "db-Other-Pw-6606",
  redis: "redis-Pw-7707 spaced",
  tplTop: "tpl-Top-Pw-8808",
  tplSpec: "tpl-Spec-Pw-9909",
  tplCreds: "tpl-Creds-Pw-1010",
  tplDeep: "tpl-Deep-Pw-1111",
  tplArray: "tpl-Array-Pw-1212",
  badExtra: "bad-Extra-Pw-1313",
  badLong: "bad-Long-Pw-1414",
  badArray: "bad-Array-Pw-1515",
  badToken: "bad-Token-Pw-1616",
  badHuge: "bad-Huge-Pw-1717",
  badJson: "bad-Json-Pw-1818",
  badType: "bad-Type-Pw-1919",
};
const SECRETS: Record<string, string> = {
  ...PW,
  alphaKey: KEYS.alpha,
  betaKey: KEYS.beta,
  controlToken: CONTROL_TOKEN,
};

/** The forms a secret could take in a response, a file or a log line. */
function forms(secret: string): string[] {
  return [
    ...new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      Buffer.from(secret).toString("base64"),
    ]),
  ];
}

/** `where: name` for every secret found in `text`, in any of its forms. */
function hits(where: string, text: string, secrets: Record<string, string> = SECRETS): string[] {
  return Object.entries(secrets).flatMap(([name, s]) =>
    forms(s).some((f) => text.includes(f)) ? [`${where}: ${name}`] : [],
  );
}

const A = "/v1/tenants/alpha";
const dataDir = mkdtempSync(join(tmpdir(), "wws-secrets-"));
const logLines: string[] = [];
const answers: Answer[] = [];
const streams: Stream[] = [];
let svc: RunningService;

function startHere(): Promise<RunningService> {
  return start({ dataDir, log: (line) => logLines.push(line) });
}

async function record(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const a = await call(svc.url, method, path, o);
  answers.push(a);
  return a;
}

/** Every read the contract offers, of everything alpha has. */
async function readEverything(ids: string[]): Promise<void> {
  for (const p of ["spec", "pulse", "activity?limit=1000", "secrets", "asks"]) await record("GET", `${A}/${p}`);
  for (const id of ids) await record("GET", `${A}/workloads/${id}/status`);
  const templates = (await record("GET", `${A}/templates`)).json.templates as Array<{ id: string }>;
  expect(templates.length).toBeGreaterThanOrEqual(3);
  for (const t of templates) await record("GET", `${A}/templates/${t.id}`);
  await record("GET", "/v1/fleet/hosts");
  const control = new ControlClient(svc.url, CONTROL_TOKEN);
  answers.push({
    status: 200,
    headers: {},
    text: JSON.stringify([await control.counters(), await control.transitions("alpha", ids[0])]),
    json: undefined,
  });
}

async function waitSettled(ids: string[]): Promise<void> {
  await waitFor(
    async () => {
      for (const id of ids) {
        const s = (await record("GET", `${A}/workloads/${id}/status`)).json;
        if (s?.phase !== "Running" || s.observedGeneration < s.generation || s.adminReady === false) return false;
      }
      return true;
    },
    10_000,
    `${ids.join(", ")} ready`,
  );
}

/** Files of the data dir, the secrets file apart. */
function dataFiles(): Array<{ name: string; text: string; mode: number }> {
  return readdirSync(dataDir).map((name) => ({
    name,
    text: readFileSync(join(dataDir, name), "latin1") + readFileSync(join(dataDir, name), "utf8"),
    mode: statSync(join(dataDir, name)).mode & 0o777,
  }));
}

beforeAll(async () => {
  svc = await startHere();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("credentials at the service level", () => {
  let firstId: string;

  it("should take creates, updates, refusals, templates, restarts and deletes with credentials", async () => {
    firstId = (await record("GET", `${A}/pulse`)).json.lastEventId;
    streams.push(await openStream(svc.url, "alpha"));
    const ok = async (method: string, path: string, body: unknown, status: number): Promise<void> => {
      const a = await record(method, path, { body });
      expect([path, a.status]).toEqual([path, status]);
    };
    await ok(
      "POST",
      `${A}/workloads/vm-ubuntu`,
      { id: "s-vm", credentials: { username: "ubuntu", password: PW.vmFirst }, aiDaemon: { enabled: true } },
      202,
    );
    await ok(
      "POST",
      `${A}/workloads/vm-ubuntu`,
      { id: "s-vm", credentials: { password: PW.vmSecond }, aiDaemon: { enabled: true } },
      202,
    );
    await ok(
      "POST",
      `${A}/workloads/vm-windows`,
      { id: "s-win", credentials: { username: "Administrator", password: PW.win } },
      202,
    );
    const db = {
      id: "s-db",
      engine: "postgres",
      adminConsole: true,
      network: { exposed: true },
      credentials: { password: PW.db },
    };
    await ok("POST", `${A}/workloads/storage`, db, 202);
    await ok("POST", `${A}/workloads/storage`, { ...db, tls: true }, 202);
    await ok("POST", `${A}/workloads/storage`, { ...db, credentials: { password: PW.dbOther } }, 409);
    await ok(
      "POST",
      `${A}/workloads/storage`,
      { id: "s-redis", engine: "redis", credentials: { username: "cache", password: PW.redis } },
      202,
    );
    await ok(
      "POST",
      `${A}/templates`,
      {
        name: "vm",
        kind: "vm-ubuntu",
        config: { password: PW.tplTop, vm: { password: PW.tplSpec, credentials: { password: PW.tplCreds } } },
      },
      201,
    );
    await ok(
      "POST",
      `${A}/templates`,
      {
        name: "db",
        kind: "storage",
        config: {
          storage: {
            engine: "postgres",
            replicas: [{ login: { credentials: { username: "u", password: PW.tplDeep } } }],
          },
        },
      },
      201,
    );
    await ok(
      "POST",
      `${A}/templates`,
      { name: "pod", kind: "pod", config: { pod: { sidecars: [{ credentials: { password: PW.tplArray } }] } } },
      201,
    );
    // Refused requests that carry credentials.
    await ok(
      "POST",
      `${A}/workloads/storage`,
      { id: "s-bad1", engine: "postgres", credentials: { password: PW.badExtra, pin: 1 } },
      400,
    );
    await ok(
      "POST",
      `${A}/workloads/storage`,
      { id: "s-bad2", engine: "postgres", credentials: { password: PW.badLong.repeat(80) } },
      400,
    );
    await ok("POST", `${A}/workloads/vm-ubuntu`, { id: "s-bad3", credentials: { password: [PW.badArray] } }, 400);
    await ok(
      "POST",
      `${A}/workloads/vm-ubuntu`,
      { id: "s-bad4", credentials: { password: "x-long-enough", token: PW.badToken } },
      400,
    );
    await ok(
      "POST",
      `${A}/workloads/storage`,
      { id: "s-bad5", engine: "oracle", credentials: { password: PW.badType } },
      400,
    );
    await ok(
      "POST",
      `${A}/templates`,
      {
        name: "huge",
        kind: "vm-ubuntu",
        config: { vm: { credentials: { password: PW.badHuge }, pad: "p".repeat(70_000) } },
      },
      413,
    );
    answers.push(
      await call(svc.url, "POST", `${A}/workloads/storage`, {
        rawBody: `{"id":"s-bad6","credentials":{"password":"${PW.badJson}"`,
        headers: { "content-type": "application/json" },
      }),
    );
    answers.push(
      await call(svc.url, "POST", `${A}/workloads/storage`, {
        rawBody: `{"id":"s-bad7","credentials":{"password":"${PW.badJson}"}}`,
        headers: { "content-type": "text/plain" },
      }),
    );
    expect(answers.slice(-2).map((a) => a.status)).toEqual([400, 415]);

    await waitSettled(["s-vm", "s-win", "s-db", "s-redis"]);
    await ok("POST", `${A}/workloads/s-vm/restart`, undefined, 200);
    await ok("POST", `${A}/workloads/s-db/restart`, undefined, 200);
    await ok("DELETE", `${A}/workloads/s-win`, undefined, 202);
    await waitFor(async () => (await record("GET", `${A}/workloads/s-win/status`)).status === 404, 5000, "s-win gone");
    await waitSettled(["s-vm", "s-db", "s-redis"]);
    await readEverything(["s-vm", "s-db", "s-redis"]);
    // A late subscriber replays the whole ring.
    const replay = await openStream(svc.url, "alpha", { lastEventId: firstId });
    streams.push(replay);
    const last = (await record("GET", `${A}/pulse`)).json.lastEventId;
    await replay.until(() => replay.events.some((f) => f.id === last));
    expect(replay.events.some((f) => f.event === "resync")).toBe(false);
    expect(replay.events.filter((f) => f.event === "secret-changed").length).toBeGreaterThanOrEqual(5);
  });

  it("should write credentials only to the secrets file, mode 0600, in a directory only the owner can read", async () => {
    await svc.close();
    expect(statSync(dataDir).mode & 0o077).toBe(0);
    const files = dataFiles();
    const secretsFile = files.find((f) => f.name === "secrets.json")!;
    expect(secretsFile.mode).toBe(0o600);
    // Positive control: the search does find what is there.
    expect(hits("secrets.json", secretsFile.text, { vmSecond: PW.vmSecond, db: PW.db, redis: PW.redis })).toHaveLength(
      3,
    );
    // Replaced and deleted credentials are gone from it too; API keys were never in it.
    expect(
      hits("secrets.json", secretsFile.text, {
        vmFirst: PW.vmFirst,
        win: PW.win,
        ...KEYS,
        controlToken: CONTROL_TOKEN,
      }),
    ).toEqual([]);
    expect(files.map((f) => f.name).sort()).toEqual(["secrets.json", "state.json"]);
    expect(files.filter((f) => f.name !== "secrets.json").flatMap((f) => hits(f.name, f.text))).toEqual([]);
  });

  it("should keep credentials out of everything after a restart of the service too", async () => {
    svc = await startHere();
    expect((await record("GET", `${A}/secrets`)).json.secrets.map((s: { path: string }) => s.path).sort()).toEqual([
      "workloads/s-db/credentials",
      "workloads/s-redis/credentials",
      "workloads/s-vm/credentials",
    ]);
    const resumed = await openStream(svc.url, "alpha", { lastEventId: firstId });
    streams.push(resumed);
    await waitSettled(["s-vm", "s-db", "s-redis"]);
    expect(
      (
        await record("POST", `${A}/workloads/vm-ubuntu`, {
          body: { id: "s-vm", credentials: { password: PW.vmAfterRestart }, aiDaemon: { enabled: true } },
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await record("POST", `${A}/workloads/storage`, {
          body: {
            id: "s-db",
            engine: "postgres",
            adminConsole: true,
            network: { exposed: true },
            credentials: { password: PW.dbOther },
          },
        })
      ).status,
    ).toBe(409);
    expect((await record("POST", `${A}/workloads/s-redis/restart`)).status).toBe(200);
    expect((await record("DELETE", `${A}/workloads/s-db`)).status).toBe(202);
    await waitFor(async () => (await record("GET", `${A}/workloads/s-db/status`)).status === 404, 5000, "s-db gone");
    await waitSettled(["s-vm", "s-redis"]);
    await readEverything(["s-vm", "s-redis"]);
    await resumed.until(() => resumed.events.filter((f) => f.event === "secret-changed").length >= 2);
    expect(resumed.events[0].event).toBe("resync");
    await svc.close();
    const secretsFile = dataFiles().find((f) => f.name === "secrets.json")!;
    expect(hits("secrets.json", secretsFile.text, { vmAfterRestart: PW.vmAfterRestart, redis: PW.redis })).toHaveLength(
      2,
    );
    expect(hits("secrets.json", secretsFile.text, { db: PW.db, vmSecond: PW.vmSecond })).toEqual([]);
    svc = await startHere();
  });

  it("should have shown no credential and no key in any answer, header, frame, activity row, log line or state file", () => {
    const found = [
      ...answers.flatMap((a, i) => hits(`answer ${i} (${a.status})`, `${JSON.stringify(a.headers)}\n${a.text}`)),
      ...streams.flatMap((s, i) => hits(`stream ${i}`, `${JSON.stringify(s.headers)}\n${s.raw}`)),
      ...logLines.flatMap((l, i) => hits(`log line ${i}`, l)),
      ...dataFiles()
        .filter((f) => f.name !== "secrets.json")
        .flatMap((f) => hits(f.name, f.text)),
    ];
    expect(found).toEqual([]);
    // The haystack was not empty: every kind of source was searched.
    const activity = answers.filter((a) => Array.isArray(a.json?.rows)).flatMap((a) => a.json.rows);
    const frames = streams.reduce((n, s) => n + s.events.length, 0);
    expect(activity.length).toBeGreaterThan(30);
    expect(frames).toBeGreaterThan(60);
    expect(logLines.length).toBeGreaterThanOrEqual(answers.length - 1);
    expect(answers.filter((a) => a.json?.error !== undefined).length).toBeGreaterThanOrEqual(10);
    console.log(
      `secrets: ${Object.keys(SECRETS).length} secrets (${Object.values(SECRETS).reduce((n, v) => n + forms(v).length, 0)} forms) searched in ${answers.length} answers, ` +
        `${frames} stream frames, ${activity.length} activity rows, ${logLines.length} log lines and the data dir: ${found.length} hits`,
    );
  });
});
