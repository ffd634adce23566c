import * as pulumi from "@pulumi/pulumi";
import type { WorkloadType } from "../../sdk";
import { PROVIDER_KEY } from "../dynamic/program-side";
import { TEMPLATE_RULES } from "../fields/template-fields";
import { HostedResource } from "../hosted-resource";
import { carriedTimeouts, connectionProps, refuseDeepInput, type ConnectionArgs } from "./inputs";
import { defaultedKeys } from "./shown-defaults";
import { readResourceProps } from "./read-resource";
import { dynamicType, isOfType } from "./type-token";

export interface TemplateArgs extends ConnectionArgs {
  /** The template's name (1-200 characters). */
  name: pulumi.Input<string>;
  /** What it is for (at most 2000 characters). */
  description?: pulumi.Input<string>;
  /** The workload type the template is a blueprint of. */
  kind: pulumi.Input<WorkloadType>;
  /**
   * The blueprint: the kind's spec under its spec key, `vm` for the three VM kinds, else the kind
   * itself (e.g. `{browser: {aiAgent: {enabled: true}}}`). At most 64 KB serialized. No passwords:
   * the service strips them, so they are refused at preview; credentials belong to the workload.
   */
  config: pulumi.Input<Record<string, unknown>>;
  /**
   * Take over the existing template with this id (`tpl_<hex>`) instead of creating one: the first
   * `pulumi up` reads it and fails unless `name`, `description`, `kind` and `config` equal the
   * saved ones (templates cannot be updated). `pulumi-wws import` writes it for you.
   */
  adoptId?: pulumi.Input<string>;
}

const TEMPLATE_ARGS = new Set<string>(TEMPLATE_RULES.argumentKeys);
/** Keys of the property bag that are not arguments. */
const NOT_ARGUMENTS = new Set([...TEMPLATE_RULES.outputKeys, PROVIDER_KEY]);

/**
 * A saved template. Templates cannot be updated: any change of `name`, `description`, `kind`,
 * `config` or the workspace creates a new template, then deletes the old one.
 * @see pulumi-wws/docs/fields.md#template (shipped in the package): each argument, its values, default and what a change does
 * @see pulumi-wws/provider/README.md#state-adoption-import-init-errors (shipped in the package): taking a saved template over (`adoptId`)
 */
export class Template extends HostedResource {
  /** The type token, by which `@pulumi/policy`'s `validateResourceOfType(Template, …)` and `isType` match. */
  static readonly __pulumiType = dynamicType("Template");

  /** True for a `Template`, also one of another copy of this package, or `{__pulumiType}` naming its type. */
  static isInstance(obj: unknown): obj is Template {
    return isOfType(obj, [Template.__pulumiType]);
  }

  /**
   * The template of id `<workspace>/<templateId>` (the id its managing stack's state holds), read and not managed:
   * its outputs are the live fields, `pulumi refresh` reads it again, `pulumi destroy`
   * only forgets it, and the stack that manages it keeps it. `state` gives the connection
   * (`{workspace: ws}` or its fields); unset, the stack config and then the environment.
   * A missing template fails preview naming the workspace and the id.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: ConnectionArgs,
    opts?: pulumi.CustomResourceOptions,
  ): Template {
    return new Template(name, (state ?? {}) as TemplateArgs, { ...opts, id });
  }

  /** The service-generated id, `tpl_<hex>`. */
  declare readonly templateId: pulumi.Output<string>;
  declare readonly workspace: pulumi.Output<string>;
  declare readonly baseUrl: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly kind: pulumi.Output<WorkloadType>;
  declare readonly config: pulumi.Output<Record<string, unknown>>;
  /** When the service saved it (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    if (opts?.id !== undefined) {
      // `get`: a read resource, whose state argument is only a connection.
      const read = readResourceProps(args, opts, TEMPLATE_RULES.secretKeys, TEMPLATE_RULES.properties);
      super("template", "Template", name, read.props, TEMPLATE_RULES.properties, read.opts);
      return;
    }
    refuseDeepInput("Template", name, "config", args.config);
    // Unknown arguments (JavaScript typos) go on to `check`, which refuses them naming each one.
    const extra = Object.fromEntries(Object.entries(args).filter(([k, v]) => !TEMPLATE_ARGS.has(k) && v !== undefined));
    for (const [key, value] of Object.entries(extra)) {
      if (NOT_ARGUMENTS.has(key)) throw new Error(`Template ${name}: "${key}" is not an argument of Template`);
      refuseDeepInput("Template", name, key, value);
    }
    // Every change replaces a template: said to the engine, its detailed diff marks them `*-replace`.
    const replaceOnChanges = [...new Set([...(opts?.replaceOnChanges ?? []), ...TEMPLATE_RULES.replaceOnChanges])];
    const connection = connectionProps(args, { ...opts, replaceOnChanges }, TEMPLATE_RULES.secretKeys);
    const declared = TEMPLATE_RULES.argumentKeys.filter((k) => !TEMPLATE_RULES.connectionKeys.includes(k));
    const props: pulumi.Inputs = {
      ...extra,
      ...Object.fromEntries(declared.map((k) => [k, (args as unknown as Record<string, unknown>)[k]])),
      ...connection.props,
      customTimeouts: carriedTimeouts(opts),
      // Every output must be a key here for the resource to get a property for it.
      ...Object.fromEntries(TEMPLATE_RULES.outputKeys.map((k) => [k, undefined])),
    };
    super("template", "Template", name, props, TEMPLATE_RULES.properties, connection.opts, {
      defaulted: defaultedKeys(connection.defaulted),
    });
  }
}
