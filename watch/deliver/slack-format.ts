import type { Finding } from "../finding";

/**
 * A finding as a chat message: `{"text": …}`, the body Slack's and Microsoft Teams' incoming
 * webhooks both take. It names the stack, the resource, what happened, each field (recorded → live;
 * a secret field only by its path) and who did it; never a secret value.
 */
export interface ChatMessage {
  text: string;
}

const TITLES: Record<Finding["kind"], string> = {
  drift: "Drift",
  "changed-back": "Changed outside Pulumi and back",
  deleted: "Deleted outside Pulumi",
  "replaced-outside": "Replaced outside Pulumi",
  "secret-changed": "Credentials set outside Pulumi",
  restarted: "Restarted outside Pulumi",
  failed: "Failed (health, not drift)",
  contested: "Contested: changed again after a revert",
  reverted: "Reverted",
  "revert-refused": "Not reverted",
  blind: "Blind: the watch does not see a workspace",
  "watching-again": "Watching again",
};

/** A value longer than this is cut: a chat line is not the place for a whole blueprint. */
const MAX_VALUE_CHARS = 200;

/** Slack's mrkdwn gives `&`, `<` and `>` a meaning (links, mentions): a value shows them as text. */
function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return "(unset)";
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return escaped(text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text);
}

function who(f: Finding): string | undefined {
  if (f.kind === "blind" || f.kind === "watching-again" || f.kind === "reverted" || f.kind === "revert-refused")
    return undefined;
  const actor = f.actor ? `by ${escaped(f.actor)}` : "actor unknown (the service did not say)";
  return f.activityId ? `${actor} (activity ${escaped(f.activityId)})` : actor;
}

/** The chat message of `f`. */
export function slackMessageOf(f: Finding): ChatMessage {
  const where = f.urn ? `${escaped(f.resource)} (${escaped(f.id)})` : escaped(f.resource);
  const lines = [`*${TITLES[f.kind]}* in stack \`${escaped(f.stack)}\`: ${where}`];
  for (const x of f.fields ?? [])
    lines.push(
      x.secret
        ? `• ${escaped(x.path)}: changed (secret, not shown)`
        : `• ${escaped(x.path)}: ${shown(x.recorded)} → ${shown(x.live)}`,
    );
  if (f.message) lines.push(escaped(f.message));
  const by = who(f);
  lines.push(by ? `${by}, at ${f.at}` : `at ${f.at}`);
  return { text: lines.join("\n") };
}
