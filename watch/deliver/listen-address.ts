/** Where `--listen` serves: a host (name, IPv4, or IPv6 in brackets) and a port (0: any free one). */
export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464`. The host is required: every interface is served
 * only when asked for by name (`0.0.0.0`), never by leaving the host out.
 */
export function parseListenAddress(text: string): ListenAddress {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(text);
  const hint = "expected HOST:PORT, e.g. 127.0.0.1:9464 (0.0.0.0:9464 for every interface)";
  if (!m) throw new Error(`--listen: ${hint}, got ${JSON.stringify(text)}`);
  const port = Number(m[2]);
  if (port > 65535) throw new Error(`--listen: port ${port} is past 65535; ${hint}`);
  return { host: m[1].replace(/^\[|\]$/g, ""), port };
}
