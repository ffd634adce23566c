/**
 * The URN of a resource being deleted, read from the engine's Delete RPC beside the gRPC handler
 * of the dynamic provider host (which passes `delete` no URN): a real grpc-js server of the
 * provider protocol, the copy `@pulumi/pulumi` runs, and a client sending Delete as the engine does.
 */
import { createRequire } from "node:module";
import { DeleteUrns } from "../../../provider/dynamic/engine/deletes";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated stubs are untyped here */
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = fromPulumi("@grpc/grpc-js");
const provrpc = fromPulumi("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = fromPulumi("@pulumi/pulumi/proto/provider_pb");
const emptyproto = fromPulumi("google-protobuf/google/protobuf/empty_pb");
const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb");

const URN = "urn:pulumi:dev::infra::wws:index:Workspace$pulumi-nodejs:dynamic/wws:Pod::web";

it("should know a deleted resource's URN by its id before the host's handler runs", async () => {
  const urns = new DeleteUrns();
  const seenByHandler: Array<string | undefined> = [];
  const server = new grpc.Server();
  server.addService(provrpc.ResourceProviderService, {
    delete: (call: any, done: (err: unknown, res: unknown) => void) => {
      seenByHandler.push(urns.urnOf(call.request.getId()));
      done(null, new emptyproto.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: unknown, p: number) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    expect(urns.watch()).toBe(true);
    const send = (id: string, urn: string, padding = 0) => {
      const req = new provproto.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      // Outputs large enough to come in several HTTP/2 DATA frames.
      req.setProperties(structproto.Struct.fromJavaScript({ padding: "x".repeat(padding) }));
      return new Promise<void>((resolve, reject) =>
        client.delete(req, (err: unknown) => (err ? reject(err) : resolve())),
      );
    };
    await Promise.all([send("demo/web", URN, 200_000), send("demo/db", `${URN.slice(0, -3)}db`)]);
    expect(seenByHandler.sort()).toEqual([`${URN.slice(0, -3)}db`, URN]);
    expect(urns.urnOf("demo/other")).toBeUndefined();
  } finally {
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
});
