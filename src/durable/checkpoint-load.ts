// Loading the last checkpoint at start (SPEC §12): the manifest, then every part file it lists, verified.
// A damaged file stops the start (CorruptStateError names it) unless the operator asked to set it aside.

import { existsSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TMP_SUFFIX } from './atomic-file.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { CorruptStateError, readPartFile, type PartFile } from './part-file.ts';

export interface LoadedCheckpoint {
  manifest: Manifest;
  /** Per source, its parts in the manifest's order (a part set aside is missing). */
  sources: Map<string, PartFile[]>;
  bytes: number;
  /** Files moved aside (with --discard-corrupt or by repair) and the events they held. */
  setAside: { file: string; events: number | null }[];
}

/** Reads the checkpoint in `dir`; null when there is none. */
export function loadCheckpoint(dir: string, opts: { discardCorrupt: boolean; log: (line: string) => void }): LoadedCheckpoint | null {
  if (!existsSync(dir)) return null;
  for (const f of readdirSync(dir)) if (f.endsWith(TMP_SUFFIX)) unlinkSync(join(dir, f));
  const manifest = readManifest(dir);
  if (manifest === null) return null;
  const out: LoadedCheckpoint = { manifest, sources: new Map(), bytes: 0, setAside: [] };
  for (const s of manifest.sources) {
    const parts: PartFile[] = [];
    for (const p of s.parts) {
      const path = join(dir, p.file);
      try {
        if (!existsSync(path)) throw new CorruptStateError(path, 0, 'the file listed by the manifest is missing', p.events);
        const part = readPartFile(path);
        if (part.key !== p.key || part.source !== s.name) throw new CorruptStateError(path, 0, `it holds ${part.source}/${part.key}, not ${s.name}/${p.key}`, p.events);
        parts.push(part);
        out.bytes += part.chunks.reduce((n, c) => n + c.length, 0);
      } catch (err) {
        if (!(err instanceof CorruptStateError) || !opts.discardCorrupt) throw err;
        const aside = existsSync(path) ? `${path}.corrupt-${Date.now()}` : null;
        if (aside) renameSync(path, aside);
        out.setAside.push({ file: aside ?? path, events: p.events });
        opts.log(`ringql: ${err.message.split('. Nothing')[0]}; ${aside ? `moved aside as ${aside}` : 'skipped'}: ${p.events} events of ${s.name} are lost`);
      }
    }
    out.sources.set(s.name, parts);
  }
  return out;
}
