import type * as pulumi from "@pulumi/pulumi";

/**
 * The `import` resource option of a workload, taken out of the options the engine sees. The
 * engine's import reads the resource with neither state nor inputs, which the dynamic provider
 * host cannot serve (pulumi/pulumi#16175): it fails before our code runs. So the class registers
 * an ordinary resource and sends the id the user named to `check` alone, as their word that the
 * workload is this resource's: it joins the stack as `adopt` does, with nothing sent, when it runs
 * the declared spec (ownership/import-option.ts). Nothing of it is kept in the state, so removing
 * the option afterwards, as Pulumi's docs say to, changes nothing.
 */
export function takeImportOption<O extends pulumi.CustomResourceOptions>(
  opts: O | undefined,
): { opts: O | undefined; importId: pulumi.Input<string> | undefined } {
  if (opts?.import === undefined) return { opts, importId: undefined };
  const { import: importId, ...rest } = opts;
  return { opts: rest as O, importId };
}
