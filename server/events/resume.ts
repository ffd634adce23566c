import type { EventRing } from "./ring";

export type ResumePlan = { kind: "live" } | { kind: "replay"; frames: string[] } | { kind: "resync" };

const DIGITS = /^[0-9]{1,20}$/;

/**
 * What a (re)connecting client gets before live events, given the id it saw last:
 * - no id: nothing, live only;
 * - the newest id: nothing missed, live only;
 * - an id from one before the ring's oldest up to the newest: every later frame, in order;
 * - anything else (older than the ring, newer than the newest, not a number): a resync frame.
 * The client is never told "replayed" when frames it missed are gone.
 */
export function planResume(ring: EventRing, lastId: number, requested: string | undefined): ResumePlan {
  if (requested === undefined) return { kind: "live" };
  if (!DIGITS.test(requested)) return { kind: "resync" };
  const seen = Number(requested);
  if (seen > lastId) return { kind: "resync" };
  if (seen === lastId) return { kind: "live" };
  const oldest = ring.oldestId;
  if (oldest === undefined || seen < oldest - 1) return { kind: "resync" };
  return { kind: "replay", frames: ring.after(seen) };
}
