import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import type { ProjectStacks } from "../../watch/projects";
import { UsageError } from "../../command-line";

/** `pulumi-wws watch --config FILE`: the projects of one watch, in JSON. */
const WatchConfigFile = z.strictObject({
  projects: z
    .array(
      z.strictObject({
        /** The project's directory, relative to the file. */
        dir: z.string().min(1),
        stacks: z.array(z.string().min(1)).optional(),
        env: z.record(z.string(), z.string()).optional(),
      }),
    )
    .min(1),
});

/** The projects a config file names, their directories taken from the file's; an error names the file and the field. */
export function readWatchConfig(file: string): ProjectStacks[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(
      `--config ${file}: ${err instanceof Error ? err.message : String(err)} (a JSON file is expected)`,
    );
  }
  const r = WatchConfigFile.safeParse(parsed);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new UsageError(
      `--config ${file}: ${issue.path.join(".") || "(the file)"}: ${issue.message}; expected {"projects": [{"dir": "…", "stacks": ["…"], "env": {…}}]}`,
    );
  }
  const base = path.dirname(path.resolve(file));
  return r.data.projects.map((p) => ({ ...p, dir: path.resolve(base, p.dir) }));
}
