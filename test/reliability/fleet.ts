/**
 * The fleet of the CLI reliability tests that `pulumi up` 30 workloads (cli-faults,
 * cli-throttling): 10 pods, 10 browsers and 10 controllers, as an inline program.
 */
import * as wws from "../../index";

const KINDS = ["pod", "browser", "controller"] as const;

/** 30 workloads: 10 of each kind, ids `pod-00`, `browser-00`, `controller-00`, … */
export const DECLARED = Array.from({ length: 30 }, (_, i) => ({
  id: `${KINDS[i % 3]}-${String(Math.floor(i / 3)).padStart(2, "0")}`,
  kind: KINDS[i % 3],
}));

/** What the second `up` of a run changes: pods restarted, browsers resized (see `fleet`). */
export interface FleetChange {
  /** Every pod's `restartTrigger`: a new value restarts each pod once. */
  restartTrigger?: string;
  /** Every browser's memory: a new value updates each browser (a new generation). */
  browserMemory?: string;
  /** Also declare one template, `fleet template`. */
  template?: boolean;
}

/** The inline program declaring `DECLARED`; its output `phases` maps each id to its phase. */
export function fleet(o: { readyTimeoutSeconds?: number } & FleetChange = {}) {
  return async () => {
    const phases: Record<string, unknown> = {};
    for (const { id, kind } of DECLARED) {
      const common = { readyTimeoutSeconds: o.readyTimeoutSeconds ?? 120 };
      const r =
        kind === "pod"
          ? new wws.Pod(id, {
              ...common,
              image: "nginx:1.27",
              ports: [{ name: "http", port: 80 }],
              restartTrigger: o.restartTrigger,
            })
          : kind === "browser"
            ? new wws.Browser(id, { ...common, memory: o.browserMemory ?? "1Gi" })
            : new wws.Controller(id, { ...common, autodiscover: true });
      phases[id] = r.phase;
    }
    if (o.template)
      new wws.Template("tpl", { name: "fleet template", kind: "pod", config: { pod: { image: "nginx" } } });
    return { phases };
  };
}
