import { z } from "zod";
import { programDigest, settleClassDefaults } from "./class-defaults";
import { ENVELOPE_KEY, type Props } from "./props";

/** A field that may be unset: the engine passes null for an output that resolved to undefined. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/**
 * What a resource class hands `check` beside the user's inputs, under one key of the bag (`ENVELOPE_KEY`), parsed
 * once at the top of `check` and removed before anything is stored (never in state):
 *
 * - `urn`: the resource's URN, so that the provider can name it (the dynamic provider host passes
 *   `check` no URN);
 * - `credentialsDigest`: the digest of `credentials` (credentials/digest.ts), made by the class as
 *   the program runs, in parallel for every resource (the engine calls `check` one resource at a
 *   time, so digests made there add up in series). A secret on its way;
 * - `replacedBy`: the resource options that replace the resource without asking `diff`
 *   (`replaceOnChanges` beyond the class's own keys, `replacementTrigger`, `replaceWith`), which
 *   `check` refuses on a database without `allowDataLoss`;
 * - `defaulted`: the keys whose values the class filled in as `check` defaults them
 *   (inputs/class-defaults.ts), which `check` settles itself;
 * - `createsFirst`: true when the user set `deleteBeforeReplace: false`: a replacement then creates
 *   the new workload before the old one's delete, which gives its room back only after (placement);
 * - `importId`: the `import` resource option, which the class takes out of the options the engine
 *   sees (the dynamic provider host cannot serve the engine's import): the user's word that the
 *   workload it names is this resource's (ownership/import-option.ts).
 */
const Envelope = z.object({
  urn: optional(z.string()),
  credentialsDigest: optional(z.string()),
  replacedBy: optional(z.array(z.string())),
  defaulted: optional(z.array(z.string())),
  importId: optional(z.string()),
  createsFirst: optional(z.boolean()),
});

export type Envelope = z.infer<typeof Envelope>;

/** The envelope's fields as a class writes them: each may be an Output, or unset. */
export type EnvelopeArgs = { [K in keyof Envelope]?: unknown };

/**
 * The envelope of `news`, and `news` as `check` takes it: without the envelope, the class's
 * defaults settled against the state `olds`. The class's digest is kept only when it was salted
 * with the id settled on.
 */
export function openEnvelope(olds: Props, news: Props): { envelope: Envelope; given: Props } {
  const { [ENVELOPE_KEY]: sent, ...rest } = news;
  const parsed = Envelope.safeParse(sent ?? {});
  if (!parsed.success)
    throw new Error(
      `the inputs' ${ENVELOPE_KEY} is not what this package's resource classes send: ${parsed.error.message}`,
    );
  const given = settleClassDefaults(olds, rest, parsed.data.defaulted ?? []);
  const credentialsDigest = programDigest(rest, given, parsed.data.credentialsDigest);
  return { envelope: { ...parsed.data, credentialsDigest }, given };
}
