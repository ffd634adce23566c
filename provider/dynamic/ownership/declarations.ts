import { normalizedBaseUrl } from "../../../sdk";
import { failureAt, type Failure } from "../inputs/failures";
import type { Props } from "../inputs/props";

/**
 * Which resource of this deployment declares each workload. The engine checks every resource of
 * one run in this one provider process (one process per provider text, see provider/hosted-resource.ts), so a
 * workload named by two resources is seen here at `check`, before anything is sent.
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
