// Runs this directory's stack against the local service, the way LocalStack or Testcontainers
// serve cloud providers: `npm test` (node --test), with the `pulumi` CLI on PATH. Copy it next to
// your own Pulumi.yaml and change what it asserts.
const assert = require("node:assert/strict");
const { after, before, test } = require("node:test");
const { createTestStack, startLocalService } = require("pulumi-wws/testing");

let service;
let stack;

before(async () => {
  service = await startLocalService(); // in this process, on a free port; workspace "test", a random key
  stack = await createTestStack({
    service, // sets wws:baseUrl, wws:workspace and wws:apiKey on the stack
    projectDir: __dirname,
    config: { "wws-testing-example:dbPassword": { value: "test-only-Pw-1", secret: true } },
  });
});

after(async () => {
  await stack?.close(); // destroys, removes the stack and its temp file backend
  await service?.close();
});

test("pulumi up creates the pod, the database and the template", { timeout: 120_000 }, async () => {
  const up = await stack.stack.up();
  assert.equal(up.summary.result, "succeeded");
  assert.equal(
    up.outputs.dbConnectionUri.value,
    `postgresql://app@db.${service.workspace}.workloads.localhost:5432/postgres?sslmode=require`,
  );

  // What the service holds, read with the SDK client.
  const spec = await service.client.getSpec();
  assert.deepEqual(spec.workloads.map((w) => w.id).sort(), ["db", "web"]);
  assert.equal((await service.client.getStatus("web")).phase, "Running");
  assert.deepEqual(
    (await service.client.listTemplates()).map((t) => t.name),
    ["web"],
  );
});

test("a second run changes nothing", { timeout: 120_000 }, async () => {
  const preview = await stack.stack.preview();
  assert.deepEqual(Object.keys(preview.changeSummary), ["same"]);
});
