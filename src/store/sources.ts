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

const TOP = ['project'];
const REF = ['metadata', 'project_ref'];
const META = ['metadata', 'project'];

function def(name: string, projectPath: string[]): SourceDef {
  return { name, id: uuidV5(name, SOURCE_NAMESPACE), projectPath };
}

export const SOURCES: readonly SourceDef[] = [
  def('edge.logs.prod', TOP),
  def('postgres.logs', TOP),
  def('function-relay-logs', REF),
  def('function-runtime-events', REF),
  def('auth.logs.prod', TOP),
  def('realtime.logs.prod', META),
  def('storage.logs.prod', META),
  def('rest.logs.prod', TOP),
  def('pooler.logs.prod', TOP),
];

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
};

/** A source by exact name or by id (UUID, case-insensitive). */
export function sourceByNameOrId(s: string): SourceDef | undefined {
  const lower = s.toLowerCase();
  return SOURCES.find((d) => d.name === s || d.id === lower);
}
