import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { EngineEvent, LocalWorkspace, OutputMap, Stack, UpdateSummary } from "@pulumi/pulumi/automation";

type Kind = "up" | "refresh" | "destroy";
const HISTORY_KIND = { up: "update", refresh: "refresh", destroy: "destroy" } as const;

/**
 * `stack`, whose `up`, `refresh` and `destroy` results come without the Automation API's extra
 * CLI runs. After each of them it runs `pulumi stack history` for the result's `summary`, and after
 * an `up` `pulumi stack output` twice (masked, then plain) for its `outputs`: 1.6 s after an up
 * that took 3.5 s for a small program, on a machine whose two cores CI keeps busy. Here the
 * summary is the engine's own summary event of the run (what tests read of it: `result`,
 * `resourceChanges`), and the outputs one plain read. `secret` is always false: tests read values.
 */
export function withLeanResults(stack: Stack): Stack {
  let summary: UpdateSummary | undefined;
  const lean = (kind: Kind) => {
    const run = stack[kind].bind(stack) as (opts?: { onEvent?: (e: EngineEvent) => void }) => Promise<unknown>;
    return (opts?: { onEvent?: (e: EngineEvent) => void }) => {
      summary = undefined;
      const onEvent = (e: EngineEvent): void => {
        if (e.summaryEvent) summary = summaryOf(kind, e.summaryEvent.resourceChanges);
        opts?.onEvent?.(e);
      };
      return run({ ...opts, onEvent });
    };
  };
  stack.up = lean("up") as Stack["up"];
  stack.refresh = lean("refresh") as Stack["refresh"];
  stack.destroy = lean("destroy") as Stack["destroy"];
  // The Automation API reads these only after the run succeeded.
  stack.info = async () => summary;
  stack.outputs = () => plainOutputs(stack);
  return stack;
}

function summaryOf(kind: Kind, resourceChanges: Record<string, number>): UpdateSummary {
  const now = new Date();
  return {
    kind: HISTORY_KIND[kind],
    result: "succeeded",
    resourceChanges,
    startTime: now,
    endTime: now,
    message: "",
    environment: {},
    config: {},
    version: 0,
  };
}

async function plainOutputs(stack: Stack): Promise<OutputMap> {
  const ws = stack.workspace as LocalWorkspace;
  const args = ["stack", "output", "--json", "--show-secrets", "--stack", stack.name];
  const env = { ...process.env, ...ws.envVars };
  const { stdout } = await promisify(execFile)(ws.pulumiCommand.command, args, { cwd: ws.workDir, env });
  const values = JSON.parse(stdout) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, secret: false }]));
}
