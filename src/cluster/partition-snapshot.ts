// A node's local snapshot of its partitions (SPEC §13): the store's checkpoint parts (the durable
// checkpoint's image format) with the stream sequence each held partition had applied when they were
// taken, so a restarted node resumes those partitions from the stream tail instead of replaying it all.

import { existsSync, readFileSync } from 'node:fs';
import { frame, readRecord } from '../durable/record-frame.ts';
import { writeFileAtomic } from '../durable/atomic-file.ts';
import type { Store } from '../store/store.ts';

const RECORD_SNAPSHOT_HEADER = 20;
const RECORD_SNAPSHOT_CHUNK = 21;

export interface SnapshotPart { key: string; events: number; chunks: Buffer[] }

export interface PartitionSnapshot {
  /** Partition count the snapshot was taken with (a different RINGQL_PARTITIONS makes it useless). */
  partitions: number;
  /** Partition → the last stream sequence whose events the parts hold. */
  covered: Map<number, number>;
  sources: { name: string; parts: SnapshotPart[] }[];
}

interface HeaderJson {
  partitions: number;
  covered: [number, number][];
  sources: { name: string; parts: { key: string; events: number; chunks: number }[] }[];
}

/**
 * Takes the store's parts and `covered` in one synchronous step (stream messages are applied synchronously,
 * so the rows match the sequences); null when a source cannot be imaged (compression off).
 */
export function takeSnapshot(store: Store, partitions: number, covered: ReadonlyMap<number, number>): PartitionSnapshot | null {
  const sources: PartitionSnapshot['sources'] = [];
  for (const s of store.sources()) {
    const parts = s.checkpointParts();
    if (parts === null) return null;
    sources.push({ name: s.def.name, parts: parts.map((p) => ({ key: p.key, events: p.events, chunks: p.chunks() })) });
  }
  return { partitions, covered: new Map(covered), sources };
}

/** The snapshot's bytes: a header record (JSON) and one CRC-framed record per chunk. */
export function encodeSnapshot(snap: PartitionSnapshot): Buffer[] {
  const header: HeaderJson = {
    partitions: snap.partitions, covered: [...snap.covered],
    sources: snap.sources.map((s) => ({ name: s.name, parts: s.parts.map((p) => ({ key: p.key, events: p.events, chunks: p.chunks.length })) })),
  };
  const out = [frame(RECORD_SNAPSHOT_HEADER, Buffer.from(JSON.stringify(header)))];
  for (const s of snap.sources) for (const p of s.parts) for (const c of p.chunks) out.push(frame(RECORD_SNAPSHOT_CHUNK, c));
  return out;
}

export function writeSnapshot(path: string, snap: PartitionSnapshot): Promise<void> {
  return writeFileAtomic(path, encodeSnapshot(snap));
}

/** Reads a snapshot file; null when there is none; throws when it is damaged or incomplete. */
export function readSnapshot(path: string): PartitionSnapshot | null {
  if (!existsSync(path)) return null;
  const buf = readFileSync(path);
  const records: Buffer[] = [];
  for (let at = 0; ;) {
    const r = readRecord(buf, at);
    if (r.kind === 'end') break;
    if (r.kind !== 'record') throw new Error(`the cluster snapshot ${path} is damaged at byte ${r.kind === 'torn' ? r.at : r.at}`);
    if (r.type !== (records.length === 0 ? RECORD_SNAPSHOT_HEADER : RECORD_SNAPSHOT_CHUNK)) throw new Error(`the cluster snapshot ${path} has an unexpected record at byte ${at}`);
    records.push(r.payload);
    at = r.next;
  }
  if (records.length === 0) throw new Error(`the cluster snapshot ${path} is empty`);
  const h = JSON.parse(records[0]!.toString('utf8')) as HeaderJson;
  let next = 1;
  const sources = h.sources.map((s) => ({ name: s.name, parts: s.parts.map((p) => ({ key: p.key, events: p.events, chunks: records.slice(next, (next += p.chunks)) })) }));
  if (next !== records.length) throw new Error(`the cluster snapshot ${path} holds ${records.length - 1} chunks, its header lists ${next - 1}`);
  return { partitions: h.partitions, covered: new Map(h.covered), sources };
}

/** Loads a snapshot into the store's (empty) sources; returns the events it held. */
export function restoreSnapshot(store: Store, snap: PartitionSnapshot): number {
  let events = 0;
  for (const s of snap.sources) {
    const source = store.source(s.name);
    if (!source) throw new Error(`the cluster snapshot holds a source named ${s.name}, which this build does not have`);
    source.restoreImage(s.parts);
    events += s.parts.reduce((n, p) => n + p.events, 0);
  }
  return events;
}
