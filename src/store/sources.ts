// The nine log sources of SPEC §1, in that order, each with a stable UUIDv5 id derived from its
// name, where its project ref lives, and the logs.all CTE that reads it.

import { createHash } from 'node:crypto';
import type { SourceDef } from './types.ts';

/** Namespace of the source ids (RINGQL_SOURCE_NAMESPACE of types.ts); fixed forever. */
export const SOURCE_NAMESPACE = '5f1c2d8e-3b7a-4e4f-9a61-0c2b7d9e4a18';

/** RFC 4122 version-5 UUID (SHA-1) of `name` in namespace `ns`. */
export function uuidV5(name: string, ns: string): string {
  const nsHex = ns.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(nsHex)) throw new Error(`uuidV5: namespace "${ns}" is not a UUID`);
  const hash = createHash('sha1').update(Buffer.from(nsHex, 'hex')).update(Buffer.from(name, 'utf8')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The nine source names, in SPEC §1 order: every per-source table is a Record over these. */
export const SOURCE_NAMES = [
  'edge.logs.prod', 'postgres.logs', 'function-relay-logs', 'function-runtime-events', 'auth.logs.prod',
  'realtime.logs.prod', 'storage.logs.prod', 'rest.logs.prod', 'pooler.logs.prod',
] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

const TOP = ['project'];
const REF = ['metadata', 'project_ref'];
const META = ['metadata', 'project'];

/** Where each source keeps its project ref. */
const PROJECT_PATH: Readonly<Record<SourceName, string[]>> = {
  'edge.logs.prod': TOP,
  'postgres.logs': TOP,
  'function-relay-logs': REF,
  'function-runtime-events': REF,
  'auth.logs.prod': TOP,
  'realtime.logs.prod': META,
  'storage.logs.prod': META,
  'rest.logs.prod': TOP,
  'pooler.logs.prod': TOP,
};

export const SOURCES: readonly SourceDef[] = SOURCE_NAMES.map((name) => ({ name, id: uuidV5(name, SOURCE_NAMESPACE), projectPath: PROJECT_PATH[name] }));

/** The logs.all CTE name of each source. */
export const CTE_OF_SOURCE: Readonly<Record<string, string>> = {
  'edge.logs.prod': 'edge_logs',
  'postgres.logs': 'postgres_logs',
  'function-relay-logs': 'function_edge_logs',
  'function-runtime-events': 'function_logs',
  'auth.logs.prod': 'auth_logs',
  'realtime.logs.prod': 'realtime_logs',
  'storage.logs.prod': 'storage_logs',
  'rest.logs.prod': 'rest_logs',
  'pooler.logs.prod': 'pooler_logs',
} satisfies Record<SourceName, string>;

/** A source by exact name or by id (UUID, case-insensitive). */
export function sourceByNameOrId(s: string): SourceDef | undefined {
  const lower = s.toLowerCase();
  return SOURCES.find((d) => d.name === s || d.id === lower);
}
