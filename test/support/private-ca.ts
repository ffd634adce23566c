import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import * as tls from "node:tls";

/** A private CA (`ca.pem`) and a server certificate it signed for `host`, made with openssl in `dir`. */
export function privateCa(dir: string, host: string): { caFile: string; key: string; cert: string } {
  const openssl = (...args: string[]): void => void execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test Company CA");
  openssl("req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", `/CN=${host}`);
  fs.writeFileSync(path.join(dir, "san.cnf"), `subjectAltName=DNS:${host}\n`);
  const sign = ["-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "san.cnf"];
  openssl("x509", "-req", "-in", "server.csr", ...sign, "-out", "server.pem");
  return {
    caFile: path.join(dir, "ca.pem"),
    key: fs.readFileSync(path.join(dir, "server.key"), "utf8"),
    cert: fs.readFileSync(path.join(dir, "server.pem"), "utf8"),
  };
}

export interface TlsFront {
  port: number;
  /** TCP connections accepted so far (a refused certificate still counts one). */
  connections(): number;
  close(): void;
}

/** A TLS front on 127.0.0.1 with `key` and `cert` that forwards every connection to `target` (plain HTTP). */
export function startTlsFront(key: string, cert: string, target: URL): Promise<TlsFront> {
  let connections = 0;
  const server = tls.createServer({ key, cert }, (socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    const end = (): void => void (socket.destroy(), upstream.destroy());
    socket.on("error", end);
    upstream.on("error", end);
  });
  server.on("connection", () => connections++);
  // A client refusing the certificate: its side of the story is the test's.
  server.on("tlsClientError", () => undefined);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => {
          server.close();
        },
      }),
    ),
  );
}
