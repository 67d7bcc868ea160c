// prom-client metrics whose values are read when scraped, from plain numbers the code updates itself:
// a request bumps a field of an object it already holds, never a label-set lookup (SPEC §3 Metrics).

import { Counter, Gauge, Histogram, type MetricType, type Registry } from 'prom-client';

/** One labelled value; hot-path counters keep these objects and add to `value`. */
export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
}

type Read = () => readonly Sample[];

interface Spec {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

/** A counter (name ends in `_total`) whose samples come from `read` at scrape time. */
export class ReadCounter extends Counter<string> {
  constructor(registry: Registry, spec: Spec, private readonly read: Read) {
    super({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry] });
  }

  override async get(): ReturnType<Counter<string>['get']> {
    const base = await super.get();
    base.values = this.read().map((s) => ({ labels: s.labels, value: s.value }));
    return base;
  }
}

/** A gauge whose samples come from `read` at scrape time. */
export class ReadGauge extends Gauge<string> {
  constructor(registry: Registry, spec: Spec, private readonly read: Read) {
    super({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry] });
  }

  override async get(): ReturnType<Gauge<string>['get']> {
    const base = await super.get();
    base.values = this.read().map((s) => ({ labels: s.labels, value: s.value }));
    return base;
  }
}

/** Observations of one label set: counts per bucket (not cumulative; the last is +Inf), sum and count. */
export class HistogramChild {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly labels: Readonly<Record<string, string>>, private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]! += 1;
    this.sum += v;
    this.count++;
  }
}

/** A histogram over HistogramChild objects the caller makes with child() and keeps. */
export class ReadHistogram extends Histogram<string> {
  private readonly children: HistogramChild[] = [];

  constructor(registry: Registry, private readonly spec: Spec, private readonly bounds: readonly number[]) {
    super({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], buckets: [...bounds], registers: [registry] });
  }

  child(labels: Readonly<Record<string, string>>): HistogramChild {
    const c = new HistogramChild(labels, this.bounds);
    this.children.push(c);
    return c;
  }

  /**
   * prom-client's registry reads histograms through this undeclared method (its get() calls it too),
   * so it is the one place our values enter. Its declared return type names the metric type as an
   * enum, but the runtime (and the text format) uses the string, hence the one cast below.
   */
  async getForPromString(): ReturnType<Histogram<string>['get']> {
    const name = this.spec.name;
    const values: { metricName: string; labels: Record<string, string>; value: number }[] = [];
    for (const c of this.children) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += c.counts[i]!;
        const le = i < this.bounds.length ? String(this.bounds[i]) : '+Inf';
        values.push({ metricName: `${name}_bucket`, labels: { ...c.labels, le }, value: cumulative });
      }
      values.push({ metricName: `${name}_sum`, labels: { ...c.labels }, value: c.sum });
      values.push({ metricName: `${name}_count`, labels: { ...c.labels }, value: c.count });
    }
    const type = 'histogram' as unknown as MetricType;
    return { name, help: this.spec.help, type, values, aggregator: 'sum', collect: () => {} };
  }
}
