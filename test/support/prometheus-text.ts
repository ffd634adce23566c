/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const VALUE = "[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|Inf|NaN)";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (${VALUE})(?: -?[0-9]+)?$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const HELP = new RegExp(`^# HELP (${NAME}) .*$`);
const SUFFIXES: Record<string, string[]> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["_sum", "_count"],
  counter: [""],
  gauge: [""],
  untyped: [""],
};

/**
 * Parses Prometheus' text format (version 0.0.4) strictly: every line empty, a HELP, a TYPE or a sample
 * of a family whose TYPE came before it, each family's TYPE once. Throws naming the first line that
 * is not; returns the samples.
 */
export function parsePrometheusText(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${JSON.stringify(line)}`;
    const type = TYPE.exec(line);
    if (type) {
      if (types.has(type[1])) throw new Error(`${where}: a second TYPE of ${type[1]}`);
      types.set(type[1], type[2]);
      return;
    }
    // The format ignores empty lines (prom-client puts one between families).
    if (HELP.test(line) || line === "") return;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`${where}: not a HELP, a TYPE or a sample`);
    const family = [...types].find(([name, t]) => SUFFIXES[t].some((suffix) => m[1] === name + suffix));
    if (!family) throw new Error(`${where}: ${m[1]} has no TYPE before it`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]] = l[2].replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    const v = m[3].replace(/^\+/, "");
    samples.push({ name: m[1], labels, value: v === "Inf" ? Infinity : v === "-Inf" ? -Infinity : Number(v) });
  });
  return samples;
}

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
