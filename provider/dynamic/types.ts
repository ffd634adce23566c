import type { Failure } from "./inputs/failures";
import type { DiffResult } from "./diff-result";
import type { StackConfig } from "./service/connection";
import type { Props } from "./inputs/props";

/** What `check` returns: the inputs as checked (connection settings found, transient keys gone) and every failure. */
export interface CheckOutcome {
  inputs: Props;
  failures: Failure[];
}

/**
 * The methods `pulumi.dynamic.ResourceProvider` calls, with the shapes its host (`@pulumi/pulumi`
 * cmd/dynamic-provider) sends and reads. Declared here so the implementation needs no runtime
 * import of `@pulumi/pulumi`; `test/provider` checks they stay assignable to its interface.
 */
export interface ProviderImpl {
  configure(req: { config: StackConfig }): Promise<void>;
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: Failure[] }>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}
