import { ControlClient } from "../server/control-client";
import { WorkspaceClient, waitForWorkload } from "../sdk";
import {
  API_KEY,
  CONTROL_TOKEN,
  STATUS_ROUTE,
  WORKSPACE,
  cpuShare,
  machineCpu,
  othersPct,
  percentile,
  preciseNow,
  processCpuMs,
  round,
  seededRandom,
  sleep,
} from "./common";

export type WaitMode = "stream" | "poll";

/** Options of `measureReadiness`. */
export interface ReadinessOptions {
  /** Base URL of a running local service with the bench workspace, key and control token. */
  url: string;
  /** Concurrent waiters (each on a workload of its own) per round. */
  n: number;
  /** Rounds; the samples of every round are pooled. */
  rounds: number;
  mode: WaitMode;
  /** Interval of mode `poll`. @default 2000 (the provider's default) */
  pollIntervalMs?: number;
  /**
   * The service's reconcile step: Running comes two steps after the upsert. Must exceed
   * (`staggerMs` + margin) / 2, so that every wait starts before its workload is Running.
   */
  stepMs: number;
  /**
   * The starts of the waits are spread evenly (stratified, seeded jitter) over this many ms after
   * the upsert, so that Running falls at a uniformly spread phase of the poll cycle, as it does
   * when reconcile times vary. @default pollIntervalMs
   */
  staggerMs?: number;
  /** How far the service's clock is ahead of ours (see `clockOffset`). @default 0 */
  clockOffsetMs?: number;
  /** @default 1 */
  seed?: number;
  /** The service's process id, for its CPU time (when it runs on this machine). */
  servicePid?: number;
  /** Prefix of the workload ids (unique per run). @default "r" */
  idPrefix?: string;
  /**
   * Stream mode only, for diagnosis: one more listener on the shared stream records when each
   * workload's Running event arrives, splitting the latency into delivery (service → this
   * process) and the rest (debounce, `/status` read, parse). It opens the stream before the
   * waiters do, so request counts are not those of a plain run. @default false
   */
  trace?: boolean;
}

export interface ReadinessResult {
  mode: WaitMode;
  /** The service's profile: `spec` answers only what the published spec names (activity rows without targets). @default "full" */
  profile?: "full" | "spec";
  n: number;
  rounds: number;
  /** Latencies measured (waits that started after their workload was Running are left out, see `lateStarts`). */
  samples: number;
  /** From the service's transition to Running to the waiter resolving, in ms. */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** `GET …/status` requests per wait (the whole round, upsert to last resolve). */
  statusGetsPerWait: number;
  /** Every request to `/v1` per wait, the upsert included. */
  requestsPerWait: number;
  /** Most event streams open at once on the workspace during a round (sampled every 100 ms). */
  streamsPerWorkspace: number;
  /** Stream connections opened per round. */
  streamsOpenedPerRound: number;
  /** Waits that started after their workload was already Running (bad stagger: not measured). */
  lateStarts: number;
  /** Wall time of the rounds, in ms. */
  wallMs: number;
  /** CPU time of this (waiting) process per wait, in ms. */
  clientCpuMsPerWait: number;
  /** CPU time of the service per wait, in ms (with `servicePid`). */
  serverCpuMsPerWait?: number;
  /** Busy share of the whole machine (all cores, every tenant) during the rounds, in percent. */
  machineBusyPct?: number;
  /** The part of it neither this process, the service nor kernel networking account for (other load on the machine), in percent. */
  othersPct?: number;
  /** The service's clock minus ours, as given (ms): subtracted from its transition times. */
  clockOffsetMs: number;
  /** From the first workload's transition to Running to the last one's, per round (median over rounds), in ms. */
  runningSpreadMs: number;
  /** Every latency measured, ascending, in ms (the distribution `bench/svg.ts` draws). */
  latenciesMs?: number[];
  /** With `trace`: Running transition → its event here, and event here → waiter resolved, in ms. */
  trace?: { deliveryP50Ms: number; deliveryP99Ms: number; afterEventP50Ms: number; afterEventP99Ms: number };
}

const POD = (id: string): { id: string; image: string } => ({ id, image: "nginx:1.27" });

let runCounter = 0;

/**
 * Scenarios 1 and 2: `n` workloads upserted at once, each waited for by a waiter of its own (a
 * client per waiter, sharing the process's event hub and connection pool, as a provider's
 * resources do); latency = waiter resolved − the service's own record of the transition to
 * Running (`ControlClient.transitions`). Request and stream counts come from the service's
 * counters (`ControlClient.counters`), reset at the start of each round.
 */
export async function measureReadiness(options: ReadinessOptions): Promise<ReadinessResult> {
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  const staggerMs = options.staggerMs ?? pollIntervalMs;
  const offset = options.clockOffsetMs ?? 0;
  if (2 * options.stepMs < staggerMs + 200) {
    throw new Error(
      `stepMs ${options.stepMs} too short: waits start up to ${staggerMs} ms after the upsert, Running comes after ${2 * options.stepMs} ms`,
    );
  }
  const control = new ControlClient(options.url, CONTROL_TOKEN);
  const random = seededRandom(options.seed ?? 1);
  const prefix = `${options.idPrefix ?? "r"}${process.pid}x${++runCounter}`;
  const total = options.n * options.rounds;
  const latencies: number[] = [];
  let statusGets = 0;
  let requests = 0;
  let streamsMax = 0;
  let streamsOpened = 0;
  let lateStarts = 0;
  const spreads: number[] = [];
  const deliveries: number[] = [];
  const afterEvent: number[] = [];
  const wall0 = preciseNow();
  const cpu0 = process.cpuUsage();
  const serverCpu0 = processCpuMs(options.servicePid);
  const machine0 = machineCpu();
  // Bounded: a wait can never outlive this, and neither can a round.
  const waitTimeoutMs = 2 * options.stepMs + staggerMs + pollIntervalMs + 20_000;

  for (let r = 0; r < options.rounds; r++) {
    await control.resetCounters();
    const ids = Array.from({ length: options.n }, (_, i) => `${prefix}-${options.mode}-${r}-${i}`);
    // Stratified over all the samples of the run: sample k of `total` starts in slot k.
    const stagger = ids.map((_, i) => ((i * options.rounds + r + random()) / total) * staggerMs);
    const started: number[] = new Array<number>(options.n).fill(Number.NaN);
    const resolved: number[] = new Array<number>(options.n).fill(Number.NaN);
    const clients = ids.map(() => new WorkspaceClient({ baseUrl: options.url, workspace: WORKSPACE, apiKey: API_KEY }));
    const arrived = new Map<string, number>();
    const untrace =
      options.trace && options.mode === "stream"
        ? clients[0].subscribe({
            onEvent: (e) => {
              if (e.type !== "activity" || (e.data.detail as { phase?: unknown } | undefined)?.phase !== "Running")
                return;
              const id = e.data.target?.id;
              if (typeof id === "string" && !arrived.has(id)) arrived.set(id, preciseNow());
            },
          })
        : undefined;
    let active = true;
    const sampler = (async () => {
      while (active) {
        const c = await control.counters();
        streamsMax = Math.max(streamsMax, c.streams.byWorkspace[WORKSPACE] ?? 0);
        await sleep(100);
      }
    })();
    try {
      await Promise.all(
        ids.map(async (id, i) => {
          await clients[i].upsertWorkload("pod", POD(id));
          await sleep(stagger[i]);
          started[i] = preciseNow();
          await waitForWorkload(clients[i], id, {
            until: "ready",
            timeoutMs: waitTimeoutMs,
            mode: options.mode,
            pollIntervalMs,
          });
          resolved[i] = preciseNow();
        }),
      );
    } finally {
      active = false;
      untrace?.();
      await sampler;
      await Promise.all(clients.map((c) => c.close()));
    }
    const counters = await control.counters();
    statusGets += counters.requests.byRoute[STATUS_ROUTE] ?? 0;
    requests += counters.requests.total;
    streamsOpened += counters.streams.opened;
    const roundLatencies: number[] = [];
    const runningAts: number[] = [];
    for (let i = 0; i < ids.length; i += 50) {
      const batch = await Promise.all(ids.slice(i, i + 50).map((id) => control.transitions(WORKSPACE, id)));
      batch.forEach((transitions, j) => {
        const running = transitions.find((t) => t.phase === "Running");
        if (!running) throw new Error(`workload ${ids[i + j]} resolved but has no Running transition`);
        const runningAt = running.at - offset;
        runningAts.push(runningAt);
        const here = arrived.get(ids[i + j]);
        if (here !== undefined) {
          deliveries.push(here - runningAt);
          afterEvent.push(resolved[i + j] - here);
        }
        if (started[i + j] >= runningAt) lateStarts++;
        else roundLatencies.push(resolved[i + j] - runningAt);
      });
    }
    latencies.push(...roundLatencies);
    spreads.push(Math.max(...runningAts) - Math.min(...runningAts));
  }
  const cpu = process.cpuUsage(cpu0);
  const serverCpu1 = processCpuMs(options.servicePid);
  const machine = cpuShare(machine0, machineCpu());
  return {
    mode: options.mode,
    n: options.n,
    rounds: options.rounds,
    samples: latencies.length,
    p50Ms: round(percentile(latencies, 50)),
    p90Ms: round(percentile(latencies, 90)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(percentile(latencies, 100)),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
    statusGetsPerWait: round(statusGets / total),
    requestsPerWait: round(requests / total),
    streamsPerWorkspace: streamsMax,
    streamsOpenedPerRound: round(streamsOpened / options.rounds),
    lateStarts,
    wallMs: Math.round(preciseNow() - wall0),
    clientCpuMsPerWait: round((cpu.user + cpu.system) / 1000 / total),
    ...(serverCpu0 !== undefined && serverCpu1 !== undefined
      ? { serverCpuMsPerWait: round((serverCpu1 - serverCpu0) / total) }
      : {}),
    ...(machine ? { machineBusyPct: machine.busyPct } : {}),
    ...(machine
      ? {
          othersPct: othersPct(
            machine,
            (cpu.user + cpu.system) / 1000 + (serverCpu1 ?? 0) - (serverCpu0 ?? 0),
            preciseNow() - wall0,
          ),
        }
      : {}),
    clockOffsetMs: offset,
    runningSpreadMs: round(percentile(spreads, 50)),
    latenciesMs: [...latencies].sort((a, b) => a - b).map((v) => round(v)),
    ...(deliveries.length > 0
      ? {
          trace: {
            deliveryP50Ms: round(percentile(deliveries, 50)),
            deliveryP99Ms: round(percentile(deliveries, 99)),
            afterEventP50Ms: round(percentile(afterEvent, 50)),
            afterEventP99Ms: round(percentile(afterEvent, 99)),
          },
        }
      : {}),
  };
}
