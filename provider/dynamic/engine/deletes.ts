import { createRequire } from "node:module";
import { readUnaryMessage, watchEngineRpcs } from "./rpc";

const DELETE_PATH = "/pulumirpc.ResourceProvider/Delete";

interface DeleteRequest {
  getId(): string;
  getUrn(): string;
}

/**
 * The URN of each resource the engine asks this process to delete, by resource id: the dynamic
 * provider host passes `delete` only the id and the outputs, so a delete's wait could not show on
 * its resource's row. Read from the Delete RPC itself (see `engine/rpc.ts`).
 */
export class DeleteUrns {
  private readonly byId = new Map<string, string>();

  urnOf(resourceId: string): string | undefined {
    return this.byId.get(resourceId);
  }

  /** Starts reading the Delete RPCs of the host; false when not in the host or the stubs cannot be loaded. */
  watch(): boolean {
    let parse: (bytes: Uint8Array) => DeleteRequest;
    try {
      const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
      const proto = fromPulumi("@pulumi/pulumi/proto/provider_pb") as {
        DeleteRequest: { deserializeBinary(bytes: Uint8Array): DeleteRequest };
      };
      parse = (bytes) => proto.DeleteRequest.deserializeBinary(bytes);
    } catch {
      return false;
    }
    return watchEngineRpcs((path, stream) => {
      if (path !== DELETE_PATH) return;
      readUnaryMessage(stream, (bytes) => {
        try {
          const req = parse(bytes);
          this.byId.set(req.getId(), req.getUrn());
        } catch {
          // Not a DeleteRequest we can read: the wait shows on the Stack row, named.
        }
      });
    });
  }
}
