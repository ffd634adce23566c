import {
  connectionProblem,
  emptySettingMessage,
  missingSettingMessage,
  type ConnectionSources,
  type ResolvedConnection,
} from "./connection";
import { failureAt, type Failure } from "../inputs/failures";
import { CONNECTION_KEYS, type Props } from "../inputs/props";
import { plainHttpProblem } from "../../../sdk";
import { networkSettings } from "./network";

/**
 * Connection settings: each must be found (argument, stack config or environment) and valid.
 * The workspace and base URL found are written into the checked inputs, so that the diff sees a
 * change of either however it was set; the API key never is (an argument stays where it is, a
 * secret; config and environment keys stay out of state). The network settings (proxy, CA
 * certificates, plain HTTP beyond loopback, from `sources`) are checked here too, so that preview
 * fails on them before anything is sent. `r`: the settings as `check` resolved them.
 */
export function checkConnection(r: ResolvedConnection, sources: ConnectionSources, inputs: Props): Failure[] {
  const failures: Failure[] = [];
  for (const field of r.empty) failures.push(failureAt([field], emptySettingMessage(field)));
  for (const field of r.missing) failures.push(failureAt([field], missingSettingMessage(field)));
  const workspaceValid = r.values.workspace !== undefined && !connectionProblem("workspace", r.values.workspace);
  if (r.conflict && workspaceValid) failures.push(failureAt(["workspace"], r.conflict));
  for (const field of CONNECTION_KEYS) {
    const value = r.values[field];
    if (value === undefined) continue;
    const problem = connectionProblem(field, value);
    if (problem)
      failures.push(
        failureAt(
          [field],
          `${problem}${r.from[field] === "args" ? "" : ` (from ${r.from[field] === "config" ? "the stack config" : "the environment"})`}`,
        ),
      );
    else if (field !== "apiKey") inputs[field] = value;
  }
  const network = networkSettings(sources);
  for (const p of network.problems) failures.push({ property: "", reason: p.message });
  const baseUrl = r.values.baseUrl;
  const insecure =
    baseUrl &&
    !connectionProblem("baseUrl", baseUrl) &&
    plainHttpProblem(baseUrl, network.options.allowInsecureHttp === true);
  if (insecure) failures.push(failureAt(["baseUrl"], insecure));
  return failures;
}
