/**
 * A webhook URL, checked, and the name it goes by in messages and metrics: its number and its
 * origin only. A webhook URL is a credential: Slack's and Teams' carry their token in the path,
 * others in the query or the user info, so none of these is ever printed.
 */
export interface WebhookTarget {
  url: string;
  /** `webhook 2 (https://hooks.slack.com)`. */
  label: string;
  /** `2`: the metrics' `webhook` label. */
  number: string;
  /** `hooks.slack.com`: the metrics' `host` label. */
  host: string;
}

/** The target of the `number`th `--webhook`; throws an error naming the flag (never the URL) when it is not an http(s) URL. */
export function webhookTarget(url: string, number: number): WebhookTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--webhook ${number}: not a URL; give the full address, e.g. https://hooks.example.com/wws`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new Error(`--webhook ${number}: expected an https:// (or http://) URL, not ${parsed.protocol}`);
  return {
    url: parsed.href,
    label: `webhook ${number} (${parsed.protocol}//${parsed.host})`,
    number: String(number),
    host: parsed.host,
  };
}
