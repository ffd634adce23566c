import type { LiveWorkload, LiveWorkspace, SavedTemplate, WorkloadStatus } from "../../sdk";
import { PROVIDER_TEXT } from "../../provider/hosted-resource";
import { dynamicType } from "../../provider/resources/type-token";
import { formatId } from "../../provider/dynamic/inputs/ids";
import type { Props } from "../../provider/dynamic/inputs/props";
import { recorded } from "../../provider/dynamic/workloads/recorded-status";
import { parseWorkload, writeWorkload } from "../../provider/dynamic/workloads/model";
import { classNameOf, needsPassword, templateNames } from "./render-program";

/**
 * `import.json`, for `pulumi import --file import.json`: one entry per workload and template,
 * under the names and types `index.ts` declares them with. At this engine (3.259) an import reads
 * the resource with neither inputs nor state, which the dynamic provider host cannot serve: it
 * loads the provider from the `__provider` property those would carry (pulumi/pulumi#16175). An
 * entry that carries `inputs` and `outputs` is recorded from them instead, with `Read` skipped;
 * so each entry carries what `check` and `create` would have recorded for the declaration,
 * `__provider` (the one line of provider/hosted-resource.ts) included.
 *
 * A workload declared with a login (a database, a VM whose AI daemon is on: `needsPassword`) is
 * left out: the service never shows a password, so a file cannot record the login's digest, and
 * the declared login would then read as new credentials, which replace a database. The `import`
 * option in `index.ts` records those with the password set in the stack config, sending nothing.
 */
export function renderImportFile(live: LiveWorkspace): string {
  const connection = { workspace: live.workspace, baseUrl: live.baseUrl };
  const names = templateNames(live.templates);
  const resources = [
    ...live.workloads.filter((w) => !needsPassword(w)).map((w) => workloadEntry(w, connection)),
    ...live.templates.map((t, i) => templateEntry(t, names[i], connection)),
  ];
  return JSON.stringify({ resources }, null, 2) + "\n";
}

function workloadEntry(w: LiveWorkload, connection: Props): Props {
  const inputs: Props = {
    ...connection,
    workloadId: w.id,
    type: w.type,
    ...w.spec,
    __provider: PROVIDER_TEXT.workload,
  };
  const outputs = writeWorkload(recorded(parseWorkload(inputs), w.status as WorkloadStatus | undefined));
  return {
    type: dynamicType(classNameOf(w)),
    name: w.id,
    id: formatId(String(connection.workspace), w.id),
    inputs,
    outputs,
  };
}

function templateEntry(t: SavedTemplate, name: string, connection: Props): Props {
  const inputs: Props = {
    ...connection,
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    kind: t.kind,
    config: t.config,
    adoptId: t.id,
    __provider: PROVIDER_TEXT.template,
  };
  const outputs = { ...inputs, templateId: t.id, createdAt: t.createdAt };
  return { type: dynamicType("Template"), name, id: formatId(String(connection.workspace), t.id), inputs, outputs };
}
