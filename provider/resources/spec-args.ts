import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { createBodyFields, type CREATE_BODY, type WorkloadType } from "../../sdk";
import type { SpecFieldOf, WORKLOAD_FIELDS } from "../fields/workload-fields";
import type { WorkloadCommonArgs } from "./args";

/** The keys of args `A` that are neither common to every workload, a workload field, nor one of `Own` (the class's own, like a VM's `os`). */
type DeclaredSpecOf<A, Own> = Exclude<keyof A, keyof WorkloadCommonArgs | keyof typeof WORKLOAD_FIELDS | Own>;

/**
 * `true` when the arguments `A` of a class declare exactly the spec fields of type `T`'s create body
 * (the SDK's zod schema, the one declaration of a spec field); otherwise what drifted, so that
 * `const ok: SpecArgsMatch<PodArgs, "pod"> = true` does not compile (test/provider/resources/spec-args.test.ts).
 */
export type SpecArgsMatch<A, T extends WorkloadType, Own = never> = [
  Exclude<SpecFieldOf<T>, DeclaredSpecOf<A, Own>>,
  Exclude<DeclaredSpecOf<A, Own>, SpecFieldOf<T>>,
] extends [never, never]
  ? true
  : {
      missingFromArgs: Exclude<SpecFieldOf<T>, DeclaredSpecOf<A, Own>>;
      notInBody: Exclude<DeclaredSpecOf<A, Own>, SpecFieldOf<T>>;
    };

/** The spec arguments of `args`: the fields of type `type`'s create body, read from the schema, not listed again. */
export function specArgsOf(type: WorkloadType, args: object): Record<string, unknown> {
  const given = args as Record<string, unknown>;
  return Object.fromEntries(createBodyFields(type).flatMap((k) => (k === "credentials" ? [] : [[k, given[k]]])));
}

/**
 * The live spec fields a read resource (`Class.get`) has as outputs, typed from type `T`'s create
 * body: every field but `id` and `credentials`, undefined where the live spec leaves it out.
 */
export type LiveSpec<T extends WorkloadType> = {
  readonly [K in SpecFieldOf<T>]-?: pulumi.Output<z.input<(typeof CREATE_BODY)[T]>[K]>;
};
