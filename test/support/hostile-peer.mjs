// A peer that fails the way a broken network does, in a process of its own on loopback: a
// service (`--role service`) or a forward proxy (`--role proxy`), each playing one `--mode`.
//
//   node hostile-peer.mjs --role service --mode drip --upstream http://127.0.0.1:8787 [--host 127.0.0.2]
//   node hostile-peer.mjs --role proxy --mode accept-close
//
// It prints `listening <port>` once, then one line per connection (`connection`) and per request
// (`request <METHOD> <target>`), so that a test counts what a client made of the failure. It ends
// when its stdin closes. Modes that answer well (`pass`, a service's `stream-*`) forward to the
// real local service at `--upstream` (a proxy tunnels to whatever `CONNECT` names).
import * as http from "node:http";
import * as net from "node:net";

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(" ")
    .split("--")
    .filter(Boolean)
    .map((a) => a.trim().split(/\s+/)),
);
const role = args.role;
const mode = args.mode;
const upstream = args.upstream ? new URL(args.upstream) : undefined;
const say = (line) => process.stdout.write(`${line}\n`);

const ERROR_BODY = (code, message) => JSON.stringify({ error: { code, message } });
const HUGE_BODY_BYTES = 50 * 1024 * 1024; // 50 MB
/** Bytes a flood or an endless line writes at most, so that the peer stops by itself. */
const FLOOD_LIMIT_BYTES = 512 * 1024 * 1024;
const timers = new Set();

/** Writes `text` one byte a second until the socket closes. */
function drip(socket, text) {
  let i = 0;
  const t = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(t);
    socket.write(text[i++]);
  }, 1000);
  timers.add(t);
  socket.on("close", () => clearInterval(t));
}

/** Writes `chunk` again and again, as fast as the reader takes it, up to FLOOD_LIMIT_BYTES. */
function flood(res, chunk) {
  let sent = 0;
  const more = () => {
    while (sent < FLOOD_LIMIT_BYTES && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", more);
    }
    res.end();
  };
  more();
}

function forward(req, res) {
  const out = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  out.on("error", () => res.destroy());
  req.pipe(out);
}

function serviceAnswer(req, res) {
  const json = (status, body, headers = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  };
  const stream = req.url.includes("/events/stream");
  switch (mode) {
    case "redirect-302":
    case "redirect-307":
      res.writeHead(Number(mode.slice(-3)), { location: "http://127.0.0.1:9/elsewhere" });
      return void res.end();
    case "429-huge-retry-after":
      return json(429, ERROR_BODY("rate_limited", "slow down"), { "retry-after": "999999" });
    case "500-forever":
      return json(500, ERROR_BODY("internal", "the service failed"));
    case "malformed-json":
      return json(200, '{"name": "alpha", "workloads": [{"id": ');
    case "50mb-body": {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(HUGE_BODY_BYTES) });
      const head = '{"name":"alpha","generation":1,"workloads":[],"padding":"';
      res.write(head);
      let left = HUGE_BODY_BYTES - head.length - 2;
      const block = Buffer.alloc(64 * 1024, "x");
      const more = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, block.length);
          left -= n;
          if (!res.write(block.subarray(0, n))) return void res.once("drain", more);
        }
        res.end('"}');
      };
      return more();
    }
    case "stream-silent":
      if (stream) return; // never a byte, not even the status line
      return forward(req, res);
    case "stream-flood":
      if (!stream) return forward(req, res);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      return flood(res, Buffer.from("event: spec-changed\ndata: {}\n\n".repeat(64)));
    case "stream-endless-line":
      if (!stream) return forward(req, res);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: ");
      return flood(res, Buffer.alloc(64 * 1024, "x"));
    default:
      return forward(req, res);
  }
}

/** Modes decided on the raw connection, before any HTTP: the same for a service and a proxy. */
function rawMode(socket) {
  if (["accept-close", "accept-stall", "drip"].includes(mode)) socket.once("data", () => say("request (not parsed)"));
  switch (mode) {
    case "accept-close":
      socket.once("data", () => socket.destroy());
      return true;
    case "accept-stall":
      socket.on("data", () => undefined);
      return true;
    case "drip":
      socket.once("data", () => drip(socket, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{}"));
      return true;
    default:
      return false;
  }
}

function proxyConnect(req, socket, head) {
  say(`request CONNECT ${req.url}`);
  const status = { 407: 407, 403: 403, 502: 502 }[mode];
  if (status) {
    const reason = http.STATUS_CODES[status];
    const extra = status === 407 ? 'Proxy-Authenticate: Basic realm="proxy"\r\n' : "";
    return void socket.end(`HTTP/1.1 ${status} ${reason}\r\n${extra}content-length: 0\r\n\r\n`);
  }
  const [host, port] = req.url.split(":");
  let open = false;
  const target = net.connect(Number(port), host, () => {
    open = true;
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    target.write(head);
    target.pipe(socket);
    socket.pipe(target);
  });
  // As a real proxy does: a service it cannot reach is a 502, a tunnel that breaks is closed.
  target.on("error", () =>
    open ? socket.destroy() : socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"),
  );
  socket.on("error", () => target.destroy());
}

const server = http.createServer(role === "service" ? serviceAnswer : (req, res) => res.writeHead(405).end());
server.on("request", (req) => role === "service" && say(`request ${req.method} ${req.url}`));
if (role === "proxy") server.on("connect", proxyConnect);
// Every connection is counted and may be taken by a raw mode before the HTTP parser sees it.
const plain = net.createServer((socket) => {
  say("connection");
  socket.on("error", () => undefined);
  if (!rawMode(socket)) server.emit("connection", socket);
});
server.headersTimeout = 0;
server.requestTimeout = 0;

plain.listen(0, args.host ?? "127.0.0.1", () => say(`listening ${plain.address().port}`));
process.stdin.resume();
process.stdin.on("end", () => {
  for (const t of timers) clearInterval(t);
  plain.close();
  process.exit(0);
});
