import { failureAt, type Failure } from "../inputs/failures";
import { sameValue } from "../inputs/equal";
import type { Props } from "../inputs/props";
import { loginOf, type Login } from "./digest";

/**
 * `ignoreChanges` on credentials. The engine copies the state's value into the new inputs before
 * `check`, and the state keeps the login sealed (`{username?, digest}`: credentials/digest.ts),
 * never the password: `ignoreChanges: ["credentials"]` hands `check` that sealed login, and
 * `["credentials.password"]` a login without a password (the state has none to copy). Either
 * stands for "unchanged": the state's login is kept as it is, with nothing to validate, digest or
 * send, whatever password the program now holds.
 *
 * `kept`: the state's login, when `news` carry one of those two forms of it. `failure`: a new
 * username beside an ignored password, which cannot be sealed without the password.
 */
export function credentialsKeptFromState(olds: Props, news: Props): { kept?: Login; failure?: Failure } {
  const stored = loginOf(olds.credentials);
  const given = loginOf(news.credentials);
  if (typeof stored?.digest !== "string" || given === undefined || typeof given.password === "string") return {};
  if (given.digest !== undefined) return sameValue(given, stored) ? { kept: stored } : {};
  if (sameValue(given.username, stored.username)) return { kept: stored };
  return {
    failure: failureAt(
      ["credentials", "username"],
      "changed while credentials.password is in ignoreChanges: a new login needs its password. " +
        "Keep the username, or take credentials.password out of ignoreChanges for this change",
      news,
    ),
  };
}
