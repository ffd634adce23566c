import {
  MissingRecords,
  NAMED_AT_MOST,
  missingRecordsWarning,
} from "../../../provider/dynamic/service/missing-records";

const URL = "http://127.0.0.1:8787";

describe("missingRecordsWarning", () => {
  it.each([
    [
      1,
      "no longer holds a workload this stack records: pod w0 (was the service restarted without --data-dir, or was it deleted",
    ],
    [2, "no longer holds 2 workloads this stack records: pod w0, pod w1 (was"],
    [NAMED_AT_MOST, `no longer holds ${NAMED_AT_MOST} workloads this stack records: pod w0, `],
    [
      13,
      "no longer holds 13 workloads this stack records: pod w0, pod w1, pod w2, pod w3, pod w4, pod w5, pod w6, pod w7, pod w8, pod w9 and 3 more (was",
    ],
  ])("should name %i missing workloads, at most ten, with the command that creates them again", (n, says) => {
    const text = missingRecordsWarning(
      URL,
      "demo",
      Array.from({ length: n }, (_, i) => `pod w${i}`),
    );
    expect(text).toContain(`warning: workspace demo at ${URL} ${says}`);
    expect(text).toMatch(
      /Run `pulumi up --refresh`: its refresh drops (it|them) from the state and its update creates (it|them) again$/,
    );
  });
});

describe("missingRecordsWarning's count", () => {
  it.each([
    [["template base (tpl_1)"], "a template this stack records"],
    [["template a (tpl_1)", "template b (tpl_2)"], "2 templates this stack records"],
    [["pod web", "template b (tpl_2)"], "2 workloads and templates this stack records"],
  ])("should name %j as %s", (missing, says) => {
    expect(missingRecordsWarning(URL, "demo", missing)).toContain(`no longer holds ${says}: ${missing.join(", ")} (`);
  });
});

describe("MissingRecords", () => {
  it("should say every missing record of a workspace in one warning, each once, however often it is checked", async () => {
    const said: string[] = [];
    const records = new MissingRecords(async (t) => void said.push(t), 60_000);
    const held = new Set(["kept"]);
    for (const id of ["a", "kept", "b", "a"]) records.consider(URL, "demo", id, `pod ${id}`, held);
    records.consider(`${URL}/`, "demo", "b", "pod b", held); // the same base URL, written otherwise
    await records.flush();
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("no longer holds 2 workloads this stack records: pod a, pod b (");
    await records.flush();
    records.consider(URL, "demo", "a", "pod a", held);
    await records.flush();
    expect(said).toHaveLength(1);
  });

  it("should say them once no new one has come for its quiet time", async () => {
    const said: string[] = [];
    const records = new MissingRecords(async (t) => void said.push(t), 20);
    records.consider(URL, "demo", "a", "pod a", new Set());
    records.consider(URL, "other", "b", "pod b", new Set());
    await new Promise((r) => setTimeout(r, 200));
    expect(said.map((t) => /workspace (\w+)/.exec(t)?.[1])).toEqual(["demo", "other"]);
  });
});
