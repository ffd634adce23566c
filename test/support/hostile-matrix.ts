/**
 * The hostile-peer matrix: `pulumi preview` and `pulumi up` of one pod, through the real CLI, against
 * a service or a forward proxy that fails in one way (`hostile-peer.mjs`, each a process of its own
 * on loopback), directly and through a proxy. Each run is measured as a user would: its wall time,
 * the connections and requests the peers saw, the time it took to end after one SIGTERM, and the
 * first line of what it said.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { linkPackages } from "../../bench/pulumi-stack";
import { newStackDir } from "./stack-dir";
import { closedPort } from "./ports";
import { listeningPort } from "./child-lines";

/** Modes a service plays (`hostile-peer.mjs --role service`), `refuse` being a port nothing listens on. */
export const SERVICE_MODES = [
  "refuse",
  "accept-close",
  "accept-stall",
  "drip",
  "redirect-302",
  "redirect-307",
  "429-huge-retry-after",
  "500-forever",
  "malformed-json",
  "50mb-body",
  "stream-silent",
  "stream-flood",
  "stream-endless-line",
] as const;
/** Modes a proxy plays, before a service that answers well. */
export const PROXY_MODES = ["refuse", "accept-close", "accept-stall", "drip", "407", "403", "502"] as const;

export interface MatrixCase {
  /** `service drip`, `proxy 407` */
  peer: "service" | "proxy";
  mode: string;
  /** A service's failure met directly, or through a proxy that works. */
  path: "direct" | "proxy";
}

export interface RunFigures {
  command: "preview" | "up";
  exitCode: number | null;
  wallMs: number;
  /** From the SIGTERM sent to the CLI to its exit, when one was sent. */
  afterSigtermMs?: number;
  /** Whether the peers had seen the connection check begin when the SIGTERM was sent. */
  sigtermDuringCheck?: boolean;
  connections: number;
  requests: number;
  /** The first line that says what went wrong (or the summary of a run that passed). */
  said: string;
  output: string;
}

/** A peer process and what it has seen. */
interface Peer {
  url: string;
  connections: number;
  requests: number;
  stop(): void;
}

const PEER = path.join(__dirname, "hostile-peer.mjs");
/** The service's host in every case: loopback, but not the 127.0.0.1 that NO_PROXY exempts for the CLI's own gRPC. */
const SERVICE_HOST = "127.0.0.2";

async function startPeer(args: string[]): Promise<Peer> {
  const child = spawn(process.execPath, [PEER, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const peer = { url: "", connections: 0, requests: 0, stop: () => child.stdin.end() };
  const port = await listeningPort(child, (line) => {
    if (line === "connection") peer.connections++;
    else if (line.startsWith("request ")) peer.requests++;
  });
  peer.url = `http://${args.includes("--host") ? SERVICE_HOST : "127.0.0.1"}:${port}`;
  return peer;
}

/** A peer stand-in for `refuse`: a URL where nothing listens, which sees nothing. */
async function refusingPeer(host: string): Promise<Peer> {
  return { url: `http://${host}:${await closedPort()}`, connections: 0, requests: 0, stop: () => undefined };
}

export interface Matrix {
  run(c: MatrixCase, command: "preview" | "up", sigterm: boolean): Promise<RunFigures>;
  cleanup(): void;
}

/**
 * A project of one pod linked to the package at `packageRoot` (this checkout, or another build to
 * compare with), on a service at `serviceUrl` with workspace `workspace` and key `apiKey`.
 */
export function hostileMatrix(opts: {
  packageRoot: string;
  pulumiBinDir: string;
  serviceUrl: string;
  workspace: string;
  apiKey: string;
}): Matrix {
  const dir = newStackDir("wws-hostile-", opts.pulumiBinDir);
  fs.rmSync(path.join(dir.workDir, "node_modules"), { recursive: true, force: true });
  linkPackages(opts.packageRoot, dir.workDir);
  fs.writeFileSync(
    path.join(dir.workDir, "Pulumi.yaml"),
    "name: hostile\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
  );
  fs.writeFileSync(path.join(dir.workDir, "package.json"), '{"name":"hostile","private":true,"main":"index.js"}');
  fs.writeFileSync(
    path.join(dir.workDir, "index.js"),
    'const wws = require("pulumi-wws");\nnew wws.Pod("web", { image: "nginx:1.27", workloadId: process.env.CASE_POD });\n',
  );
  let counter = 0;
  const pulumi = (args: string[], env: Record<string, string>, sigtermAfter?: () => Promise<void>) =>
    new Promise<{ code: number | null; out: string; wallMs: number; afterSigtermMs?: number }>((resolve) => {
      const started = Date.now();
      const child = spawn("pulumi", [...args, "--non-interactive"], {
        cwd: dir.workDir,
        env: { ...process.env, ...dir.envVars, ...env },
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      let sigtermAt: number | undefined;
      // Past this a run is killed: it is reported, not waited for.
      const kill = setTimeout(() => child.kill("SIGKILL"), 120_000);
      void sigtermAfter?.().then(() => {
        if (child.exitCode !== null) return;
        sigtermAt = Date.now();
        child.kill("SIGTERM");
      });
      child.on("exit", (code) => {
        clearTimeout(kill);
        const now = Date.now();
        resolve({
          code,
          out,
          wallMs: now - started,
          afterSigtermMs: sigtermAt === undefined ? undefined : now - sigtermAt,
        });
      });
    });

  return {
    async run(c, command, sigterm) {
      const id = `c${++counter}`;
      const env: Record<string, string> = {
        WWS_WORKSPACE: opts.workspace,
        WWS_API_KEY: opts.apiKey,
        CASE_POD: `hostile-${id}`,
        NO_PROXY: "127.0.0.1,localhost",
      };
      const upstream = opts.serviceUrl;
      const service =
        c.peer === "service" && c.mode === "refuse"
          ? await refusingPeer(SERVICE_HOST)
          : await startPeer([
              "--role",
              "service",
              "--mode",
              c.peer === "service" ? c.mode : "pass",
              "--upstream",
              upstream,
              "--host",
              SERVICE_HOST,
            ]);
      let proxy: Peer | undefined;
      if (c.path === "proxy")
        proxy =
          c.peer === "proxy" && c.mode === "refuse"
            ? await refusingPeer("127.0.0.1")
            : await startPeer(["--role", "proxy", "--mode", c.peer === "proxy" ? c.mode : "pass"]);
      env.WWS_BASE_URL = service.url;
      if (proxy) env.HTTP_PROXY = proxy.url;
      try {
        const init = await pulumi(["stack", "init", id], {});
        if (init.code !== 0) throw new Error(`pulumi stack init ${id} failed: ${init.out}`);
        // One SIGTERM once the peers have seen the check begin (a loaded machine may take a while to
        // get there), or, for a peer that sees nothing (refuse), once the check has surely begun.
        const seen = (): number => service.connections + (proxy?.connections ?? 0);
        let sigtermDuringCheck: boolean | undefined;
        const sigtermAfter = sigterm
          ? async () => {
              const started = Date.now();
              const wait = c.mode === "refuse" ? 8000 : 30_000;
              while (seen() === 0 && Date.now() - started < wait) await sleep(100);
              await sleep(1000);
              sigtermDuringCheck = seen() > 0;
            }
          : undefined;
        const r = await pulumi(
          command === "up" ? ["up", "--yes", "--stack", id] : ["preview", "--stack", id],
          env,
          sigtermAfter,
        );
        return {
          command,
          exitCode: r.code,
          wallMs: r.wallMs,
          afterSigtermMs: r.afterSigtermMs,
          sigtermDuringCheck,
          connections: service.connections + (proxy?.connections ?? 0),
          requests: service.requests + (proxy?.requests ?? 0),
          said: firstSaid(r.out),
          output: r.out,
        };
      } finally {
        service.stop();
        proxy?.stop();
      }
    },
    cleanup: () => dir.cleanup(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first diagnostic line of a run's output; for a run that passed, its resource summary. */
export function firstSaid(out: string): string {
  const lines = out.split("\n").map((l) => l.trim());
  const diagnostics = lines.indexOf("Diagnostics:");
  const after = diagnostics === -1 ? [] : lines.slice(diagnostics + 1);
  const error = after.find((l) => /^error: /.test(l) && !/^error: update failed|^error: preview failed/.test(l));
  if (error) return error;
  const summary = lines.find((l) => /^\+ \d+ to create|^\d+ unchanged|^\+ \d+ created/.test(l));
  return summary ?? lines.filter(Boolean).slice(-1)[0] ?? "";
}

/** A table row: `| service drip | direct | preview | 20.4 s | 3 | 2 | … |` */
export function tableRow(c: MatrixCase, r: RunFigures): string {
  const s = (ms: number | undefined): string => (ms === undefined ? "" : `${(ms / 1000).toFixed(1)} s`);
  // The cause, without what every row of the table repeats.
  const said = r.said
    .replace(/^error: pulumi-nodejs:dynamic\/wws:Pod resource 'web' has a problem: (baseUrl: )?/, "")
    .replace(/^(cannot reach the service at \S+) \(from the environment variable WWS_BASE_URL\)/, "$1")
    .replace(/get the spec of workspace \S+ failed: /, "")
    .replace(/\|/g, "\\|")
    .slice(0, 240);
  const sigterm =
    r.afterSigtermMs === undefined
      ? ""
      : `${s(r.afterSigtermMs)}${r.sigtermDuringCheck ? "" : " (sent before the check was seen)"}`;
  return `| ${c.peer} ${c.mode} | ${c.path} | ${r.command} | ${r.exitCode} | ${s(r.wallMs)} | ${sigterm} | ${r.connections} | ${r.requests} | ${said} |`;
}

export const TABLE_HEAD = [
  "| peer and mode | path | command | exit | wall | after SIGTERM | connections | requests | first line said |",
  "|---|---|---|---|---|---|---|---|---|",
];
