import * as fs from "node:fs";
import * as path from "node:path";
import { pulumi, type StackPlace } from "../cli/recover/pulumi-cli";
import { OUR_TYPE_PREFIX, revealed, type ExportedStack } from "../cli/recover/pending-creates";
import type { StackConfig } from "../provider/dynamic/service/connection";
import { stackConfigValues } from "../provider/dynamic/service/recorded-settings";
import type { Props } from "../provider/dynamic/inputs/props";
import { isManagedRecord, secretPathsOf } from "./state-record";

/** A workload or template the stack's state records: its URN, resource id (`workspace/id`) and recorded outputs, in plaintext. */
export interface ManagedWorkload {
  kind: "workload" | "template";
  stack: string;
  urn: string;
  id: string;
  recorded: Props;
  /** Paths (`credentials`, `source.repo`) where the state keeps a secret, at any depth: their values are never shown. */
  secretKeys: ReadonlySet<string>;
}

/** What the watch knows of a stack: its workloads and templates, its config (secrets decrypted, as `pulumi up` gets it), when its state last changed. */
export interface StackView {
  name: string;
  workloads: ManagedWorkload[];
  config: StackConfig;
  /** The state's manifest time: a new one means an update, refresh or import changed it. */
  version: string;
}

/** The selected stack's name, as `pulumi stack --show-name` says it. */
export async function selectedStack(): Promise<string> {
  return (await pulumi(["stack", "--show-name"])).trim();
}

/** A stack's workloads, templates and config, read with the `pulumi` CLI: any backend and secrets provider. */
export async function loadStack(name: string, where: StackPlace = {}): Promise<StackView> {
  const [exported, configText] = await Promise.all([
    pulumi(["stack", "export", "--show-secrets"], name, where),
    pulumi(["config", "--json", "--show-secrets"], name, where),
  ]);
  const state = JSON.parse(exported) as ExportedStack;
  const values = stackConfigValues(configText);
  const config: StackConfig = { get: (key) => (Object.hasOwn(values, key) ? values[key] : undefined) };
  const workloads: ManagedWorkload[] = [];
  for (const r of state.deployment.resources ?? []) {
    if (!r.type.startsWith(OUR_TYPE_PREFIX) || !r.id || !isManagedRecord(r)) continue;
    const kind = r.type === `${OUR_TYPE_PREFIX}Template` ? "template" : "workload";
    const outputs = r.outputs ?? {};
    const secretKeys = secretPathsOf(outputs, r.inputs);
    workloads.push({ kind, stack: name, urn: r.urn, id: r.id, recorded: revealed(outputs) as Props, secretKeys });
  }
  const manifest = state.deployment.manifest as { time?: string } | undefined;
  return { name, workloads, config, version: `${manifest?.time ?? ""}:${workloads.length}` };
}

const backends = new Map<string, Promise<string>>();

/** The backend the stack's commands use: PULUMI_BACKEND_URL, else the login's (`pulumi whoami`), asked once per project. */
function backendUrl(where: StackPlace): Promise<string> {
  const fromEnv = (where.env ?? process.env).PULUMI_BACKEND_URL;
  if (fromEnv) return Promise.resolve(fromEnv);
  const key = where.cwd ?? process.cwd();
  let url = backends.get(key);
  if (!url) {
    url = pulumi(["whoami", "--json"], undefined, where).then(
      (out) => String((JSON.parse(out) as { url?: unknown }).url ?? ""),
      () => "",
    );
    backends.set(key, url);
  }
  return url;
}

/** A file backend's `.pulumi` directory and the stack's name there; undefined on any other backend. */
async function fileBackendOf(name: string, where: StackPlace): Promise<{ dir: string; stack: string } | undefined> {
  const backend = await backendUrl(where);
  if (!backend.startsWith("file://")) return undefined;
  const root = backend.slice("file://".length).replace(/^~/, (where.env ?? process.env).HOME ?? "~");
  return { dir: path.join(root, ".pulumi"), stack: name.includes("/") ? name.slice(name.lastIndexOf("/") + 1) : name };
}

/** The newest entry of the stack's update history (`pulumi stack history`). */
async function latestUpdate(name: string, where: StackPlace): Promise<Record<string, unknown> | undefined> {
  const out = await pulumi(["stack", "history", "--json", "--page-size", "1"], name, where);
  return (JSON.parse(out) as Array<Record<string, unknown>>)[0];
}

/**
 * A stamp of the stack's state that changes whenever an update, refresh or import writes it, cheap
 * enough to ask before each report: the checkpoint file's time on a file backend, the latest
 * update of the stack's history elsewhere.
 */
export async function stateStamp(name: string, project: string, where: StackPlace): Promise<string> {
  const file = await fileBackendOf(name, where);
  if (file) {
    for (const checkpoint of [
      path.join(file.dir, "stacks", project, `${file.stack}.json`),
      path.join(file.dir, "stacks", `${file.stack}.json`),
    ]) {
      try {
        return String(fs.statSync(checkpoint).mtimeMs);
      } catch {
        // not this layout
      }
    }
    return "";
  }
  const latest = await latestUpdate(name, where);
  return `${String(latest?.version)}:${String(latest?.endTime)}`;
}

/**
 * Whether an update holds the stack's lock. A file backend keeps a lock file per running update;
 * other backends list the running update in the stack's history as in progress.
 */
export async function stackLocked(name: string, project: string, where: StackPlace): Promise<boolean> {
  const file = await fileBackendOf(name, where);
  if (file) {
    for (const locks of [
      path.join(file.dir, "locks", "organization", project, file.stack),
      path.join(file.dir, "locks", file.stack),
    ]) {
      try {
        if (fs.readdirSync(locks).length > 0) return true;
      } catch {
        // no lock directory: no update ran here yet
      }
    }
    return false;
  }
  return (await latestUpdate(name, where))?.result === "in-progress";
}

/** The project of a stack's URNs (`urn:pulumi:<stack>::<project>::…`). */
export function projectOf(urn: string): string {
  return urn.split("::")[1] ?? "";
}
