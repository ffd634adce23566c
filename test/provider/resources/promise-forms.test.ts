import * as pulumi from "@pulumi/pulumi";
import {
  getFleetHosts,
  getTemplate,
  getWorkload,
  getWorkloadStatus,
  listTemplates,
  listWorkloads,
} from "../../../provider";
import { recordResources } from "../mocks";

/** What a preview gives for an output of a resource not created yet. */
const notYet = (): pulumi.Output<never> => pulumi.output(pulumi.unknown) as pulumi.Output<never>;

describe("a Promise-form function given a value not known yet", () => {
  beforeAll(async () => {
    await recordResources();
  });

  // Each used to wait forever: an unknown value is never given to `apply`.
  it.each<[string, () => PromiseLike<unknown>, string, string]>([
    ["getWorkload", () => getWorkload({ workloadId: notYet() }), "workloadId", "getWorkloadOutput"],
    ["listWorkloads", () => listWorkloads({ kind: notYet() }), "kind", "listWorkloadsOutput"],
    ["getTemplate by id", () => getTemplate({ templateId: notYet() }), "templateId", "getTemplateOutput"],
    ["getTemplate by name", () => getTemplate({ name: notYet() }), "name", "getTemplateOutput"],
    ["listTemplates", () => listTemplates({ workspace: notYet() }), "workspace", "listTemplatesOutput"],
    ["getWorkloadStatus", () => getWorkloadStatus({ workloadId: notYet() }), "workloadId", "getWorkloadStatusOutput"],
    ["getFleetHosts", () => getFleetHosts({ baseUrl: notYet() }), "baseUrl", "getFleetHostsOutput"],
    ["an unknown API key", () => getWorkload({ workloadId: "w", apiKey: notYet() }), "apiKey", "getWorkloadOutput"],
  ])("%s: fails at once, naming the argument and the Output form", async (_, call, argument, outputForm) => {
    const what = outputForm.replace(/Output$/, "");
    await expect(Promise.resolve(call())).rejects.toThrow(
      `${what}: ${argument} is not known yet (at preview, it is an output of a resource that is not created yet), ` +
        `and the Promise form cannot wait for it: use ${outputForm}, which takes an Output`,
    );
  });
});
