/**
 * The revert-while-editing part of the watch soak (soak-watch.ts): the watch runs with `revert`;
 * each cycle edits the program in the working directory without applying it, changes the edited
 * pod's memory through the API (the watch must say "not reverted", and the pod keep what the
 * stack records apart from that change), undoes the edit, then changes another pod's memory (the
 * watch must say "reverted", and the live value be the recorded one again).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkspaceClient, WorkloadType } from "../sdk";
import type { Finding } from "../watch/finding";
import { sleep } from "./common";

/** The pod edited without applying; never reverted, so never "contested". */
export const EDITED = "soak-edit";
/** Pods reverted for real, one a cycle in turn: each is changed again only past the 10-minute contested window. */
export const REVERTED = ["soak-r0", "soak-r1", "soak-r2", "soak-r3"];
const WAIT_MS = 150_000;

/** The soak's program (plain JavaScript in the working directory); `editedImage` is the unapplied edit. */
export function soakProgram(pods: number, editedImage?: string): string {
  const pod = (name: string, id: string, image = "nginx:1.27"): string =>
    `new wws.Pod("${name}", { workloadId: "${id}", image: "${image}", memory: "128Mi" });\n`;
  let src = `const wws = require("pulumi-wws");\n`;
  for (let i = 0; i < pods; i++) src += pod(`p-${i}`, `soak-${i}`);
  src += pod("edit", EDITED, editedImage);
  REVERTED.forEach((id, i) => (src += pod(`r-${i}`, id)));
  return src;
}

interface Declared {
  type: string;
  spec: Record<string, unknown>;
}

export interface CycleDeps {
  workDir: string;
  pods: number;
  findings: Finding[];
  ops: () => WorkspaceClient;
  declared: Map<string, Declared>;
  /** A change made through the API, to be reported (`id=memory`). */
  changed: (id: string, memory: string, from: number, to: number) => void;
}

const workloadOf = (f: Finding): string => f.id.split("/")[1];
const withoutMemory = (spec: Record<string, unknown>): string => JSON.stringify({ ...spec, memory: undefined });

export class RevertCycles {
  cycles = 0;
  refusedDuringEdit = 0;
  revertedForReal = 0;
  /** Real reverts that ended "not reverted" for an outside fault (a restart, a rotation) and were tried again. */
  retried = 0;
  failures: string[] = [];
  /** "reverted" findings whose live value read back was not the recorded one, or during an unapplied edit. */
  falseReverted: string[] = [];
  private editing = false;

  constructor(private readonly d: CycleDeps) {}

  /** Called for every finding as it comes: a "reverted" is checked against the live workload at once. */
  onFinding(f: Finding): void {
    if (f.kind !== "reverted") return;
    const id = workloadOf(f);
    if (this.editing && id === EDITED) this.falseReverted.push(`${id}: reverted during an unapplied edit`);
    const recorded = this.d.declared.get(id)?.spec.memory;
    void this.liveSpec(id).then(
      (live) => {
        if (live && live.memory !== recorded)
          this.falseReverted.push(`${id}: reverted but live memory ${String(live.memory)} ≠ ${String(recorded)}`);
      },
      () => undefined,
    );
  }

  async cycle(): Promise<void> {
    const k = this.cycles++;
    const program = join(this.d.workDir, "index.js");
    this.editing = true;
    writeFileSync(program, soakProgram(this.d.pods, "nginx:1.28"));
    try {
      await sleep(2000);
      const memory = `${300 + k}Mi`;
      const mark = this.d.findings.length;
      const from = Date.now();
      await this.change(EDITED, memory);
      const refused = await this.waitFor(mark, EDITED, ["revert-refused", "reverted"]);
      if (refused?.kind === "revert-refused" && /not yet applied/.test(refused.message ?? "")) this.refusedDuringEdit++;
      else this.failures.push(`cycle ${k}: ${EDITED} ${refused ? `${refused.kind}: ${refused.message}` : "no answer"}`);
      const live = await this.liveWorkload(EDITED);
      const rec = this.d.declared.get(EDITED)!;
      if (
        !live ||
        live.type !== rec.type ||
        withoutMemory(live.spec) !== withoutMemory(rec.spec) ||
        live.spec.memory !== memory
      )
        this.failures.push(`cycle ${k}: ${EDITED} does not hold the record plus the outside change`);
      await this.change(EDITED, String(rec.spec.memory));
      this.d.changed(EDITED, memory, from, Date.now());
    } finally {
      writeFileSync(program, soakProgram(this.d.pods));
      this.editing = false;
    }
    await sleep(2000);
    const id = REVERTED[k % REVERTED.length];
    for (let attempt = 0; attempt < 2; attempt++) {
      const memory = `${400 + k * 2 + attempt}Mi`;
      const mark = this.d.findings.length;
      const from = Date.now();
      await this.change(id, memory);
      const answer = await this.waitFor(mark, id, ["reverted", "revert-refused", "contested"]);
      this.d.changed(id, memory, from, Date.now());
      const live = await this.liveWorkload(id);
      if (answer?.kind === "reverted" && live?.spec.memory === this.d.declared.get(id)!.spec.memory) {
        this.revertedForReal++;
        return;
      }
      // Put back by hand so the next try (or cycle) starts from the record.
      await this.change(id, String(this.d.declared.get(id)!.spec.memory));
      if (attempt === 0 && answer?.kind === "revert-refused" && !/not yet applied/.test(answer.message ?? "")) {
        this.retried++;
        await sleep(5000);
        continue;
      }
      this.failures.push(`cycle ${k}: ${id} ${answer ? `${answer.kind}: ${answer.message}` : "no answer"}`);
      return;
    }
  }

  private async waitFor(mark: number, id: string, kinds: Finding["kind"][]): Promise<Finding | undefined> {
    const until = Date.now() + WAIT_MS;
    while (Date.now() < until) {
      const f = this.d.findings.slice(mark).find((x) => workloadOf(x) === id && kinds.includes(x.kind));
      if (f) return f;
      await sleep(500);
    }
    return undefined;
  }

  /** An upsert through the API, tried again across a restart or a rotation (bounded). */
  private async change(id: string, memory: string): Promise<void> {
    const entry = this.d.declared.get(id)!;
    for (let tries = 0; ; tries++) {
      try {
        await this.d.ops().upsertWorkload(entry.type as WorkloadType, { ...entry.spec, id, memory } as never);
        return;
      } catch (err) {
        if (tries >= 10) throw err;
        await sleep(2000);
      }
    }
  }

  private async liveWorkload(id: string): Promise<Declared | undefined> {
    for (let tries = 0; ; tries++) {
      try {
        const w = (await this.d.ops().getSpec()).workloads.find((x) => x.id === id);
        return w && { type: w.type, spec: w.spec as Record<string, unknown> };
      } catch (err) {
        if (tries >= 10) throw err;
        await sleep(2000);
      }
    }
  }

  private async liveSpec(id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.liveWorkload(id))?.spec;
  }
}
