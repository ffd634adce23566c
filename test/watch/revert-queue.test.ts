import { RevertQueue } from "../../watch/revert-queue";

/** A queue whose reverts end only when the test says so. */
function gatedQueue(): { queue: RevertQueue<string>; ran: string[]; release: () => void; started: () => number } {
  const ran: string[] = [];
  let open: () => void = () => undefined;
  let gate = new Promise<void>((r) => (open = r));
  let starts = 0;
  const queue = new RevertQueue<string>(async (job) => {
    starts++;
    ran.push(job);
    await gate;
  });
  return {
    queue,
    ran,
    started: () => starts,
    release: () => {
      open();
      gate = Promise.resolve();
    },
  };
}

describe("RevertQueue", () => {
  it("should run one revert at a time, in the order the resources were first queued", async () => {
    const { queue, ran, release, started } = gatedQueue();
    queue.add("a", "a1");
    queue.add("b", "b1");
    await Promise.resolve();
    expect(started()).toBe(1);
    release();
    await queue.idle();
    expect(ran).toEqual(["a1", "b1"]);
  });

  it("should keep only the newest finding of a resource whose revert has not begun", async () => {
    const { queue, ran, release } = gatedQueue();
    queue.add("busy", "busy-1");
    await Promise.resolve();
    // 200 findings of 3 resources while the first revert runs: 3 reverts wait, each with its newest finding.
    for (let i = 0; i < 200; i++) queue.add(`r${i % 3}`, `r${i % 3}-${i}`);
    expect(queue.size).toBe(3);
    release();
    await queue.idle();
    expect(ran).toEqual(["busy-1", "r0-198", "r1-199", "r2-197"]);
  });

  it("should run a finding that comes during its resource's revert once more, after it", async () => {
    const { queue, ran, release } = gatedQueue();
    queue.add("a", "a1");
    await Promise.resolve();
    queue.add("a", "a2");
    queue.add("a", "a3");
    release();
    await queue.idle();
    expect(ran).toEqual(["a1", "a3"]);
  });

  it("should go on after a revert that rejects", async () => {
    const ran: string[] = [];
    const queue = new RevertQueue<string>(async (job) => {
      ran.push(job);
      if (job === "bad") throw new Error("boom");
    });
    queue.add("a", "bad");
    queue.add("b", "good");
    await queue.idle();
    expect(ran).toEqual(["bad", "good"]);
  });
});
