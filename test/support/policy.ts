/**
 * A policy pack's resource policies run over resources in this process, as `@pulumi/policy`'s
 * analyzer runs them for the engine (server.js, `makeAnalyzeRpcFun` 1.21): a policy whose
 * validation carries a `__pulumiType` is skipped for other types, `isType`/`asType` match as its
 * `isTypeOf` does (the class's `__pulumiType`, else its `isInstance({__pulumiType})`), and
 * `notApplicable` ends that policy for that resource. For unit tests of a pack's rules: no engine.
 */
import type { ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";

export interface AnalyzedResource {
  type: string;
  name: string;
  /** The inputs the engine hands a policy: the provider's checked inputs. */
  props: Record<string, unknown>;
}

export interface Violation {
  policy: string;
  resource: string;
  message: string;
}

class NotApplicable extends Error {}

/** @pulumi/policy's `isTypeOf`. */
function isTypeOf(type: string, resourceClass: unknown): boolean {
  const c = resourceClass as { __pulumiType?: unknown; isInstance?: (o: unknown) => boolean };
  if (typeof c.__pulumiType === "string" && c.__pulumiType !== "") return c.__pulumiType === type;
  return typeof c.isInstance === "function" && c.isInstance({ __pulumiType: type }) === true;
}

function argsOf(r: AnalyzedResource): ResourceValidationArgs {
  const args = {
    type: r.type,
    name: r.name,
    urn: `urn:pulumi:stack::project::${r.type}::${r.name}`,
    props: r.props,
    opts: {},
    stackTags: new Map(),
    isType: (c: unknown) => isTypeOf(r.type, c),
    asType: (c: unknown) => (isTypeOf(r.type, c) ? r.props : undefined),
    getConfig: () => ({}),
    notApplicable: (reason?: string) => {
      throw new NotApplicable(reason);
    },
  };
  return args as unknown as ResourceValidationArgs;
}

/** Every violation `policies` report of `resources`, in order. */
export async function analyze(
  policies: readonly ResourceValidationPolicy[],
  resources: readonly AnalyzedResource[],
): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const p of policies) {
    if (p.enforcementLevel === "disabled" || p.validateResource === undefined) continue;
    const validations = Array.isArray(p.validateResource) ? p.validateResource : [p.validateResource];
    for (const r of resources) {
      for (const validate of validations) {
        const only = (validate as { __pulumiType?: string }).__pulumiType;
        if (only !== undefined && only !== r.type) continue;
        try {
          await validate(argsOf(r), (message) => violations.push({ policy: p.name, resource: r.name, message }));
        } catch (err) {
          if (!(err instanceof NotApplicable)) throw err;
        }
      }
    }
  }
  return violations;
}
