import * as pulumi from "@pulumi/pulumi";
import type { WorkloadType } from "../../sdk";
import { PROVIDER_KEY } from "../dynamic/program-side";
import { TEMPLATE_RULES } from "../fields/template-fields";
import { HostedResource } from "../hosted-resource";
import { carriedTimeouts, connectionProps, refuseDeepInput } from "./inputs";
import type { TemplateArgs } from "./args";

export type { TemplateArgs } from "./args";
import { defaultedKeys } from "./shown-defaults";
import { readResourceProps } from "./read-resource";
import { dynamicType } from "./type-token";

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
  static readonly __pulumiType = dynamicType("Template");
  declare static isInstance: (obj: unknown) => obj is Template;

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
