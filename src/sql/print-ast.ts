// Stable indented text form of an AST, for golden files and EXPLAIN-style debugging: one node per
// line, scalar fields inline (`binary op="="`), child nodes indented under their field name.

function isScalar(v: unknown): boolean {
  return v === null || (typeof v !== 'object' && typeof v !== 'function');
}

const scalarText = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Leaves that read best on one line. */
function leafText(o: Record<string, unknown>): string | undefined {
  switch (o.kind) {
    case 'ident': {
      const parts = o.parts as string[];
      const quoted = (o.quoted as boolean[] | undefined) ?? [];
      return `ident ${parts.map((p, i) => (quoted[i] ? `\`${p}\`` : p)).join('.')}`;
    }
    case 'literal':
      return `literal ${String(o.type)} ${scalarText(o.value)}`;
    case 'param':
      return `param @${String(o.name)}`;
    default:
      return undefined;
  }
}

function emit(v: unknown, depth: number, label: string, out: string[]): void {
  const pad = '  '.repeat(depth);
  const prefix = label ? `${label}: ` : '';
  if (isScalar(v)) {
    out.push(`${pad}${prefix}${scalarText(v)}`);
    return;
  }
  if (Array.isArray(v)) {
    if (v.every(isScalar)) {
      out.push(`${pad}${prefix}[${v.map(scalarText).join(', ')}]`);
      return;
    }
    out.push(`${pad}${label || '[]'}:`);
    for (const x of v) emit(x, depth + 1, '', out);
    return;
  }
  const o = v as Record<string, unknown>;
  const leaf = leafText(o);
  if (leaf !== undefined) {
    out.push(`${pad}${prefix}${leaf}`);
    return;
  }
  const head: string[] = typeof o.kind === 'string' ? [o.kind] : ['-'];
  const children: [string, unknown][] = [];
  for (const [k, x] of Object.entries(o)) {
    if (k === 'kind' || k === 'pos' || x === undefined) continue;
    if (isScalar(x) || (Array.isArray(x) && x.every(isScalar))) head.push(`${k}=${Array.isArray(x) ? `[${x.map(scalarText).join(', ')}]` : scalarText(x)}`);
    else children.push([k, x]);
  }
  out.push(`${pad}${prefix}${head.join(' ')}`);
  for (const [k, x] of children) emit(x, depth + 1, k, out);
}

/** The AST as indented text, without positions. */
export function printAst(node: unknown): string {
  const out: string[] = [];
  emit(node, 0, '', out);
  return `${out.join('\n')}\n`;
}
