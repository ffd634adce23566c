/**
 * The quickstart: one workspace of the Workspace Workload Service with a container app, a headless
 * browser, a browser-automation controller, an Ubuntu VM, a postgres database with its admin
 * console and an exposed endpoint, and a template.
 *
 * Stack config (see README.md):
 *   wws:baseUrl, wws:workspace      where the service is and which workspace
 *   wws:apiKey          (secret)    the workspace's API key (or WWS_API_KEY, which keeps it out of the state)
 *   vmPassword          (secret)    the VM's login
 *   dbPassword          (secret)    the database's application login (user `app`)
 */
import * as pulumi from "@pulumi/pulumi";
import * as wws from "pulumi-wws";

const config = new pulumi.Config();
const vmPassword = config.requireSecret("vmPassword");
const dbPassword = config.requireSecret("dbPassword");

// The connection: workspace, base URL and API key all from the stack config (`wws:workspace`,
// `wws:baseUrl`, `wws:apiKey`), or the environment (WWS_*).
const workspace = new wws.Workspace("workspace", {});

const web = new wws.Pod("web", {
  workspace,
  image: "nginx:1.27",
  cpu: "250m",
  memory: "256Mi",
  ports: [{ name: "http", port: 80 }],
});

const browser = new wws.Browser("browser", { workspace, cpu: "1", memory: "2Gi" });

const controller = new wws.Controller("controller", { workspace, autodiscover: true });

const vm = new wws.VirtualMachine("dev-vm", {
  workspace,
  os: "ubuntu",
  cpus: 2,
  memory: "4Gi",
  storageSize: "40Gi",
  credentials: { username: "ubuntu", password: vmPassword },
  ports: [{ name: "ssh", port: 22 }],
});

const db = new wws.Database("db", {
  workspace,
  engine: "postgres",
  version: "16",
  instances: 1,
  storageSize: "10Gi",
  adminConsole: true,
  waitForAdminConsole: true,
  network: { exposed: true },
  credentials: { password: dbPassword },
  backup: { enabled: true, schedule: "0 3 * * *", retentionDays: 7 },
});

const webTemplate = new wws.Template("web-template", {
  workspace,
  name: "nginx web",
  description: "A small nginx container app",
  kind: "pod",
  config: { pod: { image: "nginx:1.27", cpu: "250m", memory: "256Mi", ports: [{ name: "http", port: 80 }] } },
});

export const workspaceName = workspace.name;
export const webEndpoint = web.endpoint;
export const phases = {
  web: web.phase,
  browser: browser.phase,
  controller: controller.phase,
  vm: vm.phase,
  db: db.phase,
};
export const vmId = vm.workloadId;
/** How to connect, without the password: `postgresql://app@<id>.<workspace>.<domain>:5432/postgres?sslmode=require`. */
export const dbConnectionUri = db.connectionUri;
/** Log in as `admin` with the database password. */
export const dbAdminUrl = db.adminUrl;
export const dbAdminReady = db.adminReady;
export const templateId = webTemplate.templateId;
