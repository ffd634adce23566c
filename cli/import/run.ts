import * as fs from "node:fs";
import * as path from "node:path";
import type { ImportArgs } from "./args";
import { readWorkspace } from "../../sdk";
import { renderImportFile } from "./render-import-file";
import { renderProgram } from "./render-program";
import { renderProject } from "./render-project";

interface ImportResult {
  dir: string;
  workloads: number;
  templates: number;
  skipped: Array<{ id: string; why: string }>;
  files: string[];
}

/** Reads the live workspace and writes the project into `args.out`, which must not exist or be empty. */
export async function runImport(args: ImportArgs): Promise<ImportResult> {
  const dir = path.resolve(args.out);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new Error(`--out: ${dir} is not empty; choose a new directory`);
  const live = await readWorkspace(args);
  const files = {
    ...renderProject(live, args.project),
    "index.ts": renderProgram(live),
    "import.json": renderImportFile(live),
  };
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return {
    dir,
    workloads: live.workloads.length,
    templates: live.templates.length,
    skipped: live.skipped,
    files: Object.keys(files).sort(),
  };
}
