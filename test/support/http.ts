/** One answer of the service, its body read as text and, when it is JSON, parsed. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  /** `x-api-key`; the caller's default workspace key when undefined; `null` sends none. */
  key?: string | null;
  /** Sent as `Authorization: Bearer …` instead of `x-api-key`. */
  bearer?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The text parsed as JSON; undefined when empty or not JSON (an error page, a stream). */
export function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One request through fetch (which normalises the URL); `defaultKey` is sent when `o.key` is undefined. */
export async function sendRequest(
  url: string,
  method: string,
  defaultKey: string,
  o: CallOptions = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  const key = o.key === undefined ? defaultKey : o.key;
  if (o.bearer !== undefined) headers.authorization = `Bearer ${o.bearer}`;
  else if (key !== null) headers["x-api-key"] = key;
  let body = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: parseJson(text) };
}
