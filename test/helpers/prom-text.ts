// A small strict parser of the Prometheus text exposition format (0.0.4) for tests: every sample
// belongs to a family declared by # TYPE before it, names and labels are well formed, label values
// escaped, no series twice, histograms with cumulative buckets ending in +Inf equal to _count.

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: PromSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePromText(text: string): Map<string, PromFamily> {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  text.split('\n').slice(0, -1).forEach((line, i) => {
    const where = `line ${i + 1}: ${line.slice(0, 120)}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) return comment(line, families, where);
    const s = parseSample(line, where);
    const fam = familyOf(s.name, families);
    if (!fam) throw new Error(`${where}: sample without a # TYPE line for its family`);
    const key = `${s.name}{${Object.entries(s.labels).sort().map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;
    if (seen.has(key)) throw new Error(`${where}: series ${key} appears twice`);
    seen.add(key);
    fam.samples.push(s);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

function comment(line: string, families: Map<string, PromFamily>, where: string): void {
  const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
  if (!m) return; // other comments are allowed
  const [, kind, name, rest] = m as unknown as [string, string, string, string];
  if (!NAME.test(name)) throw new Error(`${where}: bad metric name`);
  let fam = families.get(name);
  if (kind === 'TYPE') {
    if (!TYPES.has(rest)) throw new Error(`${where}: unknown type`);
    if (fam?.samples.length) throw new Error(`${where}: TYPE after samples`);
    if (fam && fam.type !== 'untyped') throw new Error(`${where}: second TYPE line`);
    if (!fam) families.set(name, (fam = { name, type: 'untyped', help: '', samples: [] }));
    fam.type = rest as PromFamily['type'];
  } else {
    if (!fam) families.set(name, (fam = { name, type: 'untyped', help: '', samples: [] }));
    fam.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
  }
}

function familyOf(sample: string, families: Map<string, PromFamily>): PromFamily | undefined {
  const direct = families.get(sample);
  if (direct) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sample.endsWith(suffix)) continue;
    const fam = families.get(sample.slice(0, -suffix.length));
    if (fam && (fam.type === 'histogram' || (fam.type === 'summary' && suffix !== '_bucket'))) return fam;
  }
  return undefined;
}

function parseSample(line: string, where: string): PromSample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
  if (!m) throw new Error(`${where}: not a sample line`);
  return { name: m[1]!, labels: m[2] ? parseLabels(m[2], where) : {}, value: parseValue(m[3]!, where) };
}

function parseLabels(block: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 1;
  while (i < block.length - 1) {
    const eq = block.indexOf('=', i);
    const name = block.slice(i, eq);
    if (eq < 0 || !LABEL.test(name)) throw new Error(`${where}: bad label name`);
    if (block[eq + 1] !== '"') throw new Error(`${where}: label value must be quoted`);
    let j = eq + 2, value = '';
    for (; j < block.length && block[j] !== '"'; j++) {
      if (block[j] !== '\\') { value += block[j]; continue; }
      const e = block[++j];
      if (e === 'n') value += '\n';
      else if (e === '\\' || e === '"') value += e;
      else throw new Error(`${where}: bad escape \\${e}`);
    }
    if (j >= block.length) throw new Error(`${where}: unterminated label value`);
    if (name in labels) throw new Error(`${where}: label ${name} twice`);
    labels[name] = value;
    i = j + 1;
    if (block[i] === ',') i++;
    else if (i !== block.length - 1) throw new Error(`${where}: expected , or }`);
  }
  return labels;
}

function parseValue(text: string, where: string): number {
  // Prometheus reads values with Go's strconv.ParseFloat, which takes NaN and Inf in any case
  // (prom-client writes `Nan` for a lag summary with no samples yet, on the first scrape).
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const v = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || Number.isNaN(v)) throw new Error(`${where}: bad value`);
  return v;
}

function checkHistogram(f: PromFamily): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  const keyOf = (l: Record<string, string>): string => JSON.stringify(Object.entries(l).filter(([k]) => k !== 'le').sort());
  for (const s of f.samples) {
    const k = keyOf(s.labels);
    let e = series.get(k);
    if (!e) series.set(k, (e = { buckets: [] }));
    if (s.name.endsWith('_bucket')) e.buckets.push([s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), s.value]);
    else if (s.name.endsWith('_count')) e.count = s.value;
  }
  for (const [k, e] of series) {
    const b = e.buckets;
    if (!b.length || b[b.length - 1]![0] !== Infinity) throw new Error(`${f.name}${k}: no +Inf bucket last`);
    for (let i = 1; i < b.length; i++) {
      if (!(b[i]![0] > b[i - 1]![0]) || b[i]![1] < b[i - 1]![1]) throw new Error(`${f.name}${k}: buckets not increasing and cumulative`);
    }
    if (e.count !== b[b.length - 1]![1]) throw new Error(`${f.name}${k}: +Inf bucket differs from _count`);
  }
}

/** The value of one series; 0 when absent (a counter not yet touched). */
export function promValue(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && Object.keys(s.labels).length === Object.keys(labels).length) return s.value;
    }
  }
  return 0;
}
