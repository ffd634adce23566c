import { Agent, request, type ClientRequest } from "node:http";
import { performance } from "node:perf_hooks";
import { ControlClient } from "../../server";
import { ensureBuilt } from "../support/build";
import { openFileLimit, startServiceProcess, type ServiceProcess } from "./service-process";

/**
 * Load on the local service, run as a child process so that the 1,000 client sockets here do
 * not share its event loop: 500 concurrent creates of pods in one workspace while 1,000 streams
 * of that workspace are open, half from the start and half connecting late with a Last-Event-ID
 * inside the replay ring. Every bound (counts, time) is fixed; nothing waits on a fixed sleep.
 */
const WS = "load";
const KEY = "load-Key-5e1f0a9c3d";
const TOKEN = "load-control-token";
const T = `/v1/tenants/${WS}`;
const CREATES = 500;
const EARLY_STREAMS = 500;
const LATE_STREAMS = 500;
/** Events per created pod: created, Pending, spec-changed, Provisioning, Running; the ring holds all of them several times over. */
const RING_SIZE = 20_000;
/** One reconciler step: long enough that late subscribers join while pods are still moving. */
const RECONCILE_MS = 1000;
const LIMIT_MS = 50_000;

let svc: ServiceProcess;
let control: ControlClient;

beforeAll(async () => {
  const limit = openFileLimit();
  if (limit !== undefined && limit < 2 * (EARLY_STREAMS + LATE_STREAMS) + 256) {
    throw new Error(
      `open file limit ${limit} is too low for ${EARLY_STREAMS + LATE_STREAMS} streams; raise it (ulimit -n 4096)`,
    );
  }
  ensureBuilt();
  svc = await startServiceProcess([
    "--quiet",
    "--control-token",
    TOKEN,
    "--key",
    `${WS}=${KEY}`,
    "--ring-size",
    String(RING_SIZE),
    "--reconcile-ms",
    String(RECONCILE_MS),
    "--heartbeat-ms",
    "60000",
  ]);
  control = new ControlClient(svc.url, TOKEN);
}, 180_000);

afterAll(async () => {
  if (svc) expect(await svc.stop()).toBe(0);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function getJson(path: string): Promise<any> {
  const res = await fetch(svc.url + path, { headers: { "x-api-key": KEY } });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return res.json();
}

/**
 * A subscriber that checks ids as they arrive without keeping frames: `next` is the id it must
 * see next; anything else (a gap, a repeat, out of order) is recorded as a violation.
 */
class Subscriber {
  next: number;
  received = 0;
  resyncs = 0;
  violations: string[] = [];
  status = 0;
  private carry: Buffer = Buffer.alloc(0);
  private req: ClientRequest | undefined;

  /** `newestAtJoin`: the newest id known just before connecting; everything after `lastEventId` up to it is a replay. */
  constructor(
    readonly lastEventId: number,
    readonly newestAtJoin = lastEventId,
  ) {
    this.next = lastEventId + 1;
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.req = request(`${svc.url}${T}/events/stream`, {
        headers: { "x-api-key": KEY, "last-event-id": String(this.lastEventId) },
        agent: false,
      });
      this.req.on("response", (res) => {
        this.status = res.statusCode ?? 0;
        res.on("data", (chunk: Buffer) => this.take(chunk));
        resolve();
      });
      this.req.on("error", (err) => {
        if (this.status === 0) reject(err);
        else this.violations.push(`stream error after ${this.received} events: ${err.message}`);
      });
      this.req.end();
    });
  }

  close(): void {
    this.req?.destroy();
  }

  /** Scans complete lines for `id: ` and `event: resync`; data lines are never decoded. */
  private take(chunk: Buffer): void {
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = buf.lastIndexOf(10);
    if (end === -1) {
      this.carry = buf;
      return;
    }
    this.carry = Buffer.from(buf.subarray(end + 1));
    const lines = buf.subarray(0, end + 1);
    // `lines` starts at a line start, so every `id: ` line is at 0 or right after a newline.
    let at = lines.toString("latin1", 0, 4) === "id: " ? 0 : lines.indexOf("\nid: ");
    while (at !== -1) {
      const from = lines[at] === 10 ? at + 5 : at + 4;
      const eol = lines.indexOf(10, from);
      this.saw(Number(lines.toString("latin1", from, eol)));
      at = lines.indexOf("\nid: ", eol);
    }
    for (let r = lines.indexOf("event: resync"); r !== -1; r = lines.indexOf("event: resync", r + 1)) this.resyncs++;
  }

  private saw(id: number): void {
    if (id !== this.next && this.violations.length < 5) this.violations.push(`expected id ${this.next}, got ${id}`);
    if (id >= this.next) this.next = id + 1;
    this.received++;
  }
}

/** Runs `jobs` with at most `limit` in flight. */
async function pool<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (i < jobs.length) {
        const j = i++;
        out[j] = await jobs[j]();
      }
    }),
  );
  return out;
}

function createPod(agent: Agent, id: string): Promise<number> {
  const body = JSON.stringify({
    id,
    image: "nginx:1.27",
    cpu: "100m",
    memory: "64Mi",
    ports: [{ name: "http", port: 8080 }],
  });
  return new Promise((resolve, reject) => {
    const req = request(`${svc.url}${T}/workloads/pod`, {
      method: "POST",
      agent,
      headers: { "x-api-key": KEY, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe("the local service under load", () => {
  const subscribers: Subscriber[] = [];
  afterAll(() => subscribers.forEach((s) => s.close()));

  it(
    "should accept 500 concurrent creates, run them all, and deliver every event once and in order to 1,000 streams",
    async () => {
      const started = performance.now();
      await control.resetCounters();
      const baseline = Number((await getJson(`${T}/pulse`)).lastEventId);

      // Half of the subscribers are there from the start.
      const early = Array.from({ length: EARLY_STREAMS }, () => new Subscriber(baseline));
      subscribers.push(...early);
      await pool(
        early.map((s) => () => s.open()),
        100,
      );
      const streamsUp = performance.now();

      // 500 creates at once, while the other half connects late, each at an id inside the ring.
      const agent = new Agent({ keepAlive: true, maxSockets: CREATES });
      const createsStarted = performance.now();
      let createsMs = 0;
      const creating = Promise.all(Array.from({ length: CREATES }, (_, i) => createPod(agent, `load-${i}`))).then(
        (statuses) => {
          createsMs = performance.now() - createsStarted;
          return statuses;
        },
      );
      const late: Subscriber[] = [];
      const joining = (async () => {
        for (let batch = 0; batch < LATE_STREAMS / 50; batch++) {
          const newest = Number((await getJson(`${T}/pulse`)).lastEventId);
          const group = Array.from(
            { length: 50 },
            () => new Subscriber(baseline + Math.floor(Math.random() * (newest - baseline + 1)), newest),
          );
          late.push(...group);
          subscribers.push(...group);
          await Promise.all(group.map((s) => s.open()));
        }
      })();
      const statuses = await creating;
      await joining;
      agent.destroy();
      expect(statuses.filter((s) => s !== 202)).toEqual([]);
      expect(subscribers.map((s) => s.status).filter((s) => s !== 200)).toEqual([]);
      expect((await control.counters()).streams.byWorkspace[WS]).toBe(EARLY_STREAMS + LATE_STREAMS);

      // Every pod reaches Running for its generation.
      await waitUntil(
        "500 pods Running",
        async () => {
          const pulse = await getJson(`${T}/pulse`);
          return (
            pulse.workloads.length === CREATES && pulse.workloads.every((w: { phase: string }) => w.phase === "Running")
          );
        },
        30_000,
        100,
      );
      const running = performance.now();
      const notReady = (
        await pool(
          Array.from({ length: CREATES }, (_, i) => async () => {
            const s = await getJson(`${T}/workloads/load-${i}/status`);
            return s.phase === "Running" && s.observedGeneration >= s.generation ? undefined : `load-${i}: ${s.phase}`;
          }),
          50,
        )
      ).filter((x) => x !== undefined);
      expect(notReady).toEqual([]);

      // Every subscriber has every id after its own Last-Event-ID up to the newest, exactly once, in order.
      const newest = Number((await getJson(`${T}/pulse`)).lastEventId);
      await waitUntil(
        "every stream up to the newest id",
        () => subscribers.every((s) => s.next > newest || s.violations.length > 0),
        20_000,
      );
      const delivered = performance.now();
      const broken = subscribers.flatMap((s, i) =>
        s.violations.length > 0 || s.resyncs > 0 || s.next !== newest + 1
          ? [`#${i} from ${s.lastEventId}: ${s.violations.join("; ")} resyncs ${s.resyncs} next ${s.next}`]
          : [],
      );
      expect(broken.slice(0, 5)).toEqual([]);
      for (const s of subscribers) expect(s.received).toBe(newest - s.lastEventId);

      const c = await control.counters();
      expect(Object.keys(c.requests.byStatus).filter((s) => s.startsWith("5"))).toEqual([]);
      expect(c.requests.byRoute["POST /v1/tenants/:name/workloads/:type"]).toBe(CREATES);

      const events = newest - baseline;
      const replayed = late.reduce((n, s) => n + (s.newestAtJoin - s.lastEventId), 0);
      const totalDelivered = subscribers.reduce((n, s) => n + s.received, 0);
      const lateFrom = late.map((s) => s.lastEventId - baseline);
      const elapsed = performance.now() - started;
      console.log(
        [
          `load: ${CREATES} concurrent creates answered 202 in ${createsMs.toFixed(0)} ms (${((CREATES / createsMs) * 1000).toFixed(0)} creates/s); ` +
            `all Running ${((running - createsStarted) / 1000).toFixed(1)} s after the first create (reconcile step ${RECONCILE_MS} ms)`,
          `load: ${EARLY_STREAMS + LATE_STREAMS} streams open (${EARLY_STREAMS} opened in ${(streamsUp - started).toFixed(0)} ms, ${LATE_STREAMS} late at ` +
            `Last-Event-ID baseline+${Math.min(...lateFrom)}..+${Math.max(...lateFrom)}); ${events} events each from the baseline`,
          `load: ${totalDelivered} events delivered (${late.reduce((n, s) => n + s.received, 0)} to late subscribers, at least ${replayed} of them replayed from the ring), ` +
            `0 gaps, 0 repeats, 0 resyncs, 0 5xx; delivered to all ${((delivered - createsStarted) / 1000).toFixed(1)} s after the first create; test ${(elapsed / 1000).toFixed(1)} s`,
        ].join("\n"),
      );
      expect(elapsed).toBeLessThan(LIMIT_MS);
    },
    LIMIT_MS + 10_000,
  );
});
