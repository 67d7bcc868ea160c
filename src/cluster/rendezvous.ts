// Who owns a partition (SPEC §13): rendezvous (highest random weight) hashing over the live members, so
// a member joining or leaving moves only the partitions it gains or had.

import { fnv1a32 } from './partition.ts';

/** A 32-bit mix of FNV-1a (FNV alone clusters on inputs differing in their last bytes). */
function weight(member: string, partition: number): number {
  let h = fnv1a32(`${member}\u0000${partition}`);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** The member owning `partition`, or null when there are none; ties go to the smaller name. */
export function ownerOf(partition: number, members: readonly string[]): string | null {
  let best: string | null = null;
  let bestW = -1;
  for (const m of members) {
    const w = weight(m, partition);
    if (w > bestW || (w === bestW && best !== null && m < best)) { best = m; bestW = w; }
  }
  return best;
}

/** The partitions `member` owns among `partitions`. */
export function ownedBy(member: string, partitions: number, members: readonly string[]): number[] {
  const out: number[] = [];
  for (let p = 0; p < partitions; p++) if (ownerOf(p, members) === member) out.push(p);
  return out;
}
