import type { WorkloadStatus } from "../sdk";
import { checkWorkload } from "../provider/dynamic/workloads/check";
import { CredentialVault, loginOf } from "../provider/dynamic/credentials/digest";
import { databaseReplacement, replacementOptionsFailure } from "../provider/dynamic/workloads/data-loss";
import { declaredTwice } from "../provider/dynamic/ownership/declarations";
import { classifyWorkloadChanges } from "../provider/dynamic/workloads/diff";
import { formatId } from "../provider/dynamic/inputs/ids";
import { PROVIDER_KEY, type Props } from "../provider/dynamic/inputs/props";
import { openEnvelope } from "../provider/dynamic/inputs/envelope";
import { recorded } from "../provider/dynamic/workloads/recorded-status";
import { parseWorkload, specFields, writeWorkload, type WorkloadModel } from "../provider/dynamic/workloads/model";
import { statusRecord } from "../server/workloads/status";
import { checkFailureText } from "./engine-text";
import type { MockOutcome, MockRun, ProgramResource } from "./mock-run";

/** The generation and restart count after this run: a new workload starts at 1, an update or restart adds one. */
function counters(olds: Props, news: Props): { generation: number; restartCount: number } | { error: string } {
  if (olds.workloadId === undefined) return { generation: 1, restartCount: 0 };
  const changes = classifyWorkloadChanges(olds, news);
  const replacement = databaseReplacement(changes, olds, news);
  if (replacement && !replacement.allowed) return { error: replacement.error.message };
  if (changes.replaces.length > 0) return { generation: 1, restartCount: 0 };
  const generation = Number(olds.generation ?? 1) + (changes.updates.length > 0 || changes.restart ? 1 : 0);
  return { generation, restartCount: Number(olds.restartCount ?? 0) + (changes.restart ? 1 : 0) };
}

/** The `/status` the local service reports of `m` once it runs. */
export function runningStatus(
  m: WorkloadModel,
  run: MockRun,
  generation: number,
  restartCount: number,
): WorkloadStatus {
  const record = {
    id: m.identity.workloadId,
    type: m.identity.type,
    spec: specFields(m),
    phase: "Running" as const,
    updatedAt: run.now.toISOString(),
    generation,
    observedGeneration: generation,
    restartCount,
    adminReady: true,
  };
  return statusRecord(record, String(m.connection.workspace), run.workloadDomain) as unknown as WorkloadStatus;
}

/**
 * A workload resource as the provider takes it: `check` (every field, did-you-mean, one owner per
 * workload id), then against what an earlier run recorded the diff's data-loss rule; else the
 * outputs `pulumi up` records once the workload runs, the password replaced by its digest. The
 * reads `check` makes of a live service are not made: there is none.
 */
export async function mockWorkload(r: ProgramResource, run: MockRun): Promise<MockOutcome> {
  const olds = (r.urn === undefined ? undefined : run.state.get(r.urn)) ?? {};
  const { envelope, given } = openEnvelope(olds, r.inputs);
  const { inputs, failures } = checkWorkload(olds, given, run.sources, { importId: envelope.importId });
  const twice = declaredTwice(run.declarations, r.urn, inputs);
  if (twice) failures.push(twice);
  const replacedBy = replacementOptionsFailure(inputs, envelope.replacedBy);
  if (replacedBy) failures.push(replacedBy);
  if (failures.length > 0)
    return { errors: failures.map((f) => checkFailureText(r.type, r.name, f, r.inputs, r.secretKeys)) };

  delete inputs[PROVIDER_KEY];
  const checked = await new CredentialVault().seal(
    inputs,
    envelope.credentialsDigest,
    loginOf(olds.credentials)?.digest,
  );
  const next = counters(olds, checked);
  if ("error" in next) return { errors: [next.error] };
  const m = parseWorkload(checked);
  const outputs = writeWorkload(recorded(m, runningStatus(m, run, next.generation, next.restartCount)));
  return { id: formatId(String(m.connection.workspace), m.identity.workloadId), inputs: checked, outputs };
}
