// Which folder of src/ may import which (ARCHITECTURE.md's layering): lower layers never import higher
// ones, nothing imports http/ but main.ts, and the table itself must stay acyclic (import-edges.test.ts).

/** `from: [to...]`: the folders (or `grammar`, the top-level parser folder) each folder may import. */
export const ALLOWED_EDGES: Readonly<Record<string, readonly string[]>> = {
  core: [],
  grammar: [],
  sql: ['core', 'grammar'],
  lql: ['core', 'sql', 'grammar'],
  fn: ['core'],
  store: ['core'],
  redact: ['core'],
  plan: ['core', 'sql', 'fn', 'store'],
  exec: ['core', 'fn', 'plan', 'store', 'redact'],
  engine: ['core', 'sql', 'lql', 'plan', 'exec', 'store', 'redact'],
  cache: ['core', 'fn', 'plan', 'exec', 'engine', 'store'],
  durable: ['core', 'store'],
  cluster: ['core', 'store', 'durable', 'endpoints'],
  endpoints: ['core', 'sql', 'lql', 'plan', 'exec', 'engine', 'store', 'cache', 'redact', 'durable'],
  http: ['core', 'endpoints', 'redact'],
  gen: ['core', 'store'],
  cli: ['core', 'sql', 'lql', 'plan', 'exec', 'store', 'endpoints', 'durable', 'gen'],
  main: ['core', 'store', 'endpoints', 'durable', 'cluster', 'http', 'gen', 'cache'],
};

/**
 * Edges that exist today but point the wrong way, each with what removes it. The test fails when one
 * disappears (take it off the list) and on any edge in neither table.
 */
export const PENDING_EDGES: Readonly<Record<string, string>> = {
};
