import { SDK_VERSION, type LiveWorkspace } from "../../sdk";
import { needsPassword, passwordKey } from "./render-program";

/** The files of the project around index.ts, by file name. */
export function renderProject(live: LiveWorkspace, project: string): Record<string, string> {
  const secrets = live.workloads.filter(needsPassword).map((w) => passwordKey(w.id));
  const yaml = [
    `name: ${project}`,
    `description: Workspace ${live.workspace} of the Workspace Workload Service, taken over by pulumi-wws import.`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "config:",
    "  # Every stack of this project: where the service is and which workspace. Set the API key per",
    "  # stack: pulumi config set --secret wws:apiKey",
    `  wws:baseUrl:\n    value: ${JSON.stringify(live.baseUrl)}`,
    `  wws:workspace:\n    value: ${JSON.stringify(live.workspace)}`,
    ...secrets.map(
      (k) =>
        `  ${k}:\n    type: string\n    secret: true\n    description: the current password of this database or VM`,
    ),
    "",
  ].join("\n");
  const pkg = {
    name: project,
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": "^3.139.0", "pulumi-wws": `^${SDK_VERSION}` },
    devDependencies: { "@types/node": "^22.0.0", "ts-node": "^10.9.2", typescript: "~5.9.3" },
  };
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "commonjs",
      moduleResolution: "node",
      strict: true,
      skipLibCheck: true,
      esModuleInterop: true,
    },
    files: ["index.ts"],
  };
  return {
    "Pulumi.yaml": yaml,
    "package.json": JSON.stringify(pkg, null, 2) + "\n",
    "tsconfig.json": JSON.stringify(tsconfig, null, 2) + "\n",
    ".gitignore": "node_modules/\nPulumi.*.yaml\n",
    "README.md": renderReadme(live, project, secrets),
  };
}

function renderReadme(live: LiveWorkspace, project: string, secrets: string[]): string {
  const logins = live.workloads.filter(needsPassword).map((w) => w.id);
  return [
    `# ${project}`,
    "",
    `Workspace \`${live.workspace}\` (${live.workloads.length} workloads, ${live.templates.length} templates) as a Pulumi program, written by`,
    "`pulumi-wws import`. To take it over:",
    "",
    "```sh",
    "npm install",
    "pulumi stack init <stack>                     # e.g. prod; any backend",
    "pulumi config set --secret wws:apiKey          # the workspace's API key (prompted)",
    ...secrets.map((k) => `pulumi config set --secret ${k}   # its current password`),
    "pulumi preview                                # every resource: create (taking over; nothing is sent)",
    "pulumi up                                     # records them in the stack; no workload is provisioned again",
    "pulumi preview                                # no changes",
    "```",
    "",
    "Each workload carries the `import` resource option with its `<workspace>/<id>`: its first `pulumi up`",
    "finds it running the declared spec and sends nothing (one that runs another spec is refused,",
    "naming the fields). Remove the options afterwards, as Pulumi's docs say, or keep them: once the",
    "workloads are in the stack they change nothing. Each template carries `adoptId`: the saved template",
    "is taken over when every field matches (templates cannot be updated). VM logins are kept as they",
    "are (add `credentials` to set a new one). The passwords you set are recorded as given, not sent or",
    "checked: the service never shows them.",
    "",
    "Or with Pulumi's own command: `pulumi import --file import.json --generate-code=false --yes`",
    "records the workloads and templates with no request to the service (each entry carries what the",
    "provider records: the engine cannot read a dynamic resource before it is in the stack); then",
    "`pulumi up` and `pulumi preview` as above.",
    ...(logins.length > 0
      ? [
          `The file leaves out ${logins.join(", ")}: their login (set in the config above) is declared in`,
          "index.ts, and the service never shows a password, so a file cannot record it. That `pulumi up`",
          "takes them over through their `import` option, sending nothing.",
        ]
      : []),
    "",
  ].join("\n");
}
