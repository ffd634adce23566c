import { createRequire } from "node:module";

/**
 * Where the provider's progress goes in the dynamic provider process: the engine's own log
 * (`pulumirpc.Engine/Log`), the way a provider plugin reports. What the host does with
 * `console.log` (an info diagnostic on the Stack row, repeated under Diagnostics) suits nothing
 * we say: a status belongs on its resource's row and disappears when replaced (`ephemeral`), a
 * warning belongs to its resource and stays.
 */
export interface EngineLog {
  /**
   * Status text on the row of `urn` (the Stack's when undefined), replaced by the next one; never in
   * Diagnostics. Resolves once the engine has it: the statuses of one row arrive in order.
   */
  status(urn: string | undefined, text: string): Promise<void>;
  /** A diagnostic of `urn` (the Stack's when undefined), kept under Diagnostics. Resolves once the engine has it. */
  diagnostic(urn: string | undefined, severity: "info" | "warning", text: string): Promise<void>;
  close(): void;
}

interface LogRequest {
  setSeverity(v: number): void;
  setMessage(v: string): void;
  setUrn(v: string): void;
  setStreamid(v: number): void;
  setEphemeral(v: boolean): void;
}
interface EngineProto {
  LogRequest: new () => LogRequest;
  LogSeverity: { INFO: number; WARNING: number };
}
interface EngineClient {
  log(req: LogRequest, done: (err: unknown) => void): void;
  close(): void;
}

/**
 * A client of the engine at `address` (`host:port`, the host's first argument), built from the
 * generated stubs and the gRPC library of the program's `@pulumi/pulumi`: the copy the host itself
 * runs. Undefined when they cannot be loaded. Calls are fire-and-forget: a status lost is not the
 * workload's failure.
 */
export function connectEngineLog(address: string): EngineLog | undefined {
  let proto: EngineProto;
  let client: EngineClient;
  try {
    const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
    const grpc = fromPulumi("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
    proto = fromPulumi("@pulumi/pulumi/proto/engine_pb") as EngineProto;
    const stubs = fromPulumi("@pulumi/pulumi/proto/engine_grpc_pb") as {
      EngineClient: new (address: string, credentials: unknown) => EngineClient;
    };
    client = new stubs.EngineClient(address, grpc.credentials.createInsecure());
  } catch {
    return undefined;
  }
  const send = (urn: string | undefined, severity: number, text: string, ephemeral: boolean): Promise<void> => {
    const req = new proto.LogRequest();
    req.setSeverity(severity);
    req.setMessage(text);
    req.setUrn(urn ?? "");
    req.setStreamid(0);
    req.setEphemeral(ephemeral);
    return new Promise((resolve) => {
      try {
        client.log(req, () => resolve());
      } catch {
        resolve(); // the engine is going away: nothing left to tell
      }
    });
  };
  // The engine handles concurrent calls concurrently: one row's statuses are sent one after another.
  const rows = new Map<string, Promise<void>>();
  return {
    status: (urn, text) => {
      const key = urn ?? "";
      const next = (rows.get(key) ?? Promise.resolve()).then(() => send(urn, proto.LogSeverity.INFO, text, true));
      rows.set(key, next);
      void next.then(() => rows.get(key) === next && rows.delete(key));
      return next;
    },
    diagnostic: (urn, severity, text) =>
      send(urn, severity === "warning" ? proto.LogSeverity.WARNING : proto.LogSeverity.INFO, text, false),
    close: () => client.close(),
  };
}
