import { describeUrn } from "../provider/dynamic/ownership/declarations";
import type { Difference } from "./compare";

/** Who made a change, as the service's activity row says. */
export interface Cause {
  actor?: string;
  activityId?: string;
  at?: string;
}

/** One finding of the watch: what a line of its output says, as data (`--json`). */
export interface Finding {
  kind:
    | "drift"
    | "changed-back"
    | "deleted"
    | "replaced-outside"
    | "secret-changed"
    | "restarted"
    | "failed"
    | "contested"
    | "reverted"
    | "revert-refused"
    // The watch's own sight of a workspace (`resource`: `workspace <name>`; `urn` empty).
    | "blind"
    | "watching-again";
  stack: string;
  urn: string;
  /** `Pod "web"`. */
  resource: string;
  /** `workspace/id`. */
  id: string;
  fields?: Array<{ path: string; recorded?: unknown; live?: unknown; secret: boolean }>;
  actor?: string;
  activityId?: string;
  at: string;
  message?: string;
  /** Set on every finding a `Watch` reports: the same for every delivery of it (`finding-id.ts`), for a receiver's dedupe. */
  findingId?: string;
}

function valueText(v: unknown): string {
  if (v === undefined || v === null) return "(unset)";
  return typeof v === "string" ? v : JSON.stringify(v);
}

type Watched = { stack: string; urn: string; id: string };

/** What every finding of `w` says: which resource, and who made the change, when, as the row says. */
function findingBase(w: Watched, cause: Cause, now: Date) {
  return {
    stack: w.stack,
    urn: w.urn,
    resource: describeUrn(w.urn),
    id: w.id,
    actor: cause.actor,
    activityId: cause.activityId,
    at: cause.at ?? now.toISOString(),
  };
}

/** The findings of one comparison; a secret field says only that it changed, without its values. */
export function findingsOf(diffs: Difference[], w: Watched, cause: Cause, now: Date): Finding[] {
  const base = findingBase(w, cause, now);
  return diffs.map((d): Finding => {
    if (d.kind === "changed")
      return {
        ...base,
        kind: "drift",
        fields: d.fields.map((f) =>
          f.secret
            ? { path: f.path, secret: true }
            : { path: f.path, secret: false, recorded: f.recorded, live: f.live },
        ),
      };
    if (d.kind === "deleted") return { ...base, kind: "deleted" };
    if (d.kind === "restarted") return { ...base, kind: "restarted", message: `${d.restarts} restart(s)` };
    return { ...base, kind: "failed", message: d.message };
  });
}

/**
 * A change the stream told of only after a gap (replayed on reconnect, or read from the activity
 * after a `resync`) whose workload is as declared again: what it was in between is gone.
 */
export function changedBackFinding(w: Watched, cause: Cause): Finding {
  return { ...findingBase(w, cause, new Date()), kind: "changed-back" };
}

const clock = (iso: string): string => (iso.length >= 19 ? iso.slice(11, 19) : iso);

function byWhom(f: Finding): string {
  const who = f.actor ? `by ${f.actor}` : "actor unknown (the service did not say)";
  return f.activityId ? `${who} (activity ${f.activityId})` : who;
}

/** The line a person reads: `drift: Pod "web" (team/web): memory 512Mi → 1Gi at 10:00:03, by ops (activity 4812)`. */
export function lineOf(f: Finding): string {
  const head = `${f.resource} (${f.id})`;
  const at = `at ${clock(f.at)}`;
  switch (f.kind) {
    case "drift": {
      const fields = (f.fields ?? [])
        .map((x) =>
          x.secret
            ? `${x.path} changed (secret, not shown)`
            : `${x.path} ${valueText(x.recorded)} → ${valueText(x.live)}`,
        )
        .join(", ");
      return `drift: ${head}: ${fields} ${at}, ${byWhom(f)}`;
    }
    case "changed-back":
      return `drift: ${head} was changed outside Pulumi and is as declared again (what it was in between is not known) ${at}, ${byWhom(f)}`;
    case "deleted":
      return `drift: ${head} was deleted outside Pulumi (the stack records it, the service no longer has it) ${at}, ${byWhom(f)}`;
    case "replaced-outside":
      return `drift: ${head} was replaced outside Pulumi (deleted and created again under the same id: what the stack recorded, credentials included, may no longer hold) ${at}, ${byWhom(f)}`;
    case "secret-changed":
      return `drift: ${head}: its credentials were set outside Pulumi (values are never shown) ${at}, ${byWhom(f)}`;
    case "blind":
      return `blind: the watch does not see ${f.resource}: ${f.message} ${at}`;
    case "watching-again":
      return `watching again: ${f.resource}: ${f.message} ${at}`;
    case "restarted":
      return `drift: ${head} was restarted outside Pulumi (${f.message}) ${at}, ${byWhom(f)}`;
    case "failed":
      return `health (not drift): ${head} is Failed: ${f.message} ${at}`;
    case "contested":
      return `contested: ${head} was changed again after the watch put it back; no more reverts of it: ${f.message} ${at}, ${byWhom(f)}`;
    case "reverted":
      return `reverted: ${head}: ${f.message} ${at}`;
    case "revert-refused":
      return `not reverted: ${head}: ${f.message}`;
  }
}

/** What identifies a finding: reported once until the live value or the stack's record changes. */
export function signatureOf(f: Finding): string {
  return JSON.stringify([f.kind, f.urn, f.fields?.map((x) => [x.path, x.secret ? "" : x.live]), f.message]);
}
