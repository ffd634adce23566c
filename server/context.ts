import type { KeyRing } from "./auth";
import type { Counters } from "./http/counters";
import type { Faults } from "./http/faults";
import type { ResolvedOptions } from "./options";
import type { Store } from "./state/store";
import type { Reconciler } from "./workloads/reconciler";

/** What the route handlers of one running service share. */
export interface ServiceContext {
  options: ResolvedOptions;
  keys: KeyRing;
  store: Store;
  reconciler: Reconciler;
  counters: Counters;
  faults: Faults;
}
