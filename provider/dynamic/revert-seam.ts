/**
 * What the drift watch's `--revert` needs of the provider, with a context of its own: read one
 * managed workload, say what putting its record back would change, and put it back by the
 * provider's own `update`, sending the values the stack's state recorded (never a program's).
 * Outside the engine: nothing here takes the stack's lock or writes its state. The state already
 * holds the values put back; a later `refresh` reads them as recorded.
 */
import { createContext, type ManagedContext } from "./context";
import type { StackConfig } from "./service/connection";
import { PROVIDER_KEY, inputsOf, type Props } from "./inputs/props";
import { classifyWorkloadChanges, type WorkloadChanges } from "./workloads/diff";
import { createWorkloadProvider } from "./workloads/provider";
import type { ProviderImpl } from "./types";

export interface RevertSeam {
  /** The workload `id` (`workspace/id`) as the provider reads it; undefined when the service no longer has it. */
  read(id: string, recordedOutputs: Props): Promise<Props | undefined>;
  /** What an update from `live` to the recorded inputs would do, by the fields' declarations. */
  changesToRecord(live: Props, recordedInputs: Props): WorkloadChanges;
  /** The provider's `update` of `id` from `live` to the recorded inputs: sends them and waits as `pulumi up` would. */
  putBack(id: string, live: Props, recordedInputs: Props): Promise<void>;
  /** Ends the update's calls and wait now (a stopped watch). */
  cancel(): void;
  close(): Promise<void>;
}

/** The recorded inputs as the provider's methods take them: without the serialized provider. */
function withoutProvider(inputs: Props): Props {
  return Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== PROVIDER_KEY));
}

/** A seam over a context of its own: `config` is the stack's (its connection settings), `env` the watch's. */
export function openRevertSeam(config: StackConfig, env: NodeJS.ProcessEnv): RevertSeam {
  // Progress lines would go to stdout, which `--json` keeps for findings: the watch reports the outcome itself.
  const ctx: ManagedContext = createContext({ config, env, progress: { write: () => undefined } });
  const provider: ProviderImpl = createWorkloadProvider(ctx);
  return {
    async read(id, recordedOutputs) {
      const read = await provider.read(id, recordedOutputs);
      return read.id && read.props ? read.props : undefined;
    },
    changesToRecord: (live, recordedInputs) => classifyWorkloadChanges(inputsOf(live), withoutProvider(recordedInputs)),
    async putBack(id, live, recordedInputs) {
      await provider.update(id, live, withoutProvider(recordedInputs));
    },
    cancel: () => ctx.cancel(),
    close: () => ctx.close(),
  };
}
