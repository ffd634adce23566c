/** An answer whose status and headers came, and whose body was cut before its end. */
export interface CutAnswer {
  status: number;
  bytes: number; // of the body, read before the cut
  announced?: number; // the body's size as its Content-Length said, if it did
}

/**
 * What a connection failure was, and what to check: a request that never left, an answer cut
 * mid-body (so the service did answer), or a connection lost before any answer.
 */
export function connectionFailureText(
  beforeSend: boolean,
  cut: CutAnswer | undefined,
): { what: string; check: string } {
  if (beforeSend)
    return {
      what: "could not reach the service",
      check: "Check the base URL, the network and that the service is running.",
    };
  if (!cut)
    return {
      what: "the connection failed before an answer",
      check: "Check the base URL, the network and that the service is running.",
    };
  const of = cut.announced === undefined ? "" : ` of the ${cut.announced.toLocaleString("en-US")} announced`;
  return {
    what: `the answer (HTTP ${cut.status}) was cut mid-body, after ${cut.bytes.toLocaleString("en-US")} bytes${of}`,
    check:
      "Check the network between here and the service (a proxy or load balancer cutting answers) and the service's health.",
  };
}
