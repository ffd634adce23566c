import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { closedPort } from "./common";

/** A PostgreSQL server of a test's own: `url` is what `pulumi login` takes. */
export interface Postgres {
  url: string;
  /** `psql -At -c sql` in `database` (default `postgres`): the rows, one a line, columns separated by `|`. */
  query(sql: string, database?: string): string;
  /** A new, empty database of the server, and its `url`: a backend of its own. */
  database(name: string): string;
  /** The server's pid (the postmaster, whose children serve the connections). */
  pid: number;
  stop(): void;
}

/** The directory of Debian's PostgreSQL binaries (the newest), or of an `initdb` on PATH. */
function binDir(): string {
  const debian = "/usr/lib/postgresql";
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => fs.existsSync(path.join(debian, v, "bin/initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return path.join(debian, versions[0], "bin");
  try {
    return path.dirname(execFileSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).trim());
  } catch {
    throw new Error(
      "PostgreSQL is not installed: no initdb in /usr/lib/postgresql/*/bin or on PATH. Install Debian's `postgresql` package (scripts/install-postgres.sh does, run by scripts/test.sh)",
    );
  }
}

/**
 * Starts a PostgreSQL server on 127.0.0.1 and a free port, in a directory of its own, with a
 * password-protected user. PostgreSQL refuses to run as root: as root, it runs as `postgres`.
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]): string =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, file),
      asRoot ? ["-u", "postgres", "--", path.join(bin, file), ...args] : args,
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wws-postgres-"));
  const password = randomBytes(12).toString("hex");
  fs.writeFileSync(path.join(dir, "pw"), password);
  if (asRoot) execFileSync("chown", ["-R", "postgres", dir]);
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "pulumi", `--pwfile=${path.join(dir, "pw")}`, "-A", "scram-sha-256", "--no-sync"]);
  const port = await closedPort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off`;
  run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  const urlOf = (db: string): string => `postgres://pulumi:${password}@127.0.0.1:${port}/${db}?sslmode=disable`;
  const url = urlOf("postgres");
  const query = (sql: string, database = "postgres"): string =>
    execFileSync(path.join(bin, "psql"), [urlOf(database), "-At", "-c", sql], { encoding: "utf8" });
  return {
    url,
    query,
    database: (name) => {
      query(`CREATE DATABASE "${name}"`);
      return urlOf(name);
    },
    pid: Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]),
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
