import * as fs from "node:fs";
import * as path from "node:path";

/** Where a stack's project is and the environment its commands run with. @default this process's */
export interface StackPlace {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The stack's name in its project, where the watch names it otherwise (`project/stack` across projects). @default the watch's name */
  stack?: string;
}

/** The name `pulumi` knows the stack `watched` of `place` by. */
export function stackNameAt(watched: string, place: StackPlace): string {
  return place.stack ?? watched;
}

/** The `pulumi` of `env`'s PATH (the one a user's commands run), else plain `pulumi`. */
export function pulumiBinaryOf(env: NodeJS.ProcessEnv): string {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, "pulumi");
    if (fs.existsSync(candidate)) return candidate;
  }
  return "pulumi";
}

/** The name in the project file (Pulumi.yaml, Pulumi.yml or Pulumi.json) of the project at `place`; fails naming the directory. */
export function projectNameAt(place: StackPlace): string {
  const dir = place.cwd ?? process.cwd();
  for (const file of ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"]) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, file), "utf8");
    } catch {
      continue;
    }
    const name = file.endsWith(".json") ? jsonName(text) : yamlTopLevelName(text);
    if (name) return name;
    throw new Error(`${path.join(dir, file)} names no project: add a top-level \`name:\` line`);
  }
  throw new Error(`failed to find project settings file in workdir: ${dir}`);
}

function jsonName(text: string): string | undefined {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level `name:` of a YAML project file (unindented, optionally quoted, a trailing comment dropped). */
export function yamlTopLevelName(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const m = /^name\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = m[1].trim();
    const quoted = /^(["'])(.*)\1\s*(#.*)?$/.exec(value);
    if (quoted) return quoted[2] || undefined;
    return value.replace(/\s+#.*$/, "").trim() || undefined;
  }
  return undefined;
}
