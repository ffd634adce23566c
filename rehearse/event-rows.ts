import type { EngineEvent } from "@pulumi/pulumi/automation";
import { classifyFailure, losesData } from "./classify";
import type { ResourceRow } from "./report";

/** The engine's step ops that make up one replacement. */
const REPLACE_OPS = new Set(["replace", "create-replacement", "delete-replaced", "discard-replaced"]);

const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
/** `urn:pulumi:stack::project::[parent$]type::name` → type. */
const typeOf = (urn: string): string => {
  const parts = urn.split("::");
  const qualified = parts.length >= 4 ? parts[parts.length - 2] : "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
};
const isRoot = (type: string): boolean => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

interface Open {
  row: ResourceRow;
  startedAt: number;
}

/**
 * Turns one run's engine events into rows, one per resource: the operation (the parts of a
 * replacement merged), the result, the error the engine gave for it, the time from its first step
 * to its last. Errors on the stack itself (the program's own) are kept apart in `programErrors`.
 */
export class EventRows {
  private readonly open = new Map<string, Open>();
  readonly programErrors: string[] = [];

  constructor(
    private readonly step: ResourceRow["step"],
    private readonly now: () => number = Date.now,
  ) {}

  readonly onEvent = (e: EngineEvent): void => {
    const pre = e.resourcePreEvent?.metadata;
    if (pre && !isRoot(pre.type)) {
      const o = this.rowOf(pre.urn, pre.type, pre.op);
      const inputs = (pre.new ?? pre.old)?.inputs as Record<string, unknown> | undefined;
      o.row.losesData ||= losesData(o.row.op, pre.type, inputs?.type);
    }
    const done = e.resOutputsEvent?.metadata;
    if (done && !isRoot(done.type)) this.end(this.rowOf(done.urn, done.type, done.op), "done");
    const failed = e.resOpFailedEvent?.metadata;
    if (failed && !isRoot(failed.type)) this.end(this.rowOf(failed.urn, failed.type, failed.op), "failed");
    const diag = e.diagnosticEvent;
    if (diag && diag.severity === "error") {
      const message = diag.message.trim();
      // An error on a resource with no step yet: its check refused it (at preview, or the up's own).
      const o = diag.urn && !isRoot(typeOf(diag.urn)) ? this.rowOf(diag.urn, typeOf(diag.urn), "check") : undefined;
      if (o) {
        o.row.error ??= message;
        o.row.failure = classifyFailure(o.row.error);
        o.row.result = "failed";
      } else if (message !== "") this.programErrors.push(message);
    }
  };

  rows(): ResourceRow[] {
    return [...this.open.values()].map((o) => o.row);
  }

  private rowOf(urn: string, type: string, op: string): Open {
    let o = this.open.get(urn);
    if (!o) {
      const row: ResourceRow = {
        urn,
        name: nameOf(urn),
        type,
        op,
        result: "not reached",
        losesData: false,
        step: this.step,
      };
      this.open.set(urn, (o = { row, startedAt: this.now() }));
    }
    if (REPLACE_OPS.has(op)) o.row.op = "replace";
    else if (o.row.op !== "replace" && op !== "check") o.row.op = op;
    return o;
  }

  private end(o: Open, result: "done" | "failed"): void {
    if (o.row.result !== "failed") o.row.result = result;
    o.row.ms = this.now() - o.startedAt;
  }
}
