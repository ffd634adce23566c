/**
 * What a stack the watch cannot read needs, in the words of its settings: the backend
 * (`PULUMI_BACKEND_URL`, `pulumi login`) or the secrets (`PULUMI_CONFIG_PASSPHRASE`,
 * `PULUMI_CONFIG_PASSPHRASE_FILE`), named with the stack, as a missing `wws:` setting is. Pure:
 * `test/watch/stack-access.test.ts` holds the table.
 */

/** The first line of Pulumi's own error that says something (the Automation API's message carries the whole command). */
function pulumiSaid(text: string): string {
  const lines = text.split("\n").map((l) => l.trim());
  for (const l of lines) {
    const m = /(?:^|\s)error:\s*(.*)$/i.exec(l);
    if (m) return m[1];
  }
  return lines.find((l) => l !== "") ?? "";
}

/** A message naming what `stack` needs, for Pulumi's failure `text`; undefined when it is none of these. */
export function stackAccessHint(stack: string, text: string, env: NodeJS.ProcessEnv): string | undefined {
  const said = pulumiSaid(text);
  if (/passphrase|decrypt|secrets? (provider|manager)/i.test(text)) {
    const set = env.PULUMI_CONFIG_PASSPHRASE !== undefined || env.PULUMI_CONFIG_PASSPHRASE_FILE !== undefined;
    return (
      `stack ${stack}: its secrets cannot be decrypted: ` +
      (set
        ? "PULUMI_CONFIG_PASSPHRASE (or the file PULUMI_CONFIG_PASSPHRASE_FILE names) is not the passphrase the stack was created with"
        : "set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE to a file holding it, to the stack's passphrase") +
      ` (or the credentials of its secrets provider); pulumi said: ${said}`
    );
  }
  if (
    /PULUMI_ACCESS_TOKEN|pulumi login|not logged in|getting user info|could not (log|reach)|no such host|connection refused/i.test(
      text,
    )
  )
    return (
      `stack ${stack}: its backend cannot be reached: ` +
      (env.PULUMI_BACKEND_URL
        ? `PULUMI_BACKEND_URL is ${env.PULUMI_BACKEND_URL}; check it is the stack's backend and reachable from here`
        : "set PULUMI_BACKEND_URL to the stack's backend (file://…, s3://…, https://api.pulumi.com), or run `pulumi login` as the user the watch runs as") +
      `; pulumi said: ${said}`
    );
  if (/no stack named|stack .* not found/i.test(text))
    return `stack ${stack}: not found in the backend${env.PULUMI_BACKEND_URL ? ` ${env.PULUMI_BACKEND_URL}` : ""} (\`pulumi stack ls\` lists those there); pulumi said: ${said}`;
  return undefined;
}
