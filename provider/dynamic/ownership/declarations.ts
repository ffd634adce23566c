/**
 * The engine's order of calls, as this provider rests on it: what `check` records (here, in the
 * credentials vault, in the import proofs) is read by the calls that follow it in the same process.
 * Each assumption names the test that pins it (a real `pulumi` run where one exists); a change of
 * the engine that breaks one fails that test.
 *
 * 1. One provider process serves every resource of a deployment with the same provider text
 *    (provider/hosted-resource.ts), and the engine checks a resource before it creates or updates
 *    it. Not assumed: that every check comes before every create (the engine steps a resource as
 *    soon as the program registers it): only a preview's checks all come before anything is sent.
 *    - Two resources declaring one workload are refused at `check` (`declaredTwice`):
 *      test/reliability/cli-first-week.test.ts, "should refuse two resources naming one workload id,
 *      naming both, before anything is sent".
 *    - The password `check` sealed is put back by `create` and `update` (credentials/digest.ts,
 *      `CredentialVault`); in a process that did not check, a create fails, sending nothing:
 *      test/provider/credentials/digest.test.ts, "should check into inputs without the password,
 *      create with it, and keep it out of outputs" and "should fail a create whose password this
 *      process never saw, naming the workload, and send nothing"; through `pulumi up`, the
 *      database's create of test/reliability/cli-ownership.test.ts, "should refuse a move into a
 *      component without aliases at preview, …".
 *    - An `import` option proven by `check` lets `create` record the workload (import-option.ts,
 *      `ImportProofs`); unproven in this process, the create refuses, sending nothing:
 *      test/e2e/import-rename.test.ts, "should keep, import and rename workloads as Pulumi documents,
 *      …"; test/provider/workloads/lifecycle.test.ts, "should refuse, sending nothing, the create of
 *      an import that another provider process checked: …".
 * 2. The deletes of resources the program no longer declares come after the program ran, so after
 *    every check of the run: `newHolderOf` finds the resource that took the workload over (`adopt`
 *    after a move), and the old resource's delete leaves the workload:
 *    test/reliability/cli-ownership.test.ts, "should refuse a move into a component without aliases
 *    at preview, move with aliases sending nothing, and keep the workload when adopt moves it back";
 *    test/provider/workloads/lifecycle.test.ts, "should leave a workload another resource of the run
 *    now holds, dropping only the old resource (adopt after a move)".
 * 3. A replacement `diff` asked for is checked twice: with its state, then without it, as the new
 *    resource (`exists`, `recordHeld`): its id is not refused as somebody else's
 *    (service/check-live.ts), an `import` option that stays is refused (import-option.ts), and the
 *    old resource's delete goes out (`newHolderOf`): test/reliability/cli-replacements.test.ts,
 *    "should replace a pod through every door, …" (its replaceOnChanges and replacementTrigger
 *    doors); test/provider/workloads/lifecycle.test.ts, "should still delete the workload of a
 *    resource that is replaced: its replacement was checked with the state that held it".
 * 4. `pulumi up --replace` and `--target-replace`: the engine checks the resource without its state,
 *    calls no `diff`, and tells the provider nothing; the flags are read from the command line
 *    (engine/replace-targets.ts, workloads/replacement.ts): test/reliability/cli-replacements.test.ts,
 *    "should replace a pod through every door, …" (its --replace and --target-replace doors, and the
 *    database's --replace refusal).
 * 5. `replaceWith`: the resource replaced along with another is checked again without its state,
 *    and deleted before it is created again; its id is not refused as somebody else's:
 *    test/reliability/cli-replacements.test.ts, "should replace a pod through every door, …" (the
 *    pod "rw" replaced along with "rp"). It passes without `takenForItself` (workloads/replacement.ts)
 *    too: the resource's check with its state, earlier in the same run, already marked it as existing.
 * 6. A replacement's create comes before the old resource's delete unless `deleteBeforeReplace`: a
 *    workload's id is its own, so every workload class sets it (resources/replacement-options.ts) and
 *    the old workload is gone before the create reads its id (ownership/create-plan.ts):
 *    test/reliability/cli-replacements.test.ts, "should replace a pod through every door, delete
 *    first, …"; test/provider/workloads/replacement.test.ts, "should delete before replacing unless
 *    the user said otherwise"; test/provider/workloads/lifecycle.test.ts, "should replace a VM of
 *    another os by deleting it first, since the id is reused".
 * 7. The host passes `delete` no URN; the engine's Delete RPC carries it, and it is read before the
 *    host's handler runs (engine/deletes.ts): test/provider/engine/deletes.test.ts, "should know a
 *    deleted resource's URN by its id before the host's handler runs". With it, a database the
 *    program still declares (checked in this run: `dataLossAllowedFor`) is not deleted by a
 *    replacement no check saw (`pulumi state taint`): test/reliability/cli-replacements.test.ts,
 *    "should replace a pod through every door, …" (the database's taint door).
 */
import { normalizedBaseUrl } from "../../../sdk";
import { failureAt, type Failure } from "../inputs/failures";
import type { Props } from "../inputs/props";

/**
 * Which resource of this deployment declares each workload. The engine checks every resource of
 * one run in this one provider process (the order of calls above, 1), so a workload named by two
 * resources is seen here at `check`, before anything is sent.
 */
export class Declarations {
  private readonly owners = new Map<string, string>();
  /** URNs checked with a state: resources that exist, whatever a later check without olds says. */
  private readonly existing = new Set<string>();
  /** Per workload, the URNs whose state held it when checked: a replacement of its own resource. */
  private readonly holders = new Map<string, Set<string>>();
  /** Per URN checked in this run, whether its checked inputs say `allowDataLoss: true`. */
  private readonly dataLossAllowed = new Map<string, boolean>();

  /**
   * Records that `urn` was checked with (`olds`) or without a state; answers whether it exists. A
   * replacement is checked twice: with its state, then without, as the new resource it creates.
   */
  exists(urn: unknown, checkedWithState: boolean): boolean {
    if (typeof urn !== "string") return checkedWithState;
    if (checkedWithState) this.existing.add(urn);
    return this.existing.has(urn);
  }

  /**
   * Records `urn` as the declarer of workload `id` of `workspace` at `baseUrl`; returns the URN of
   * another resource that declared it already, if any (the workload is then left to that one).
   */
  claim(baseUrl: string, workspace: string, id: string, urn: string): string | undefined {
    const key = keyOf(baseUrl, workspace, id);
    const owner = this.owners.get(key);
    if (owner !== undefined && owner !== urn) return owner;
    this.owners.set(key, urn);
    return undefined;
  }

  /** Records that the state of `urn` held workload `id` of `workspace` at `baseUrl` when it was checked. */
  held(baseUrl: string, workspace: string, id: string, urn: string): void {
    const key = keyOf(baseUrl, workspace, id);
    const set = this.holders.get(key) ?? new Set<string>();
    set.add(urn);
    this.holders.set(key, set);
  }

  /**
   * The URN of a resource of this deployment that declares the workload and did not hold it before
   * (created or adopted it now): a delete of the workload removes that resource's workload, not
   * the deleted resource's. The engine tells `delete` no URN, but a resource that is replaced was
   * checked with the state that held the workload, so its own replacement is never taken for another.
   */
  newHolderOf(baseUrl: string, workspace: string, id: string): string | undefined {
    const key = keyOf(baseUrl, workspace, id);
    const owner = this.owners.get(key);
    return owner !== undefined && !this.holders.get(key)?.has(owner) ? owner : undefined;
  }

  /** Records that the program declares `urn` in this run, and whether it allows losing its data. */
  declared(urn: string, allowDataLoss: boolean): void {
    this.dataLossAllowed.set(urn, allowDataLoss);
  }

  /**
   * For the delete of the resource `urn`: undefined when this run's program does not declare it (a
   * removal, `pulumi destroy`); else whether it allows losing its data. A resource the program
   * still declares is deleted only to be replaced.
   */
  dataLossAllowedFor(urn: string): boolean | undefined {
    return this.dataLossAllowed.get(urn);
  }

  /** The URN of the resource that declared the workload, when its program sent one. */
  urnOf(baseUrl: string, workspace: string, id: string): string | undefined {
    return this.owners.get(keyOf(baseUrl, workspace, id));
  }
}

/**
 * A workload is its base URL, workspace and id, whatever API key reaches it. The base URL is
 * normalised as a `WorkspaceConnection`'s is, so the URL a program wrote and a client's agree.
 */
function keyOf(baseUrl: string, workspace: string, id: string): string {
  return `${normalizedBaseUrl(baseUrl) ?? baseUrl}\n${workspace}\n${id}`;
}

/** `Pod "api"` for `urn:pulumi:dev::infra::pulumi-nodejs:dynamic/wws:Pod::api`. */
export function describeUrn(urn: string): string {
  const parts = urn.split("::");
  const name = parts.slice(3).join("::");
  const type = (parts[2] ?? "").split("$").pop() ?? "";
  const className = type.replace(/^pulumi-nodejs:dynamic\/wws:/, "");
  return `${className} "${name}"`;
}

/** Records the workload the state (`olds`) of the resource `urn` held, when it is known. */
export function recordHeld(declarations: Declarations, urn: unknown, olds: Props): void {
  const { baseUrl, workspace, workloadId } = olds;
  if (typeof urn !== "string" || typeof baseUrl !== "string") return;
  if (typeof workspace !== "string" || typeof workloadId !== "string") return;
  declarations.held(baseUrl, workspace, workloadId, urn);
}

/**
 * The failure of a resource (`urn`) that declares a workload another resource of the deployment
 * declared first; undefined when it is the first, or when the URN, workspace, base URL or id is
 * not known (a program of an older version sends no URN; preview may not know the others yet).
 */
export function declaredTwice(declarations: Declarations, urn: unknown, inputs: Props): Failure | undefined {
  const { baseUrl, workspace, workloadId } = inputs;
  if (typeof urn !== "string" || typeof baseUrl !== "string") return undefined;
  if (typeof workspace !== "string" || typeof workloadId !== "string") return undefined;
  const other = declarations.claim(baseUrl, workspace, workloadId, urn);
  if (other === undefined) return undefined;
  return failureAt(
    ["workloadId"],
    `workload ${workloadId} of workspace ${workspace} is also declared by ${describeUrn(other)} (${other}): ` +
      `a workload belongs to one resource, and two would overwrite each other's spec. ` +
      `Give ${describeUrn(urn)} a workloadId of its own, or remove one of the two`,
  );
}
