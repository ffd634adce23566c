import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StackConfig } from "../../provider/dynamic/service/connection";
import { RECOVER_COMMAND } from "../../provider/dynamic/ownership/takeover";
import type { Io } from "../../command-line";
import type { RecoverArgs } from "./args";
import { ourPendingCreates, revealed, withPendingResolved, type ExportedStack } from "./pending-creates";
import { nameOf, prove, type Verdict } from "./prove";
import { pulumi } from "../../automation/pulumi-cli";

/** Pending creates checked at once: each is two reads. */
const CONCURRENT_CHECKS = 16;

/** The stack's configuration as the provider's `configure` gets it (secrets decrypted, as `pulumi up` does). */
async function stackConfig(stack?: string): Promise<StackConfig> {
  const raw = JSON.parse(await pulumi(["config", "--json", "--show-secrets"], stack)) as Record<
    string,
    { value?: unknown }
  >;
  return { get: (key) => (typeof raw[key]?.value === "string" ? (raw[key].value as string) : undefined) };
}

async function inBatches<T, R>(items: readonly T[], size: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(f))));
  return out;
}

function planLine(v: Verdict): string {
  if (v.kind === "proven") return `  proven    ${nameOf(v.urn)}: ${v.what}; becomes the resource ${v.resourceId}`;
  if (v.kind === "unproven") return `  unproven  ${nameOf(v.urn)}: ${v.why}`;
  return `  ${v.kind.padEnd(9)} ${nameOf(v.urn)}: ${v.what}; its pending create is dropped`;
}

/**
 * `pulumi-wws recover`: the stack's pending creates of this package's resources, checked against the
 * service with reads only; with `--yes`, the proven ones written into the state. Resolves to the
 * exit status.
 */
export async function runRecover(args: RecoverArgs, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const plain = JSON.parse(await pulumi(["stack", "export", "--show-secrets"], args.stack)) as ExportedStack;
  const pending = ourPendingCreates(plain);
  if (pending.length === 0) {
    io.out("pulumi-wws recover: the stack's record holds no pending create of a pulumi-wws resource; nothing to do");
    return 0;
  }
  const sources = { config: await stackConfig(args.stack), env };
  const inState = new Set((plain.deployment.resources ?? []).map((r) => r.urn));
  const verdicts = await inBatches(pending, CONCURRENT_CHECKS, (op) =>
    prove({ ...op, resource: revealed(op.resource) as typeof op.resource }, sources, inState.has(op.resource.urn)),
  );
  io.out(`pulumi-wws recover: ${pending.length} pending creates of pulumi-wws resources in the stack's record`);
  const byUrn = (a: Verdict, b: Verdict): number => a.urn.localeCompare(b.urn, undefined, { numeric: true });
  for (const v of [...verdicts].sort(byUrn)) io.out(planLine(v));

  const adopt = new Map<string, string>();
  const drop = new Set<string>();
  for (const v of verdicts) {
    if (v.kind === "proven") adopt.set(v.urn, v.resourceId);
    else if (v.kind !== "unproven" || args.clearUnproven) drop.add(v.urn);
  }
  const unproven = verdicts.filter((v) => v.kind === "unproven").length;
  const keptNote =
    unproven > 0 && !args.clearUnproven
      ? ` ${unproven} unproven pending creates stay in the record (--clear-unproven drops them).`
      : "";
  if (!args.yes) {
    io.out(
      `Nothing was changed. \`${RECOVER_COMMAND} --yes\` takes the ${adopt.size} proven workloads into the stack's state and drops ${drop.size} pending creates, sending nothing to the service.${keptNote}`,
    );
    return 0;
  }
  if (adopt.size === 0 && drop.size === 0) {
    io.out(`Nothing to change.${keptNote}`);
    return 0;
  }
  // The encrypted export is edited, so no secret is written in plaintext, not even to a temporary file.
  const encrypted = JSON.parse(await pulumi(["stack", "export"], args.stack)) as ExportedStack;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-wws-recover-"));
  try {
    const file = path.join(dir, "stack.json");
    fs.writeFileSync(file, JSON.stringify(withPendingResolved(encrypted, adopt, drop)), { mode: 0o600 });
    await pulumi(["stack", "import", "--file", file], args.stack);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (adopt.size > 0) {
    // Reads only: fills each taken resource's outputs (phase, endpoint, …) from the service.
    const targets = [...adopt.keys()].flatMap((urn) => ["--target", urn]);
    await pulumi(["refresh", "--yes", "--skip-preview", ...targets], args.stack);
  }
  io.out(
    `Took ${adopt.size} workloads into the stack's state (pulumi stack import, then pulumi refresh of them) and dropped ${drop.size} pending creates; nothing was sent to the service.${keptNote} Next: pulumi up`,
  );
  return 0;
}
