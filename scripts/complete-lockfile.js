#!/usr/bin/env node
/**
 * Adds to package-lock.json the platform packages (optional dependencies such as
 * `@swc/core-darwin-arm64`) that npm left out of it, so that `npm ci` accepts the lockfile on
 * every platform: run it after any `npm install` that rewrote the lockfile.
 *
 * Why: npm leaves an optional dependency it cannot fetch out of the lockfile without a word, and
 * a registry mirror that carries only Linux builds answers 404 for the others. `npm ci` then
 * finds the edge `@swc/core -> @swc/core-darwin-arm64` unmet and refuses the lockfile on every
 * platform, Linux included ("Missing: ... from lock file"). The entries written here carry the
 * version the parent pins and the os/cpu/libc npm needs to skip them elsewhere; they have no
 * `integrity` (the mirror has no tarball to hash), so npm fetches them by name@version on the
 * platform that needs them.
 *
 * Usage: node scripts/complete-lockfile.js [--check]   (--check: exit 1 when entries are missing)
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const LOCK = path.join(__dirname, "..", "package-lock.json");
const OS = ["darwin", "linux", "win32", "android", "freebsd", "openharmony"];
const CPU = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64"];

/** os, cpu and libc from a platform package's name, e.g. `core-linux-arm64-musl`; undefined when it is not one. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const i = parts.findIndex((p) => OS.includes(p));
  if (i < 0 || !CPU.includes(parts[i + 1])) return undefined;
  const rest = parts.slice(i + 2).join("-");
  const out = { cpu: [parts[i + 1]], os: [parts[i]] };
  if (parts[i] === "linux") out.libc = [/musl/.test(rest) ? "musl" : "glibc"];
  return out;
}

function missingEntries(lock) {
  const added = {};
  for (const [key, entry] of Object.entries(lock.packages)) {
    const base = key.slice(0, key.lastIndexOf("node_modules/"));
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const at = `${base}node_modules/${dep}`;
      const platform = platformOf(dep);
      if (lock.packages[at] || added[at] || !platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      added[at] = { version, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
    }
  }
  return added;
}

const lock = JSON.parse(fs.readFileSync(LOCK, "utf8"));
const added = missingEntries(lock);
const names = Object.keys(added);
if (process.argv.includes("--check")) {
  if (names.length)
    console.error(
      `package-lock.json lacks ${names.length} platform packages (${names.slice(0, 3).join(", ")}, ...): run node scripts/complete-lockfile.js`,
    );
  process.exit(names.length ? 1 : 0);
}
const packages = { ...lock.packages, ...added };
lock.packages = Object.fromEntries(
  Object.keys(packages)
    .sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en")))
    .map((k) => [k, packages[k]]),
);
fs.writeFileSync(LOCK, JSON.stringify(lock, null, 2) + "\n");
console.log(`complete-lockfile: added ${names.length} platform packages`);
