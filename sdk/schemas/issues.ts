import type { z } from "zod";
import type { ErrorDetail } from "./common";

/** `["ports", 0, "port"]` → `ports[0].port`: the way a user writes the field in a stack. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * One detail per failing field. An unknown key is reported at the key itself (zod reports it at
 * its parent), so that the message names the field the user has to remove.
 */
export function issuesToDetails(error: z.ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        details.push({ path: formatPath([...issue.path, key]), message: "unknown field" });
      }
      continue;
    }
    details.push({ path: formatPath(issue.path), message: issue.message });
  }
  return details;
}

/** `cpus: expected number, received string; id: must be ...` */
export function describeDetails(details: ReadonlyArray<ErrorDetail>): string {
  return details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ");
}
