#!/usr/bin/env node
// A small Node.js implementation of Pulumi's `pulumi-language-nodejs` language host, used when the
// official Go binary cannot be built (scripts/get-pulumi.sh installs it beside the `pulumi` CLI).
//
// The engine starts a language host as `pulumi-language-nodejs [--tracing URL] [-v=N] <engineAddr>`
// with cwd = the project directory, reads ONE line from our stdout (the port of our gRPC server),
// then calls pulumirpc.LanguageRuntime methods on it. Anything we print after that line is shown
// to the user (stdout as info, stderr as errors), so the program's own output is simply inherited.
//
// Run() starts `node [nodeargs] <@pulumi/pulumi>/cmd/run <flags> <entry point> [args]`; that runner
// registers ts-node (PULUMI_NODEJS_TYPESCRIPT=true), reads config from PULUMI_CONFIG and talks to
// the engine's resource monitor directly. Not supported: policy packs / plugins written in Node
// (RunPlugin), codegen (GenerateProgram/Project/Package, Pack, Link), --attach-debugger.
"use strict";

const fs = require("fs");
const path = require("path");
const childProcess = require("child_process");
const { createRequire } = require("module");

// ---- command line: flags we know, others ignored; the last positional is the engine address. ----
const opts = { tracing: "", engine: "" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const m = /^--?([\w-]+)(?:=(.*))?$/.exec(argv[i]);
  if (!m) {
    opts.engine = argv[i];
    continue;
  }
  const [, name, inline] = m;
  // Flags the Go host and the engine use that take a separate value; booleans (--logtostderr, -v=N) don't.
  const takesValue = ["tracing", "root", "runtime"].includes(name) && inline === undefined;
  const value = takesValue ? argv[++i] : inline;
  if (name === "tracing") opts.tracing = value || "";
  if (name === "version") opts.version = true;
}

// Optional call log for debugging the protocol: PULUMI_LANGUAGE_NODEJS_LOG=/path/to/file.
function trace(msg) {
  const file = process.env.PULUMI_LANGUAGE_NODEJS_LOG;
  if (file)
    try {
      fs.appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${msg}\n`);
    } catch {}
}

// require() as if from a file inside `dir`, so node_modules lookup walks up from there.
const requireFrom = (dir) => createRequire(path.join(path.resolve(dir), "__pulumi_langhost__.js"));

// Directory of the @pulumi/pulumi a program in `dir` would load, or undefined.
function sdkDir(dir) {
  try {
    return path.dirname(requireFrom(dir).resolve("@pulumi/pulumi/package.json"));
  } catch {
    return undefined;
  }
}

// The gRPC stubs come from the program's own @pulumi/pulumi (cwd = project dir), else from one
// installed next to this script (e.g. the pulumi-wws checkout when run from scripts/).
const sdk = sdkDir(process.cwd()) || sdkDir(__dirname);
if (!sdk) {
  console.error(
    "pulumi-language-nodejs: cannot find @pulumi/pulumi from " +
      process.cwd() +
      ". It looks like the Pulumi SDK has not been installed. Have you run npm install?",
  );
  process.exit(1);
}
const sdkRequire = requireFrom(sdk);
const sdkVersion = sdkRequire("./package.json").version;
if (opts.version) {
  console.log(sdkVersion);
  process.exit(0);
}
const grpc = sdkRequire("@grpc/grpc-js");
const services = sdkRequire("./proto/language_grpc_pb.js");
const lang = sdkRequire("./proto/language_pb.js");
const plugin = sdkRequire("./proto/plugin_pb.js");
const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb.js");

// Exit code of @pulumi/pulumi/cmd/run meaning "the error was already shown to the user": the engine
// must then bail out quietly (RunResponse.bail) instead of printing a second, generic error.
const EXIT_ALREADY_REPORTED = 32;

// ---- runtime options from Pulumi.yaml (`runtime: {name: nodejs, options: {...}}`) ----
function runtimeOptions(info) {
  const raw = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  const o = { typescript: true, tsconfig: "", nodeargs: "", packagemanager: "auto" };
  const want = (k, type) => {
    if (raw[k] === undefined) return;
    if (typeof raw[k] !== type) throw new Error(`${k} option must be a ${type}`);
    o[k] = raw[k];
  };
  want("typescript", "boolean");
  want("tsconfig", "string");
  want("nodeargs", "string");
  want("packagemanager", "string");
  if (!["auto", "npm", "yarn", "pnpm", "bun"].includes(o.packagemanager)) {
    throw new Error(`packagemanager option must be one of auto, npm, yarn, pnpm or bun, got "${o.packagemanager}"`);
  }
  return o;
}

// Shell-like split of `nodeargs` (whitespace, single/double quotes, backslash escapes).
function splitArgs(s) {
  const out = [];
  let cur = null;
  let quote = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur = cur ?? "";
    } else if (c === "\\" && i + 1 < s.length) cur = (cur ?? "") + s[++i];
    else if (/\s/.test(c)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else cur = (cur ?? "") + c;
  }
  if (quote) throw new Error(`unterminated quote in nodeargs: ${s}`);
  if (cur !== null) out.push(cur);
  return out;
}

// ---- dependency discovery ----
// Packages in node_modules (hoisted or nested) whose package.json says {"pulumi": {"resource": true}}
// ship a resource provider plugin the engine must load; like the Go host we report them.
function pluginPackages(programDir) {
  const found = [];
  const seen = new Set();
  const scan = (nodeModules) => {
    let real;
    try {
      real = fs.realpathSync(nodeModules);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    for (const name of safeReaddir(real)) {
      const dirs = name.startsWith("@")
        ? safeReaddir(path.join(real, name)).map((n) => path.join(real, name, n))
        : [path.join(real, name)];
      for (const dir of dirs) {
        const pkg = readJson(path.join(dir, "package.json"));
        if (pkg && pkg.pulumi && pkg.pulumi.resource) {
          let plugName = pkg.pulumi.name || (pkg.name && pkg.name.startsWith("@pulumi/") ? pkg.name.slice(8) : "");
          let version = pkg.pulumi.version || pkg.version || "";
          if (plugName && version)
            found.push({
              name: plugName,
              version: version.startsWith("v") ? version : "v" + version,
              server: pkg.pulumi.server || "",
            });
          else console.error(`pulumi-language-nodejs: ignoring ${dir}: its "pulumi" section needs a name and version`);
        }
        scan(path.join(dir, "node_modules"));
      }
    }
  };
  scan(path.join(programDir, "node_modules"));
  return found;
}
function safeReaddir(dir) {
  try {
    return fs.readdirSync(dir).filter((n) => !n.startsWith("."));
  } catch {
    return [];
  }
}
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

// Installed version of package `name` as seen from `dir` (walks up through node_modules dirs).
function installedVersion(dir, name) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const pkg = readJson(path.join(d, "node_modules", name, "package.json"));
    if (pkg) return pkg.version || "";
    if (path.dirname(d) === d) return "";
  }
}

function detectPackageManager(dir, configured) {
  if (configured !== "auto") return configured;
  const has = (f) => fs.existsSync(path.join(dir, f));
  return has("pnpm-lock.yaml")
    ? "pnpm"
    : has("yarn.lock")
      ? "yarn"
      : has("bun.lock") || has("bun.lockb")
        ? "bun"
        : "npm";
}

// ---- the LanguageRuntime service ----
const running = new Set(); // child processes of in-flight Run calls, for Cancel

function programDirOf(info) {
  return (info && info.getProgramDirectory()) || process.cwd();
}

function run(req) {
  const info = req.getInfo();
  const programDir = programDirOf(info);
  const o = runtimeOptions(info);
  let runPath = process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH || "@pulumi/pulumi/cmd/run";
  try {
    runPath = requireFrom(programDir).resolve(runPath);
  } catch {
    return { error: "It looks like the Pulumi SDK has not been installed. Have you run pulumi install?" };
  }
  // Config keys arrive as "<namespace>:<name>"; the runner also wants the legacy "<ns>:config:<name>".
  const config = {};
  req.getConfigMap().forEach((v, k) => {
    const parts = k.split(":");
    config[parts.length === 2 ? `${parts[0]}:config:${parts[1]}` : k] = v;
  });
  const args = [...splitArgs(o.nodeargs), runPath];
  const flag = (k, v) => {
    if (v !== undefined && v !== null && v !== "") args.push(`--${k}`, String(v));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", opts.engine);
  flag("organization", req.getOrganization());
  flag("project", req.getProject());
  flag("root-directory", info ? info.getRootDirectory() : "");
  flag("stack", req.getStack());
  flag("pwd", programDir);
  if (req.getDryrun()) args.push("--dry-run");
  flag("parallel", req.getParallel());
  flag("tracing", opts.tracing);
  args.push((info && info.getEntryPoint()) || req.getProgram() || ".", ...req.getArgsList());
  const env = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  if (o.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (o.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = o.tsconfig;
  trace(`Run: node ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = childProcess.spawn(process.execPath, args, {
      cwd: programDir,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    running.add(child);
    child.on("error", (err) => {
      running.delete(child);
      resolve({ error: `Problem executing program (could not run language executor): ${err.message}` });
    });
    child.on("exit", (code, signal) => {
      running.delete(child);
      if (code === 0) resolve({});
      else if (code === EXIT_ALREADY_REPORTED) resolve({ bail: true });
      else if (code !== null) resolve({ error: `Program exited with non-zero exit code: ${code}` });
      else resolve({ error: `Program exited unexpectedly: killed by ${signal}` });
    });
  });
}

// Wraps a handler: logs the call, turns exceptions into gRPC errors.
function unary(name, fn) {
  return (call, callback) => {
    trace(name);
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (res) => callback(null, res),
        (err) => {
          trace(`${name} failed: ${err && err.stack}`);
          callback({ code: grpc.status.UNKNOWN, details: String(err && err.message ? err.message : err) });
        },
      );
  };
}

const impl = {
  // Only used when the engine attaches to an already-running host (PULUMI_DEBUG_LANGUAGES).
  handshake: unary("Handshake", (req) => {
    opts.engine = req.getEngineAddress() || opts.engine;
    return new lang.LanguageHandshakeResponse();
  }),
  getPluginInfo: unary("GetPluginInfo", () => new plugin.PluginInfo().setVersion(sdkVersion)),
  getRequiredPackages: unary("GetRequiredPackages", (req) =>
    new lang.GetRequiredPackagesResponse().setPackagesList(
      pluginPackages(programDirOf(req.getInfo())).map((p) =>
        new plugin.PackageDependency().setName(p.name).setKind("resource").setVersion(p.version).setServer(p.server),
      ),
    ),
  ),
  // Deprecated predecessor of GetRequiredPackages, only called by engines that lack the latter.
  getRequiredPlugins: unary("GetRequiredPlugins", (req) =>
    new lang.GetRequiredPluginsResponse().setPluginsList(
      pluginPackages(req.getInfo() ? programDirOf(req.getInfo()) : req.getProgram() || process.cwd()).map((p) =>
        new plugin.PluginDependency().setName(p.name).setKind("resource").setVersion(p.version).setServer(p.server),
      ),
    ),
  ),
  run: unary("Run", async (req) => {
    let r;
    try {
      r = await run(req);
    } catch (err) {
      r = { error: err.message };
    }
    trace(`Run result: ${JSON.stringify(r)}`);
    return new lang.RunResponse().setError(r.error || "").setBail(!!r.bail);
  }),
  // Server-streaming: we install nothing (dependencies are the caller's business), just say so.
  installDependencies: (call) => {
    trace("InstallDependencies");
    const msg =
      "pulumi-language-nodejs (pulumi-wws): not installing dependencies; run your package manager yourself.\n";
    call.write(new lang.InstallDependenciesResponse().setStdout(Buffer.from(msg)));
    call.end();
  },
  runtimeOptionsPrompts: unary("RuntimeOptionsPrompts", () => new lang.RuntimeOptionsResponse()),
  template: unary("Template", () => new lang.TemplateResponse()),
  about: unary("About", (req) => {
    const o = runtimeOptions(req.getInfo());
    const res = new lang.AboutResponse().setExecutable(process.execPath).setVersion(process.version);
    res.getMetadataMap().set("packagemanager", detectPackageManager(programDirOf(req.getInfo()), o.packagemanager));
    res.getMetadataMap().set("languagehost", "pulumi-wws Node.js host (@pulumi/pulumi " + sdkVersion + ")");
    return res;
  }),
  getProgramDependencies: unary("GetProgramDependencies", (req) => {
    const dir = programDirOf(req.getInfo());
    let names;
    if (req.getTransitivedependencies()) {
      const nm = path.join(dir, "node_modules");
      names = safeReaddir(nm).flatMap((n) =>
        n.startsWith("@") ? safeReaddir(path.join(nm, n)).map((s) => `${n}/${s}`) : [n],
      );
    } else {
      const pkg = readJson(path.join(dir, "package.json")) || {};
      names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    }
    return new lang.GetProgramDependenciesResponse().setDependenciesList(
      names.sort().map((n) => new lang.DependencyInfo().setName(n).setVersion(installedVersion(dir, n))),
    );
  }),
  // Sent when the engine shuts down or the user cancels: interrupt running programs.
  cancel: unary("Cancel", () => {
    for (const c of running) c.kill("SIGINT");
    return new Empty();
  }),
  // Methods left out (RunPlugin, GenerateProgram, GenerateProject, GeneratePackage, Pack, Link)
  // are answered with UNIMPLEMENTED by grpc-js.
};

const server = new grpc.Server();
server.addService(services.LanguageRuntimeService, impl);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`pulumi-language-nodejs: could not start the gRPC server: ${err.message}`);
    process.exit(1);
  }
  trace(`listening on ${port}; engine ${opts.engine}; cwd ${process.cwd()}; sdk ${sdk}`);
  // The handshake with the engine: the first stdout line is our port. Written synchronously so it
  // cannot be lost or reordered with output of programs we run later (they inherit our stdout).
  fs.writeSync(1, `${port}\n`);
});

// The engine kills plugins when it is done; also leave if it dies without doing so (we get
// re-parented). Not when started by hand for PULUMI_DEBUG_LANGUAGES (no engine address given).
if (opts.engine) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000).unref();
}
process.on("SIGINT", () => server.tryShutdown(() => process.exit(0)));
