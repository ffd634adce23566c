import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { UsageError } from "./usage-error";

/** A command's flags as `node:util` `parseArgs` declares them: `type` "string" or "boolean", `short`, `multiple`. */
export type Flags = ParseArgsOptionsConfig;

/** What `flags` parse to: a flag not given is absent; a `multiple` one is an array in the order given. */
export type FlagValues<F extends Flags> = ReturnType<typeof parseArgs<{ options: F; strict: true }>>["values"];

/**
 * Parses `argv` against `flags` with `node:util` `parseArgs`, so every command line reads alike:
 * `--flag value` and `--flag=value` both, short forms as declared (`-s NAME`). Anything else is a
 * `UsageError` naming the argument as the user wrote it: a flag not declared or a stray word
 * (`unknown option --x`), a value missing or empty (`--stack: missing value`), a value given to a
 * switch (`--json: takes no value`). parseArgs runs non-strict only so that these messages are ours.
 */
export function parseFlags<const F extends Flags>(argv: readonly string[], flags: F): FlagValues<F> {
  return parseFlagsInOrder(argv, flags).values;
}

/** One option as given, for a command where a flag's meaning depends on the flags before it. */
export interface FlagToken {
  name: string;
  value: string | undefined;
}

/** `parseFlags`, and the options in the order given. */
export function parseFlagsInOrder<const F extends Flags>(
  argv: readonly string[],
  flags: F,
): { values: FlagValues<F>; tokens: FlagToken[] } {
  const { values, tokens } = parseArgs({
    args: [...argv],
    options: flags,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "positional") throw new UsageError(`unknown option ${token.value}`);
    if (token.kind === "option-terminator") continue;
    const declared = flags[token.name];
    if (declared === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (declared.type === "boolean" && token.value !== undefined)
      throw new UsageError(`${token.rawName}: takes no value`);
    if (declared.type === "string" && (token.value === undefined || token.value === ""))
      throw new UsageError(`${token.rawName}: missing value`);
  }
  const options = tokens.flatMap((t) => (t.kind === "option" ? [{ name: t.name, value: t.value }] : []));
  return { values: values as FlagValues<F>, tokens: options };
}
