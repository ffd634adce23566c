/**
 * `pulumi-wws/testing`: test your own stacks against the local service, the way LocalStack or
 * Testcontainers serve cloud providers. Needs the `pulumi` CLI on PATH (or `pulumiCommand`).
 *
 * @example
 * const svc = await startLocalService();
 * const s = await createTestStack({ service: svc, projectDir: "." });
 * await s.stack.up();
 * expect((await svc.client.getSpec()).workloads).toHaveLength(3);
 * await s.close(); await svc.close();
 *
 * Or without a service or CLI, in milliseconds: `WwsMocks`, `pulumi.runtime.Mocks` that run the
 * provider's own checks (see its doc).
 */
export { startLocalService, type LocalService, type LocalServiceOptions } from "./service";
export { createTestStack, type TestStack, type TestStackOptions } from "./stack";
export { WwsMocks, type WwsMocksOptions, type MockedResource } from "./mocks";
export type { MockLive } from "./mock-reads";
