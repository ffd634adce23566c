import * as nodeModule from "node:module";
import { isDynamicProviderHost } from "./watchdog";

/**
 * In the dynamic provider host, Node's compile cache (Node ≥ 22.1; `NODE_COMPILE_CACHE` picks its
 * directory, `NODE_DISABLE_COMPILE_CACHE=1` turns it off) for the modules loaded after this one:
 * the engine starts a provider process for every `pulumi` command, and each one compiled this
 * package, zod and undici again. Cached, a `pulumi refresh` starts its reads about 40 ms of CPU
 * sooner (bench scenario 12). A program or a test that imports the provider is left alone: the
 * cache applies to every module its process loads next.
 */
export function enableCompileCacheInHost(argv: readonly string[] = process.argv): boolean {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (!isDynamicProviderHost(argv) || typeof enable !== "function") return false;
  try {
    enable();
    return true;
  } catch {
    // An unwritable cache directory costs the cache, never the command.
    return false;
  }
}

enableCompileCacheInHost();
