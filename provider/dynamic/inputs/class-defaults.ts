import type { Props } from "./props";

/**
 * Values the resource classes fill in as `check` defaults them, so that the inputs the engine
 * holds from the program carry the keys the checked inputs carry: `pulumi refresh --run-program`
 * shows each row's program inputs beside its state's, and a key only `check` added read as
 * deleted there (`[diff: -baseUrl]`) where nothing changed. The envelope's `defaulted` names them
 * (inputs/envelope.ts); here their values are taken out and each is settled as before:
 *
 * - `baseUrl`, `workspace` (from the stack config or the environment): resolved by `check` from
 *   its own sources, so that its messages still name where each came from;
 * - `workloadId` (the resource name): an unset id follows the state, as Pulumi's auto-naming
 *   does. A resource that has a state (also one found through `aliases`, or renamed by
 *   `pulumi state rename`) keeps the id it holds, so a rename keeps the workload; a new one takes
 *   its name. A replacement is checked again without a state, and takes its name.
 */
export function settleClassDefaults(olds: Props, news: Props, defaulted: readonly string[]): Props {
  if (defaulted.length === 0) return news;
  const settled: Props = { ...news };
  for (const key of defaulted) if (key !== "workloadId") delete settled[key];
  if (defaulted.includes("workloadId") && olds.workloadId !== undefined) settled.workloadId = olds.workloadId;
  return settled;
}

/**
 * The digest the class made of the credentials as the program ran, when it is salted with the id
 * `check` settled on: the class salts it with the id it knows (the one set, or the resource name),
 * which a renamed resource no longer holds. Undefined otherwise: made again.
 */
export function programDigest(news: Props, settled: Props, digest: string | null | undefined): string | undefined {
  return news.workloadId === settled.workloadId && typeof digest === "string" ? digest : undefined;
}
