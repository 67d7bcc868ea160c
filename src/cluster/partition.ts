// Partitioning by project (SPEC §13): subject tokens, and the partition the NATS servers' mapping
// `{{partition(N,1)}}` gives a subject — FNV-1a 32-bit of the project token, modulo N — computed here too,
// so a node knows the owner of a project without asking.

/** FNV-1a, 32-bit, over the UTF-8 bytes of `s` (what nats-server hashes for partition()). */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A subject token for any text: characters NATS gives a meaning to ('.', '*', '>', whitespace, '%') and
 * anything outside printable ASCII are percent-encoded, so every project and source name is one token.
 */
export function subjectToken(s: string): string {
  if (s === '') return '%';
  return s.replace(/[^\x21-\x7e]|[.*>%]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join(''));
}

/** The subject an event of `project` in `source` is published to. */
export function ingestSubject(project: string, source: string): string {
  return `logs.${subjectToken(project)}.${subjectToken(source)}`;
}

/** The partition (0..n-1) of a project, as the servers' mapping computes it. */
export function partitionOf(project: string, n: number): number {
  return fnv1a32(subjectToken(project)) % n;
}

/** The stream holding partition p. */
export function streamName(p: number): string {
  return `RINGQL_P${p}`;
}

/** The mapped subjects of partition p (a stream listens on these). */
export function partitionSubjects(p: number): string {
  return `plogs.${p}.*.*`;
}
