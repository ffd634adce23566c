import { createHash } from "node:crypto";
import type { Finding } from "./finding";

/**
 * A finding's id, for a receiver to drop a second delivery of it (a webhook is delivered at least
 * once): the same for every delivery of one finding, and for the same change seen by another watch
 * where the service names its activity row. Built from what the finding says, never a secret: a
 * secret field is named only by its path.
 */
export function findingIdOf(f: Omit<Finding, "findingId">): string {
  const what = [
    f.kind,
    f.stack,
    f.urn || f.resource,
    f.fields?.map((x) => (x.secret ? [x.path] : [x.path, x.recorded, x.live])),
    f.message,
    // The row that named the change; else when it was found (a second finding of the same value is another finding).
    f.activityId ?? f.at,
  ];
  return createHash("sha256").update(JSON.stringify(what)).digest("hex").slice(0, 32);
}

/** `f` with its `findingId`. */
export function withFindingId(f: Finding): Finding {
  return f.findingId ? f : { ...f, findingId: findingIdOf(f) };
}
