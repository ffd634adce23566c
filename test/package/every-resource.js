// A user's stack using every resource and function of pulumi-wws, as installed from the packed
// tarball (test/package/packed.test.ts copies it into a fresh project outside the checkout).
const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");

const config = new pulumi.Config();
const workspace = new wws.Workspace("ws", { name: new pulumi.Config("wws").require("workspace") });

const hosts = wws.getFleetHostsOutput({ workspace });
const region = hosts.apply((h) => h.regions[0].name);

const vm = new wws.VirtualMachine("vm", {
  workspace,
  os: "ubuntu",
  cpus: 2,
  placement: { region },
  credentials: { password: config.requireSecret("vmPassword") },
});
const web = new wws.Pod("web", { workspace, image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
new wws.Browser("browser", { workspace, cpu: "1", memory: "2Gi" });
new wws.Controller("controller", { workspace, autodiscover: true });
const db = new wws.Database("db", {
  workspace,
  engine: "postgres",
  adminConsole: true,
  network: { exposed: true },
  credentials: { password: config.requireSecret("dbPassword") },
});
new wws.Workload("cache", {
  workspace,
  kind: "storage",
  spec: { engine: "redis", tls: true },
  credentials: { password: config.requireSecret("dbPassword") },
});
const template = new wws.Template("tpl", {
  workspace,
  name: "web",
  kind: "pod",
  config: { pod: { image: "nginx:1.27" } },
});

exports.region = region;
exports.vmPhase = vm.phase;
// Read once the pod exists (its phase is unknown while a preview plans its creation).
exports.webStatus = web.phase
  .apply(() => wws.getWorkloadStatus({ workspace, workloadId: "web" }))
  .apply((s) => s.phase);
exports.dbConnectionUri = db.connectionUri;
exports.templateId = template.templateId;
