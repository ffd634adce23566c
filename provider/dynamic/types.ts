import type { Failure } from "./failures";
import type { DiffResult } from "./diff-workload";
import type { StackConfig } from "./connection";
import type { Props } from "./props";

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
