#!/usr/bin/env node
// The fleet's driver: the stacks slice-0 … slice-<N-1> of this project, side by side on one
// shared backend (PULUMI_BACKEND_URL), through the Automation API.
//
//   node fleet.js preview --stacks=8        every stack's preview, and the gate CI runs on one stack
//   node fleet.js up --stacks=8             the same previews and gate; then, only if every stack
//                                           passed, every stack's up, at the same time
//   node fleet.js refresh|destroy --stacks=8
//
// Options: --slices=0,3 (these stacks instead of --stacks), --pods=N (sets podsPerSlice on every
// stack it runs: keep one value for all), --parallel=P (each `pulumi` run's --parallel; default
// 1000, every step of a slice at once; `default`: the CLI's own, 4 × cores), --concurrency=C (stacks run at once; default all),
// --remove (destroy, then remove the stacks), --dir=DIR (the project; default this directory),
// --json (a last line of JSON: each stack's changes and wall time). Exits 1 when any stack
// failed, 2 when the gate stopped an up (nothing was applied).
"use strict";
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");

const COMMANDS = ["preview", "up", "refresh", "destroy"];

// Node >= 22.1 keeps the compiled code of what each `pulumi` run's node processes load (the
// program, its language host, the provider: mostly @pulumi/pulumi) here, for the next ones: a
// program then starts with about 0.6 s less CPU, on every stack of every run.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "node-compile-cache");

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const opts = { command, dir: __dirname, parallel: 1000, json: false, remove: false };
  for (const a of rest) {
    const [key, value] = a.replace(/^--/, "").split("=");
    if (key === "json" || key === "remove") opts[key] = true;
    else if (key === "stacks") opts.slices = Array.from({ length: Number(value) }, (_, i) => i);
    else if (key === "slices") opts.slices = value.split(",").map(Number);
    else if (key === "dir") opts.dir = path.resolve(value);
    else if (key === "parallel") opts.parallel = value === "default" ? undefined : Number(value);
    else if (["pods", "concurrency"].includes(key)) opts[key] = Number(value);
    else throw new Error(`unknown option ${a}`);
  }
  if (!COMMANDS.includes(command) || !opts.slices?.length || opts.slices.some((s) => !Number.isInteger(s) || s < 0))
    throw new Error(`usage: node fleet.js ${COMMANDS.join("|")} --stacks=N|--slices=0,1 [options]`);
  return opts;
}

/** examples/ci/plan.mjs of the installed pulumi-wws: what CI runs on one stack's preview. */
async function loadPlan(dir) {
  const pkg = require.resolve("pulumi-wws/package.json", { paths: [dir] });
  return import(pathToFileURL(path.join(path.dirname(pkg), "examples", "ci", "plan.mjs")).href);
}

/** `fn` of every item, at most `limit` at a time; each result is `{value}` or `{error}`, with `[start, end]` (epoch ms). */
async function eachLimited(items, limit, fn) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const t0 = Date.now();
      results[i] = await fn(items[i]).then(
        (value) => ({ value, at: [t0, Date.now()] }),
        (error) => ({ error, at: [t0, Date.now()] }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Stack `slice-<slice>`, made if it is new. Every `pulumi` the Automation API runs costs a CLI start
 * (a quarter to half a second of CPU): one `version` for the whole driver (`pulumiCommand`), and
 * `podsPerSlice` set only when the stack's file says otherwise.
 */
async function stackOf(opts, pulumiCommand, slice) {
  const stackName = `slice-${slice}`;
  const stack = await LocalWorkspace.createOrSelectStack({ stackName, workDir: opts.dir }, { pulumiCommand });
  const value = String(opts.pods);
  const config = (await stack.workspace.stackSettings(stackName)).config ?? {};
  if (opts.pods !== undefined && String(config["wws-fleet:podsPerSlice"]) !== value)
    await stack.setConfig("podsPerSlice", { value });
  return stack;
}

/**
 * A preview in the shape of `pulumi preview --json` (its steps and diagnostics), which is what
 * plan.mjs reads; `failed` when the preview itself failed.
 */
async function previewJson(stack, parallel) {
  const steps = [];
  const diagnostics = [];
  const onEvent = (e) => {
    const m = e.resourcePreEvent?.metadata;
    // The stack's default provider is the engine's, not one of the stack's resources.
    if (m && !m.urn.includes("::pulumi:providers:"))
      steps.push({ op: m.op, urn: m.urn, detailedDiff: m.detailedDiff, diffReasons: m.diffs });
    if (e.diagnosticEvent) diagnostics.push(e.diagnosticEvent);
  };
  try {
    await stack.preview({ parallel, onEvent });
  } catch (err) {
    if (!diagnostics.some((d) => d.severity === "error")) diagnostics.push({ severity: "error", message: String(err) });
  }
  return { steps, diagnostics };
}

/** One stack's preview and the gate: `{plan, errors, lost}`; passes when errors and lost are empty. */
async function gate(stack, opts, plan) {
  const preview = await previewJson(stack, opts.parallel);
  const rows = plan.planOf(preview);
  return { rows, errors: plan.errorsOf(preview), lost: plan.lostDatabases(rows) };
}

const countsOf = (rows) => rows.reduce((counts, r) => ({ ...counts, [r.change]: (counts[r.change] ?? 0) + 1 }), {});

async function apply(stack, opts) {
  const parallel = opts.parallel;
  if (opts.command === "up") return (await stack.up({ parallel })).summary.resourceChanges;
  if (opts.command === "refresh") return (await stack.refresh({ parallel })).summary.resourceChanges;
  const changes = (await stack.destroy({ parallel })).summary.resourceChanges;
  if (opts.remove) await stack.workspace.removeStack(stack.name);
  return changes;
}

const message = (err) => (err instanceof Error ? err.message : String(err));

async function main(argv) {
  const opts = parseArgs(argv);
  const started = Date.now();
  const limit = opts.concurrency ?? opts.slices.length;
  const stacks = opts.slices.map((slice) => ({ slice, name: `slice-${slice}` }));
  const say = (s, text) => console.log(`${s.name}: ${text}`);
  let failed = false;
  let gateStopped = false;
  const pulumiCommand = await PulumiCommand.get();
  // One stack first: the first use of a PostgreSQL backend creates its table, and eight CLIs
  // creating it at once fail ("type pulumi_state already exists").
  const [first, ...rest] = stacks;
  const open = (s) => stackOf(opts, pulumiCommand, s.slice);
  const opened = [...(await eachLimited([first], 1, open)), ...(await eachLimited(rest, limit, open))];
  opened.forEach(({ value, error }, i) => {
    stacks[i].stack = value;
    if (!error) return;
    say(stacks[i], `failed: ${message(error)}`);
    failed = true;
  });

  if (!failed && (opts.command === "preview" || opts.command === "up")) {
    const plan = await loadPlan(opts.dir);
    const gates = await eachLimited(stacks, limit, (s) => gate(s.stack, opts, plan));
    gates.forEach(({ value, error, at }, i) => {
      const s = stacks[i];
      const g = value ?? { rows: [], errors: [message(error)], lost: [] };
      Object.assign(s, { previewMs: at[1] - at[0], plan: countsOf(g.rows) });
      for (const e of g.errors) say(s, `preview failed: ${e}`);
      for (const r of g.lost) say(s, `the gate refuses it: Database ${r.name} would be ${r.change}d`);
      if (g.errors.length === 0) say(s, `plan ${JSON.stringify(s.plan)}`);
      if (g.errors.length > 0 || g.lost.length > 0) failed = true;
    });
    gateStopped = failed && opts.command === "up";
    if (gateStopped) console.log("the gate stopped the up: no stack was changed");
  }
  if (!failed && opts.command !== "preview") {
    const applied = await eachLimited(stacks, limit, (s) => apply(s.stack, opts));
    applied.forEach(({ value, error, at }, i) => {
      // When it ran, from the driver's start: the stacks' runs overlap.
      Object.assign(stacks[i], { applyMs: at[1] - at[0], appliedAt: at.map((t) => t - started), changes: value });
      say(stacks[i], error ? `${opts.command} failed: ${message(error)}` : `${opts.command} ${JSON.stringify(value)}`);
      if (error) failed = true;
    });
  }
  const wallMs = Date.now() - started;
  console.log(
    `${opts.command} of ${stacks.length} stack(s): ${failed ? "FAILED" : "done"} in ${(wallMs / 1000).toFixed(1)} s`,
  );
  if (opts.json) {
    const rows = stacks.map(({ stack: _stack, ...row }) => row);
    console.log(JSON.stringify({ command: opts.command, failed, wallMs, stacks: rows }));
  }
  return gateStopped ? 2 : failed ? 1 : 0;
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err) => {
      console.error(err.message ?? err);
      process.exitCode = 1;
    },
  );
