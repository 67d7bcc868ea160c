// A uPlot line chart for time-bucket results: a `timestamp` column (µs or DATETIME) and numeric
// columns, one series each; anything else is not a chart.

import uPlot from '/vendor/uplot/uPlot.esm.js';
import { timeMs } from './results-table.js';

const COLORS = ['#2f6bed', '#d1495b', '#2a9d8f', '#e9a03b', '#6a4c93', '#3d5a80'];

/** The numeric columns when the rows are time buckets, else null. */
export function bucketColumns(rows) {
  if (!rows.length || !('timestamp' in rows[0])) return null;
  const cols = Object.keys(rows[0]).filter((c) => c !== 'timestamp');
  if (!cols.length) return null;
  for (const r of rows) {
    if (Number.isNaN(timeMs(r.timestamp))) return null;
    for (const c of cols) if (typeof r[c] !== 'number') return null;
  }
  return cols;
}

/** One bucket alone would give the x axis a zero span (uPlot then spans years): show an hour around it. */
function padSingle(_u, min, max) {
  return min === max ? [min - 1800, max + 1800] : [min, max];
}

export class BucketChart {
  constructor(container) {
    this.container = container;
    this.plot = null;
  }

  /** Draws the rows; false when they are not time buckets (the chart is then hidden). */
  show(rows) {
    const cols = bucketColumns(rows);
    this.plot?.destroy();
    this.plot = null;
    this.container.hidden = !cols;
    if (!cols) return false;
    const sorted = [...rows].sort((a, b) => timeMs(a.timestamp) - timeMs(b.timestamp));
    const data = [sorted.map((r) => timeMs(r.timestamp) / 1000), ...cols.map((c) => sorted.map((r) => r[c]))];
    const width = Math.max(320, Math.min(1000, this.container.parentElement.clientWidth - 20));
    const series = [{}, ...cols.map((c, i) => ({ label: c, stroke: COLORS[i % COLORS.length], width: 2, points: { show: sorted.length < 60 } }))];
    this.plot = new uPlot({ width, height: 280, series, scales: { x: { time: true, range: padSingle } }, axes: [{}, {}] }, data, this.container);
    this.container.setAttribute('aria-label', `Chart of ${cols.join(', ')} over ${sorted.length} time buckets`);
    return true;
  }
}
