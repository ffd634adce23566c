/* eslint-disable @typescript-eslint/no-require-imports -- the point of this file: a require by package name, run in the provider process */
import type * as pulumi from "@pulumi/pulumi";

/**
 * The providers handed to `pulumi.dynamic.Resource`. Pulumi serializes the provider object into
 * every resource's state (`__provider`) and the engine's dynamic provider host evaluates that text
 * to run `check`, `diff`, `create`, … So these objects hold nothing but arrow functions that
 * `require` the implementation by package name at run time and delegate:
 *
 * - `require` is never captured by the closure serializer (it is a Node global to it), so the text
 *   is a few small functions: no implementation code, no module path of this machine, no secret,
 *   no connection object;
 * - the text never changes when the package is upgraded, so upgrading never changes `__provider`
 *   and never replaces or updates a resource by itself; the new implementation is simply loaded;
 * - the host loads the text as a module under the program's directory, so `pulumi-wws` resolves
 *   from the program's `node_modules` (the same copy the program uses).
 *
 * Do not add captured variables, helpers or `this` here: each would be serialized too.
 */
export const workloadProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => require("pulumi-wws/provider/dynamic").workload.configure(req),
  check: (olds, news) => require("pulumi-wws/provider/dynamic").workload.check(olds, news),
  diff: (id, olds, news) => require("pulumi-wws/provider/dynamic").workload.diff(id, olds, news),
  create: (inputs) => require("pulumi-wws/provider/dynamic").workload.create(inputs),
  read: (id, props) => require("pulumi-wws/provider/dynamic").workload.read(id, props),
  update: (id, olds, news) => require("pulumi-wws/provider/dynamic").workload.update(id, olds, news),
  delete: (id, props) => require("pulumi-wws/provider/dynamic").workload.delete(id, props),
};

/** The provider of `Template`; same rules as `workloadProvider`. */
export const templateProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => require("pulumi-wws/provider/dynamic").template.configure(req),
  check: (olds, news) => require("pulumi-wws/provider/dynamic").template.check(olds, news),
  diff: (id, olds, news) => require("pulumi-wws/provider/dynamic").template.diff(id, olds, news),
  create: (inputs) => require("pulumi-wws/provider/dynamic").template.create(inputs),
  read: (id, props) => require("pulumi-wws/provider/dynamic").template.read(id, props),
  update: (id, olds, news) => require("pulumi-wws/provider/dynamic").template.update(id, olds, news),
  delete: (id, props) => require("pulumi-wws/provider/dynamic").template.delete(id, props),
};
