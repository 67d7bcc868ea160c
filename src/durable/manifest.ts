// The checkpoint manifest: which part files make up each source's state, and the first write-ahead log
// file not covered by them. Replaced atomically, so a crash leaves the previous checkpoint whole.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { CorruptStateError } from './part-file.ts';
import { frame, readRecord } from './record-frame.ts';

const RECORD_MANIFEST = 5;
export const MANIFEST_FILE = 'MANIFEST';

export interface ManifestPart {
  key: string;
  file: string;
  events: number;
}

export interface Manifest {
  /** Counts checkpoints; part files of mutable state carry it in their name. */
  id: number;
  /** The first WAL file whose records are not in the parts; recovery replays from there. */
  walFrom: number;
  createdUs: number;
  /**
   * `watermarkUs`: the source's watermark when the manifest was written (absent: none, or an older
   * checkpoint). Rows below it were evicted by then; a restore hides them though the parts hold them.
   */
  sources: { name: string; parts: ManifestPart[]; watermarkUs?: number }[];
}

export function manifestPath(dir: string): string {
  return join(dir, MANIFEST_FILE);
}

/** The manifest of `dir`, or null when no checkpoint was ever made; throws CorruptStateError when it is damaged. */
export function readManifest(dir: string): Manifest | null {
  const path = manifestPath(dir);
  if (!existsSync(path)) return null;
  const buf = readFileSync(path);
  const r = readRecord(buf, 0);
  if (r.kind !== 'record' || r.type !== RECORD_MANIFEST) throw new CorruptStateError(path, 0, r.kind === 'corrupt' ? r.why : 'no manifest record');
  if (r.next !== buf.length) throw new CorruptStateError(path, r.next, 'bytes after the manifest record');
  let v: unknown;
  try {
    v = JSON.parse(r.payload.toString('utf8'));
  } catch {
    throw new CorruptStateError(path, 0, 'the manifest is not JSON');
  }
  if (!isManifest(v)) throw new CorruptStateError(path, 0, 'the manifest lacks fields it needs');
  return v;
}

export async function writeManifest(dir: string, m: Manifest): Promise<void> {
  await writeFileAtomic(manifestPath(dir), [frame(RECORD_MANIFEST, Buffer.from(JSON.stringify(m)))]);
}

function isManifest(v: unknown): v is Manifest {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Partial<Manifest>;
  if (!Number.isInteger(m.id) || !Number.isInteger(m.walFrom) || typeof m.createdUs !== 'number' || !Array.isArray(m.sources)) return false;
  return m.sources.every((s: unknown) => {
    const src = s as Partial<Manifest['sources'][number]>;
    return typeof src.name === 'string' && Array.isArray(src.parts) && (src.watermarkUs === undefined || typeof src.watermarkUs === 'number') &&
      src.parts.every((p: Partial<ManifestPart>) => typeof p.key === 'string' && typeof p.file === 'string' && typeof p.events === 'number');
  });
}
