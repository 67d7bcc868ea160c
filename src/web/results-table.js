// Shows rows as a table, newest first (by a `timestamp` column when there is one), nested values as
// expandable JSON (<details>, keyboard-operable), and prepends live-appended rows.

import { el } from './dom.js';

const MAX_LIVE_ROWS = 1000;

/** Microseconds (SPEC §2 TIMESTAMP) or a DATETIME string (UTC) as epoch ms; NaN when neither. */
export function timeMs(v) {
  if (typeof v === 'number') return v > 1e14 ? v / 1000 : v > 1e11 ? v : v * 1000;
  if (typeof v === 'string') return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(v) ? v : v + 'Z');
  return NaN;
}

export function newestFirst(rows) {
  if (!rows.length || !('timestamp' in rows[0])) return rows;
  return [...rows].sort((a, b) => (timeMs(b.timestamp) || 0) - (timeMs(a.timestamp) || 0));
}

function cell(name, v) {
  if (v !== null && typeof v === 'object') {
    const summary = Array.isArray(v) ? `[${v.length} item${v.length === 1 ? '' : 's'}]` : '{…}';
    return el('td', {}, el('details', {}, el('summary', { textContent: summary }), el('pre', { textContent: JSON.stringify(v, null, 2) })));
  }
  if (name === 'timestamp' && typeof v === 'number') {
    return el('td', { title: String(v) }, el('time', { dateTime: new Date(v / 1000).toISOString(), textContent: new Date(v / 1000).toISOString() }));
  }
  return el('td', { textContent: v === null ? 'NULL' : String(v) });
}

function rowEl(cols, r, fresh) {
  return el('tr', { className: fresh ? 'fresh' : '' }, ...cols.map((c) => cell(c, r[c])));
}

export class ResultsTable {
  constructor(container) {
    this.container = container;
    this.cols = [];
    this.tbody = null;
    this.caption = null;
  }

  show(rows, caption) {
    const sorted = newestFirst(rows);
    this.cols = sorted.length ? Object.keys(sorted[0]) : [];
    this.container.replaceChildren();
    if (!sorted.length) { this.container.append(el('p', { textContent: 'No rows.' })); return; }
    this.tbody = el('tbody', {}, ...sorted.map((r) => rowEl(this.cols, r, false)));
    const head = el('thead', {}, el('tr', {}, ...this.cols.map((c) => el('th', { scope: 'col', textContent: c }))));
    this.caption = el('caption', { className: 'muted', textContent: caption });
    this.container.append(el('table', {}, this.caption, head, this.tbody));
  }

  /** Rows a live subscription appended: on top, marked as new. */
  prepend(rows) {
    if (!this.tbody) { this.show(rows, `${rows.length} rows`); return; }
    const sorted = newestFirst(rows);
    for (const old of this.tbody.querySelectorAll('tr.fresh')) old.className = '';
    this.tbody.prepend(...sorted.map((r) => rowEl(this.cols, r, true)));
    // A live table keeps the newest rows only, so a long-open page does not grow without bound.
    while (this.tbody.rows.length > MAX_LIVE_ROWS) this.tbody.lastElementChild.remove();
    this.caption.textContent = `${this.tbody.rows.length} rows (${sorted.length} new, highlighted)`;
  }
}
