import type { WorkspaceEvent } from "../../../sdk";
import { relevanceOf, rowWorthALook } from "../../../sdk/wait/relevance";

const row = (id: string | undefined, detail?: unknown, type = "workload"): WorkspaceEvent => ({
  type: "activity",
  data: { id: "1", action: "workload.phase", target: id === undefined ? undefined : { type, id }, detail },
});

describe("relevanceOf", () => {
  it("should ignore rows about another workload or another kind of thing", () => {
    expect(relevanceOf(row("db"), "web").kind).toBe("ignore");
    expect(relevanceOf(row("web", undefined, "template"), "web").kind).toBe("ignore");
  });

  it("should take rows about this workload, and call rows without a target untargeted", () => {
    expect(relevanceOf(row("web"), "web").kind).toBe("row");
    expect(relevanceOf(row(undefined), "web").kind).toBe("untargeted");
  });

  it("should look on resync, note spec-changed and ignore agents, tasks, asks and secrets", () => {
    expect(relevanceOf({ type: "resync", data: {} }, "web").kind).toBe("look");
    expect(relevanceOf({ type: "spec-changed", data: {} }, "web").kind).toBe("spec-changed");
    expect(relevanceOf({ type: "agent-busy", data: { key: "daemon:web", busy: true } }, "web").kind).toBe("ignore");
    expect(relevanceOf({ type: "task-update", data: { taskId: "t", status: "done" } }, "web").kind).toBe("ignore");
    expect(relevanceOf({ type: "secret-changed", data: { path: "workloads/web/credentials" } }, "web").kind).toBe(
      "ignore",
    );
  });
});

describe("rowWorthALook", () => {
  const data = (detail: unknown) => (row("web", detail) as Extract<WorkspaceEvent, { type: "activity" }>).data;
  it("should skip phases in which a wait for ready cannot end", () => {
    for (const phase of ["Pending", "Provisioning", "Restarting", "Deleting"])
      expect(rowWorthALook(data({ phase }), "ready")).toBe(false);
    for (const phase of ["Running", "Failed", "SomethingNew"])
      expect(rowWorthALook(data({ phase }), "ready")).toBe(true);
  });
  it("should look on rows without a phase hint", () => {
    expect(rowWorthALook(data(undefined), "ready")).toBe(true);
    expect(rowWorthALook(data({ adminReady: true }), "ready")).toBe(true);
    expect(rowWorthALook(data("text"), "gone")).toBe(true);
  });
  it("should skip every known phase when waiting for gone", () => {
    expect(rowWorthALook(data({ phase: "Deleting" }), "gone")).toBe(false);
    expect(rowWorthALook(data({ phase: "Failed" }), "gone")).toBe(false);
    expect(rowWorthALook(data({ type: "pod" }), "gone")).toBe(true);
  });
});
