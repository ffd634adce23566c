/** The watch's lines and JSON findings: values shown, secrets never, the actor or that it is unknown. */
import type { ProviderImpl } from "../../provider/dynamic/types";
import { compareWorkload } from "../../watch/compare";
import { findingsOf, lineOf } from "../../watch/finding";
import * as fs from "node:fs";
import * as path from "node:path";
import * as os from "node:os";
import { parseWatchArgs } from "../../cli/watch/args";
import { readWatchConfig } from "../../cli/watch/config-file";

const POD = { stack: "prod", urn: "urn:pulumi:prod::infra::pulumi-nodejs:dynamic/wws:Pod::web", id: "team/web" };
const at = new Date("2026-01-02T10:00:03.000Z");

describe("watch findings", () => {
  it("should name the field, the recorded and live values, the time and the actor", () => {
    const [f] = findingsOf(
      [
        {
          kind: "changed",
          replaces: false,
          fields: [{ path: "memory", recorded: "512Mi", live: "1Gi", secret: false }],
        },
      ],
      POD,
      { actor: "ops-laptop", activityId: "4812", at: at.toISOString() },
      at,
    );
    expect(lineOf(f)).toBe(
      'drift: Pod "web" (team/web): memory 512Mi → 1Gi at 10:00:03, by ops-laptop (activity 4812)',
    );
  });

  it("should show no secret value, in the line or the JSON, and say when the actor is unknown", async () => {
    // Nothing marks the change secret here: the state keeps no marker on it (an older state, or a
    // field set in plaintext), so the watch's own comparison must decide (a pod's source is declared secret).
    const recorded = {
      workloadId: "web",
      type: "pod",
      source: { repo: "https://tok-Old-1@git.example/app", ref: "main" },
    };
    const w = { ...POD, kind: "workload" as const, recorded, secretKeys: new Set<string>() };
    const live = { ...recorded, source: { repo: "https://tok-New-2@git.example/app", ref: "main" } };
    const reading = { read: async (id: string) => ({ id, props: live }) } as unknown as ProviderImpl;
    const findings = findingsOf(await compareWorkload(reading, w), POD, {}, at);
    const shown = findings.map(lineOf).join("\n") + JSON.stringify(findings);
    expect(findings).toHaveLength(1);
    expect(shown).not.toMatch(/tok-Old-1|tok-New-2/);
    expect(lineOf(findings[0])).toContain("source.repo changed (secret, not shown)");
    expect(lineOf(findings[0])).toContain("actor unknown");
  });

  it("should read its flags: stacks repeated, and refuse --revert with --exit-on-drift", () => {
    expect(parseWatchArgs(["--stack", "a", "--stack=b", "--json"])).toMatchObject({ stacks: ["a", "b"], json: true });
    expect(() => parseWatchArgs(["--revert", "--exit-on-drift"])).toThrow(/choose one/);
  });

  it("should give each --project the --stacks after it, and name the field a config file gets wrong", () => {
    expect(
      parseWatchArgs(["--stack", "dev", "--project", "../b", "--stack", "prod", "--stack=qa", "--project", "../c"]),
    ).toMatchObject({
      stacks: ["dev"],
      projects: [
        { dir: "../b", stacks: ["prod", "qa"] },
        { dir: "../c", stacks: [] },
      ],
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-watch-config-"));
    try {
      const file = path.join(dir, "watch.json");
      fs.writeFileSync(file, JSON.stringify({ projects: [{ dir: "infra", stacks: ["prod"] }] }));
      expect(readWatchConfig(file)).toEqual([{ dir: path.join(dir, "infra"), stacks: ["prod"] }]);
      fs.writeFileSync(file, JSON.stringify({ projects: [{ dir: "infra", stacks: "prod" }] }));
      expect(() => readWatchConfig(file)).toThrow(/watch\.json: projects\.0\.stacks: /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should be run by the shipped examples (CI job, systemd unit) only with flags it has", () => {
    const root = path.join(__dirname, "../..");
    for (const file of ["examples/ci/pulumi-drift-watch.yml", "examples/watch/pulumi-wws-watch.service"]) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const runs = [...text.matchAll(/pulumi-wws watch ([^|;`\n]*)/g)].map((m) => m[1].replace(/"\$STACK"/g, "prod"));
      expect([file, runs.length > 0]).toEqual([file, true]);
      for (const run of runs) expect(() => parseWatchArgs(run.trim().split(/\s+/))).not.toThrow();
    }
  });
});
