import {
  ConflictError,
  ForbiddenError,
  UnauthorizedError,
  ValidationError,
  WorkspaceClient,
  waitForWorkload,
} from "../../../sdk";
import { expectNoSecret } from "../secrets";
import { KEYS, startHarness, uid, type Harness } from "./service";

const PASSWORD = "db-Secret-Pa55word";
const OTHER_PASSWORD = "another-Secret-Pa55";

describe("credentials never reach an error", () => {
  let h: Harness;
  let client: WorkspaceClient;
  const secrets = [KEYS.demo, KEYS.other, PASSWORD, OTHER_PASSWORD, "wrong-key-Secret-1"];

  beforeAll(async () => {
    h = await startHarness({ reconcileMs: 20 });
    client = h.client();
  });
  afterAll(() => h.close());

  it("should keep keys and passwords out of every error the service can cause", async () => {
    const id = uid("db");
    await client.upsertWorkload("storage", { id, engine: "postgres", credentials: { password: PASSWORD } });
    const wrongKey = h.client({ apiKey: "wrong-key-Secret-1" });
    const otherKey = h.client({ apiKey: KEYS.other });
    const errors = await Promise.all([
      client
        .upsertWorkload("storage", { id, engine: "postgres", credentials: { password: OTHER_PASSWORD } })
        .catch((e: unknown) => e),
      client
        .upsertWorkload("vm-ubuntu", { id: uid("vm"), credentials: { password: "x".repeat(2000) + PASSWORD } })
        .catch((e: unknown) => e),
      client
        .createTemplate({ name: "t", kind: "pod", config: { vm: { credentials: { password: PASSWORD } } } })
        .catch((e: unknown) => e),
      wrongKey.getStatus(id).catch((e: unknown) => e),
      otherKey.getStatus(id).catch((e: unknown) => e),
      waitForWorkload(wrongKey, id, { until: "ready", timeoutMs: 2000 }).catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as Error).constructor)).toEqual([
      ConflictError,
      ValidationError,
      ValidationError,
      UnauthorizedError,
      ForbiddenError,
      UnauthorizedError,
    ]);
    for (const err of errors) expectNoSecret(err, secrets);
    expect((errors[3] as Error).message).toContain("Check the API key of workspace demo");
  });
});
