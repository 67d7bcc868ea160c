// The page's controller: sign in (token kept in session storage), list endpoints, build the form of
// the chosen one, run it, show a table and, for time buckets, a chart; live updates; sandbox errors.

import { api, ApiError, runEndpoint, token } from './api.js';
import { BucketChart } from './bucket-chart.js';
import { el } from './dom.js';
import { LiveSubscription } from './live.js';
import { formValues, renderParamFields } from './params-form.js';
import { ResultsTable } from './results-table.js';
import { clearSqlError, markSqlError } from './sql-error.js';

const $ = (id) => document.getElementById(id);
const table = new ResultsTable($('results'));
const chart = new BucketChart($('chart'));
let current = null;
let live = null;

function setStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'muted';
}

async function signIn(t) {
  token.set(t);
  try {
    await api('/api/sources');
  } catch (err) {
    token.clear();
    $('login-error').textContent = err instanceof ApiError && err.status === 401 ? 'That token is not valid.' : `Cannot reach ringql: ${err.message}`;
    return;
  }
  $('login').hidden = true;
  $('explorer').hidden = false;
  $('forget').hidden = false;
  await listEndpoints();
}

async function listEndpoints() {
  const list = $('endpoint-list');
  try {
    const { json } = await api('/api/endpoints');
    list.replaceChildren(...json.map((e) => el('li', {}, el('button', { type: 'button', className: 'link', textContent: e.name, onclick: () => select(e) }))));
  } catch (err) {
    // Listing needs the private scope; a query token can still open an endpoint by name.
    list.replaceChildren(el('li', { className: 'muted', textContent: err instanceof ApiError && err.status === 403 ? 'This token cannot list endpoints; open one by name.' : err.message }));
    $('manual-form').hidden = false;
  }
}

function select(endpoint) {
  stopLive();
  current = endpoint;
  for (const b of $('endpoint-list').querySelectorAll('button')) b.setAttribute('aria-current', String(b.textContent === endpoint.name));
  $('run-panel').hidden = false;
  $('endpoint-title').textContent = endpoint.name;
  $('endpoint-desc').textContent = endpoint.description ?? '';
  renderParamFields($('param-fields'), endpoint);
  if (endpoint.manual) {
    $('param-fields').append(el('label', { htmlFor: 'param-extra', textContent: 'Parameters (name=value, one per line)' }), el('textarea', { id: 'param-extra', name: '__extra', rows: 3 }));
  }
  $('sandbox').hidden = !endpoint.sandboxable;
  $('sql').disabled = !endpoint.sandboxable;
  clearSqlError($('sql'), $('sql-error'));
  table.container.replaceChildren();
  chart.show([]);
  setStatus('');
  $('param-fields').querySelector('input, select, textarea')?.focus();
}

function requestValues() {
  const values = formValues($('params-form'));
  if (values.__extra !== undefined) {
    for (const line of values.__extra.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    }
    delete values.__extra;
  }
  return values;
}

function showRows(rows, caption) {
  const charted = chart.show(rows);
  table.show(rows, charted ? `${caption} (the chart's data)` : caption);
}

function showError(error, values) {
  if (values.sql && (error.line || ['syntax_error', 'sandbox_violation', 'unknown_name', 'ambiguous_name'].includes(error.code))) {
    markSqlError($('sql'), $('sql-error'), error);
    setStatus(`The sandbox SQL was refused (${error.code}).`, true);
  } else {
    setStatus(`${error.code}: ${error.message}`, true);
  }
}

async function run(ev) {
  ev.preventDefault();
  if (!current) return;
  const values = requestValues();
  clearSqlError($('sql'), $('sql-error'));
  if ($('live').checked) { startLive(values); return; }
  setStatus('Running…');
  const t0 = performance.now();
  try {
    const { json, headers } = await runEndpoint(current.name, values);
    const ms = Math.round(performance.now() - t0);
    const rows = json.result ?? [];
    showRows(rows, `${rows.length} rows`);
    setStatus(`${rows.length} rows in ${ms} ms · cache ${headers.get('X-Cache') ?? '?'}${headers.get('X-Truncated') ? ' · truncated at max_limit' : ''}`);
  } catch (err) {
    if (err instanceof ApiError) showError(err.error, values);
    else setStatus(`Request failed: ${err.message}`, true);
  }
}

function startLive(values) {
  stopLive();
  setStatus('Subscribing…');
  live = new LiveSubscription(current.name, values, {
    result: (rows) => { showRows(rows, `${rows.length} rows`); setStatus(`Live: ${rows.length} rows, updated ${new Date().toLocaleTimeString()}`); },
    append: (rows) => { table.prepend(rows); setStatus(`Live: ${rows.length} new rows at ${new Date().toLocaleTimeString()}`); },
    error: (error) => showError(error, values),
    closed: (code) => { $('live').checked = false; live = null; if (code !== 1000) setStatus(`${$('status').textContent} — live updates stopped (close code ${code})`, code >= 1002); },
  });
}

function stopLive() {
  live?.stop();
  live = null;
}

$('login-form').addEventListener('submit', (ev) => { ev.preventDefault(); void signIn($('token').value.trim()); });
$('manual-form').addEventListener('submit', (ev) => { ev.preventDefault(); select({ name: $('manual-name').value.trim(), params: [], sandboxable: true, manual: true }); });
$('params-form').addEventListener('submit', (ev) => void run(ev));
$('live').addEventListener('change', () => {
  if (!current) return;
  if ($('live').checked) startLive(requestValues());
  else { stopLive(); setStatus('Live updates off.'); }
});
$('forget').addEventListener('click', () => { stopLive(); token.clear(); location.reload(); });
if (token.get()) void signIn(token.get());
else $('token').focus();
