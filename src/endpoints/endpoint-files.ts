// Endpoint definitions on disk: the built-ins under data/endpoints (a .json of settings beside a
// .sql file each) and created endpoints in RINGQL_STATE_DIR/endpoints, written atomically.

import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, existsSync, fsyncSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../core/project-root.ts';
import { applyInput, type EndpointDef } from './definition.ts';
import type { EndpointInput } from './service-types.ts';

export const BUILTIN_DIR = projectPath('data/endpoints/');

/** Reads the built-in endpoints: `<name>.json` (id and settings) + `<name>.sql`. */
export function loadBuiltins(dir = BUILTIN_DIR): { def: EndpointDef; file: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = join(dir, f.replace(/\.json$/, '.sql'));
      const meta = JSON.parse(readFileSync(join(dir, f), 'utf8')) as EndpointInput & { id: string };
      const query = readFileSync(file, 'utf8');
      const def = applyInput(null, { ...meta, query }, () => meta.id);
      def.builtin = true;
      return { def, file };
    });
}

function endpointsDir(stateDir: string): string {
  return join(stateDir, 'endpoints');
}

/** One file of the state directory: its definition, or why it cannot be read. */
export type StoredFile = { file: string; def: EndpointDef; error?: undefined } | { file: string; error: string; def?: undefined };

/** Reads every stored endpoint; a file that cannot be read is returned with its error, never thrown. */
export function loadStored(stateDir: string): StoredFile[] {
  const dir = endpointsDir(stateDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f): StoredFile => {
      const file = join(dir, f);
      try {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as EndpointDef;
        const def = applyInput(null, {
          name: raw.name, query: raw.query, description: raw.description, max_limit: raw.max_limit,
          cache_duration_seconds: raw.cache_duration_seconds, proactive_requerying_seconds: raw.proactive_requerying_seconds,
          sandboxable: raw.sandboxable, redact_pii: raw.redact_pii, params: raw.params,
        }, () => raw.id);
        return { def, file };
      } catch (err) {
        return { file, error: err instanceof Error ? err.message : String(err) };
      }
    });
}

/**
 * Removes the temporary files a write interrupted by a crash left behind (`<id>.json.<pid>.tmp`);
 * call at start, before any write. Returns how many were removed.
 */
export function removeTempFiles(stateDir: string): number {
  const dir = endpointsDir(stateDir);
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.tmp')) continue;
    rmSync(join(dir, f), { force: true });
    n++;
  }
  return n;
}

/** Writes one endpoint atomically (temp file, fsync, rename), named by its UUID. */
export function saveStored(stateDir: string, def: EndpointDef): void {
  const dir = endpointsDir(stateDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${def.id}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  const { builtin: _b, ...rest } = def;
  writeFileSync(tmp, JSON.stringify(rest, null, 2) + '\n');
  const fd = openSync(tmp, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
  renameSync(tmp, file);
}

export function deleteStored(stateDir: string, id: string): void {
  rmSync(join(endpointsDir(stateDir), `${id}.json`), { force: true });
}
