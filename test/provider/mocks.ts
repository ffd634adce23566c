import * as pulumi from "@pulumi/pulumi";

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  urn?: string;
}

/** Pulumi mocks that record every resource registered; state = inputs plus `extra(type)`. */
export async function recordResources(
  extra: (type: string) => Record<string, unknown> = () => ({}),
): Promise<Registered[]> {
  const registered: Registered[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: { ...args.inputs, ...extra(args.type) } };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    false,
  );
  return registered;
}

/** The value of an output (mocks resolve everything). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

/** Whether the output is secret. */
export function secretOf(output: pulumi.Output<unknown>): Promise<boolean> {
  return pulumi.isSecret(output);
}

/**
 * Waits until every pending registration reached the mock monitor: @pulumi/pulumi's own queue of
 * RPCs (a registration waits for its inputs, a password digest among them).
 */
export async function settle(): Promise<void> {
  const settings = (await import("@pulumi/pulumi/runtime/settings")) as unknown as { waitForRPCs(): Promise<void> };
  await settings.waitForRPCs();
}
