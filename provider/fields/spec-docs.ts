/**
 * What each spec field of the workload create bodies (sdk/schemas/workloads.ts) is, for the classes'
 * doc comments (provider/resources/args.ts, generated): a phrase each, by its path in the body
 * (`ports[].port`, `backup.enabled`); `<type> <path>` where one type's field says more. Its type,
 * allowed values and what a change does come from the schema and the declarations, not from here;
 * a body field without a phrase here fails the generation.
 */
export const SPEC_FIELD_DOCS: Readonly<Record<string, string>> = Object.freeze({
  cpus: "Virtual CPUs",
  cpu: "CPU",
  memory: "Memory",
  storageSize: "Disk size",
  "credentials.username": "The user name; for a database it defaults to `app`",
  "credentials.password": "The password",
  ports: "Ports to open",
  "pod ports": "Ports to expose; each needs a name",
  "ports[].name": "The port's name",
  "ports[].port": "The port number",
  "pod ports[].port": "The port number; the first port makes the pod's `endpoint`",
  "ports[].protocol": "The protocol (`tcp` when unset)",
  placement:
    "Omitted: automatic placement (the service picks the best host), the default. Set only for locality: a `region` " +
    "or a pinned `host` (see `getFleetHosts()`)",
  "placement.region": "Run on any host of this region; not together with `host`",
  "placement.host": "Pin to this host (it implies its region); not together with `region`",
  aiDaemon: "An AI agent that operates the VM over SSH; enabling it requires `credentials` on the same request",
  "aiDaemon.enabled": "Attach the agent; the first request that enables it must carry `credentials`",
  "aiDaemon.provider": "The model provider",
  "aiDaemon.model": "The model",
  image: "The container image reference; set `image` or `source.repo`",
  command: "The command to run instead of the image's",
  source: "Build from source instead of an image; set `image` or `source.repo`",
  "source.repo": "The repository to build from",
  "source.ref": "A branch, tag or commit",
  autodiscover: "Discover the workspace's browsers by itself",
  engine: "The database engine",
  version: "The engine version",
  instances: "Instances",
  tls: "TLS between clients and the database",
  adminConsole:
    "Attach a web admin console at `https://<id>-admin-<workspace>.<domain>` (login `admin` plus the database " +
    "password); its URL and readiness are the outputs `adminUrl` and `adminReady`",
  network:
    "External exposure. When exposed, the endpoint is TLS with SNI routing at `<id>.<workspace>.<domain>`: postgres " +
    "on 5432 (`sslmode=require`), redis on 6380",
  "network.exposed": "Expose the database outside the workspace",
  backup: "Backups (postgres only)",
  "backup.enabled": "Take backups; postgres only",
  "backup.schedule": "When, e.g. a cron expression",
  "backup.retentionDays": "How long backups are kept, in days",
});
