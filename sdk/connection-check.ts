import { DNS_LABEL, DNS_LABEL_RULE } from "./schemas";

/** The three settings every request needs. */
export type ConnectionSetting = "baseUrl" | "workspace" | "apiKey";

/** The settings, in the order checks and messages name them. */
export const CONNECTION_SETTING_NAMES: readonly ConnectionSetting[] = Object.freeze(["baseUrl", "workspace", "apiKey"]);

// Printable ASCII without spaces: anything else cannot travel in a header.
const API_KEY = /^[\x21-\x7e]{1,4096}$/;

/**
 * What is wrong with one connection setting's value, phrased to follow the setting's name
 * ("must use http or https"), or undefined when it is valid. Never throws and never quotes the
 * value (it may be the API key). `workspaceConnection` (connection.ts), which every client and
 * the event hub take their connection from, throws it as an `InvalidOptionError`; the provider
 * reports it as a check failure of the field.
 */
export function connectionSettingProblem(setting: ConnectionSetting, value: unknown): string | undefined {
  if (setting === "workspace") return typeof value === "string" && DNS_LABEL.test(value) ? undefined : DNS_LABEL_RULE;
  if (setting === "apiKey") {
    return typeof value === "string" && API_KEY.test(value)
      ? undefined
      : "must be a non-empty string of printable ASCII characters without spaces";
  }
  if (typeof value !== "string") return "must be a string such as http://127.0.0.1:8787";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL such as http://127.0.0.1:8787";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https";
  // Credentials in a URL end up in logs; the key has its own setting. The URL is not echoed.
  if (url.username !== "" || url.password !== "") return "must not contain credentials; pass the API key as apiKey";
  if (url.search !== "" || url.hash !== "") return "must not have a query or fragment";
  return undefined;
}
