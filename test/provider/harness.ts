import { ControlClient, type RunningService, type ServiceOptions } from "../../server";
import { createContext, type ManagedContext } from "../../provider/dynamic/context";
import { createTemplateProvider } from "../../provider/dynamic/templates/provider";
import { createWorkloadProvider } from "../../provider/dynamic/workloads/provider";
import type { ProviderImpl } from "../../provider/dynamic/types";
import { OUTPUT_KEYS } from "../../provider/dynamic/inputs/props";
import { sealLogin } from "../../provider/dynamic/credentials/digest";
import { classifyWorkloadChanges, diffOfChanges } from "../../provider/dynamic/workloads/diff";
import type { DiffResult } from "../../provider/dynamic/diff-result";
import { WorkspaceClient } from "../../sdk";
import { uniqueId } from "../support/ids";
import { startTestService } from "../support/service";

export const KEY = "prov-Key-demo-6d2e41";
export const OTHER_KEY = "prov-Key-other-77a1c0";
export const PASSWORD = "prov-Pass-Word-3f9b2";
export const CONTROL_TOKEN = "t";
/** Stands in for the serialized provider the host puts into every property bag. */
export const STUB = "exports.handler = __f0; /* stub */";

type Props = Record<string, unknown>;

export interface Harness {
  svc: RunningService;
  ctl: ControlClient;
  ctx: ManagedContext;
  workload: ProviderImpl;
  template: ProviderImpl;
  /** The demo workspace's client, to look at what the provider did; closed with the harness. */
  client: WorkspaceClient;
  /** Every progress line written. */
  lines: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The real local service on a free port (`service` overrides its options, e.g. its profile), and
 * provider implementations wired to it through the environment.
 */
export async function startHarness(service: ServiceOptions = {}): Promise<Harness> {
  const svc = await startTestService({
    keys: { demo: KEY, other: OTHER_KEY },
    reconcileMs: 20,
    controlToken: CONTROL_TOKEN,
    ...service,
  });
  const env = { WWS_BASE_URL: svc.url, WWS_WORKSPACE: "demo", WWS_API_KEY: KEY };
  const lines: string[] = [];
  const ctx = createContext({
    env,
    progress: { write: (l) => lines.push(l) },
    waitTiming: { pollMinMs: 20, pollMaxMs: 200, safetyPollMs: 500 },
  });
  const client = new WorkspaceClient({ baseUrl: svc.url, workspace: "demo", apiKey: KEY });
  return {
    svc,
    ctl: new ControlClient(svc.url, CONTROL_TOKEN),
    ctx,
    workload: createWorkloadProvider(ctx),
    template: createTemplateProvider(ctx),
    client,
    lines,
    env,
    close: async () => {
      await client.close();
      await ctx.close();
      await svc.close();
    },
  };
}

/** A fresh id per call, its pid cut to 4 digits: provider ids carry a prefix and must stay short. */
export const uid = (prefix: string): string => uniqueId(prefix, 4);

/** What the engine does for a new resource: `check` (failures stop it), then `create` with the checked inputs. */
export async function up(provider: ProviderImpl, news: Props): Promise<{ id: string; outs: Props }> {
  const checked = await provider.check({}, news);
  if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  return provider.create({ ...checked.inputs, __provider: STUB });
}

/** What the engine does for an existing resource: `check` against the old inputs, `diff`, and `update` when there are changes. */
export async function change(
  provider: ProviderImpl,
  id: string,
  state: Props,
  news: Props,
): Promise<{ diff: Awaited<ReturnType<ProviderImpl["diff"]>>; outs?: Props }> {
  const oldInputs = Object.fromEntries(
    Object.entries(state).filter(([k]) => !(OUTPUT_KEYS as readonly string[]).includes(k)),
  );
  const checked = await provider.check(oldInputs, news);
  if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  const inputs = { ...checked.inputs, __provider: STUB };
  const diff = await provider.diff(id, state, inputs);
  // undefined (DIFF_UNKNOWN): the engine diffs the inputs itself; it does so only when inputs changed.
  if (diff.changes === false) return { diff };
  if ((diff.replaces ?? []).length > 0) return { diff };
  return { diff, ...(await provider.update(id, state, inputs)) };
}

/** Everything in `outs` but the `credentials` key (which the engine keeps as a secret). */
export function withoutCredentials(outs: Props): Props {
  const { credentials, ...rest } = outs;
  void credentials;
  return rest;
}

/**
 * Requests per route since the last counter reset, but the event stream's: a stream is counted
 * when it closes, which happens after the wait that opened it, so it says nothing about the step
 * under test.
 */
export async function apiRequests(h: Harness): Promise<Record<string, number>> {
  const byRoute = (await h.ctl.counters()).requests.byRoute;
  return Object.fromEntries(Object.entries(byRoute).filter(([route]) => !route.endsWith("/events/stream")));
}

/** What the workload provider's `diff` answers for `olds` → `news`, short of its notes and its data-loss refusal. */
export function diffWorkload(olds: Props, news: Props): DiffResult {
  return diffOfChanges(classifyWorkloadChanges(olds, news), olds);
}

/** `props` as a state records them: the password of their credentials replaced by its digest (`check` seals it so). */
export function sealCredentials(props: Props): Props {
  const sealed = sealLogin(String(props.workloadId), props.credentials);
  return sealed === props.credentials ? props : { ...props, credentials: sealed };
}
