import { stackAccessHint } from "../../watch/stack-access";

const PASS_MISSING =
  'code: 255\nstderr: error: constructing secrets manager of type "passphrase": passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables';
const NO_LOGIN =
  "code: 255\nstderr: error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions";

describe("stackAccessHint", () => {
  it.each([
    [
      "no passphrase",
      PASS_MISSING,
      {},
      /^stack prod: its secrets cannot be decrypted: set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE/,
    ],
    [
      "a wrong passphrase",
      "error: incorrect passphrase",
      { PULUMI_CONFIG_PASSPHRASE: "x" },
      /is not the passphrase the stack was created with/,
    ],
    [
      "no backend, no login",
      NO_LOGIN,
      {},
      /^stack prod: its backend cannot be reached: set PULUMI_BACKEND_URL .* or run `pulumi login`.*; pulumi said: PULUMI_ACCESS_TOKEN must be set/,
    ],
    [
      "a backend that is not it",
      NO_LOGIN,
      { PULUMI_BACKEND_URL: "s3://b" },
      /PULUMI_BACKEND_URL is s3:\/\/b; check it/,
    ],
    ["a stack not there", "error: no stack named 'prod' found", {}, /^stack prod: not found in the backend/],
    ["anything else", "error: boom", {}, undefined],
  ])("should say what a stack needs: %s", (_what, text, env, expected) => {
    const hint = stackAccessHint("prod", text, env);
    if (expected === undefined) expect(hint).toBeUndefined();
    else expect(hint).toMatch(expected);
    // Never the passphrase itself.
    expect(hint ?? "").not.toMatch(/PULUMI_CONFIG_PASSPHRASE is x|"x"/);
  });
});
