import { createHash } from "node:crypto";
import { checkTemplate } from "../provider/dynamic/templates/check";
import { formatId } from "../provider/dynamic/inputs/ids";
import { PROVIDER_KEY } from "../provider/dynamic/inputs/props";
import { openEnvelope } from "../provider/dynamic/inputs/envelope";
import { TEMPLATE_RULES } from "../provider/fields/template-fields";
import { checkFailureText } from "./engine-text";
import type { MockOutcome, MockRun, ProgramResource } from "./mock-run";

/**
 * A `Template` as the provider takes it: `check`, then the outputs of a saved template. Its id is
 * derived from the resource and its fields, so that a test may compare it, and a change of a field
 * (which replaces a template) gives a new one.
 */
export function mockTemplate(r: ProgramResource, run: MockRun): MockOutcome {
  const { inputs, failures } = checkTemplate(openEnvelope({}, r.inputs).given, run.sources);
  if (failures.length > 0)
    return { errors: failures.map((f) => checkFailureText(r.type, r.name, f, r.inputs, r.secretKeys)) };
  delete inputs[PROVIDER_KEY];
  const urn = r.urn ?? r.name;
  const body = TEMPLATE_RULES.bodyKeys.map((k) => inputs[k]);
  const templateId = `tpl_${createHash("sha256")
    .update(JSON.stringify([urn, inputs.workspace, body]))
    .digest("hex")
    .slice(0, 16)}`;
  const olds = run.state.get(urn);
  const createdAt = olds?.templateId === templateId ? olds.createdAt : run.now.toISOString();
  return {
    id: formatId(String(inputs.workspace), templateId),
    inputs,
    outputs: { ...inputs, templateId, createdAt },
  };
}
