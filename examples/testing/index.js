// The stack under test: a web pod, a postgres database and a template. Yours goes here.
const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");

const config = new pulumi.Config();

const web = new wws.Pod("web", { image: "nginx:1.27", ports: [{ name: "http", port: 80 }] });
const db = new wws.Database("db", {
  engine: "postgres",
  network: { exposed: true },
  credentials: { password: config.requireSecret("dbPassword") },
});
new wws.Template("web-template", { name: "web", kind: "pod", config: { pod: { image: "nginx:1.27" } } });

exports.webEndpoint = web.endpoint;
exports.dbConnectionUri = db.connectionUri;
