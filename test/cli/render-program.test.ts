import { renderProgram } from "../../cli/import/render-program";
import type { LiveWorkspace } from "../../sdk";

const live = (over: Partial<LiveWorkspace>): LiveWorkspace => ({
  workspace: "acme",
  baseUrl: "http://svc",
  workloads: [],
  skipped: [],
  templates: [],
  ...over,
});

describe("renderProgram", () => {
  it("should fall back to wws.Workload for a spec field its typed class does not take", () => {
    const text = renderProgram(
      live({ workloads: [{ id: "odd", type: "pod", spec: { image: "x", gpu: { count: 1 } } }] }),
    );
    expect(text).toContain(
      'new wws.Workload("odd", {\n  kind: "pod",\n  spec: { image: "x", gpu: { count: 1 } },\n}, { import: "acme/odd" });',
    );
  });

  it("should declare a password from config only where the declaration needs one", () => {
    const text = renderProgram(
      live({
        workloads: [
          { id: "agent", type: "vm-ubuntu", spec: { aiDaemon: { enabled: true } } },
          { id: "plain", type: "vm-windows", spec: { cpus: 2 } },
        ],
      }),
    );
    expect(text).toContain(
      'new wws.VirtualMachine("agent", {\n  os: "ubuntu",\n  aiDaemon: { enabled: true },\n  credentials: { password: config.requireSecret("password-agent") }',
    );
    expect(text).toContain('new wws.VirtualMachine("plain", {\n  os: "windows",\n  cpus: 2,\n  // keeps its login');
  });

  it("should give templates of the same name distinct resource names", () => {
    const t = (id: string) => ({
      id,
      name: "Web App",
      kind: "pod" as const,
      config: { pod: {} },
      createdAt: "2026-01-01T00:00:00Z",
    });
    const text = renderProgram(live({ templates: [t("tpl_aaaaaaaa11"), t("tpl_bbbbbbbb22")] }));
    expect(text).toContain('new wws.Template("template-web-app-aaaaaaaa", {');
    expect(text).toContain('new wws.Template("template-web-app-bbbbbbbb", {');
    expect(text).not.toContain("@pulumi/pulumi"); // no config needed, no unused import
  });
});
