// Static SQL types of the binder. Record fields inside log metadata are open-ended, so their
// type is ANY: checked at run time, where a value of the wrong kind reads as NULL (SPEC §7).

export type SqlType =
  | 'INT64'
  | 'FLOAT64'
  | 'STRING'
  | 'BOOL'
  | 'TIMESTAMP'
  | 'DATETIME'
  | 'DATE'
  | 'INTERVAL'
  | 'ARRAY'
  | 'STRUCT'
  | 'NULL'
  | 'ANY';

export function isNumeric(t: SqlType): boolean {
  return t === 'INT64' || t === 'FLOAT64';
}

/** The common supertype of two branch types (CASE, COALESCE, UNION), or null when none exists. */
export function commonType(a: SqlType, b: SqlType): SqlType | null {
  if (a === b) return a;
  if (a === 'NULL') return b;
  if (b === 'NULL') return a;
  if (a === 'ANY' || b === 'ANY') return 'ANY';
  if (isNumeric(a) && isNumeric(b)) return 'FLOAT64';
  return null;
}

/** Normalises a CAST target name to a SqlType, or null when unsupported. */
export function castTargetType(name: string): SqlType | null {
  const n = name.toUpperCase().replace(/\s+/g, '');
  switch (n) {
    case 'INT64': case 'INT': case 'INTEGER': case 'BIGINT': case 'SMALLINT': case 'TINYINT': case 'BYTEINT':
      return 'INT64';
    case 'FLOAT64': case 'FLOAT': case 'NUMERIC': case 'BIGNUMERIC': case 'DECIMAL': case 'BIGDECIMAL': case 'DOUBLE':
      return 'FLOAT64';
    case 'STRING': return 'STRING';
    case 'BOOL': case 'BOOLEAN': return 'BOOL';
    case 'TIMESTAMP': return 'TIMESTAMP';
    case 'DATETIME': return 'DATETIME';
    case 'DATE': return 'DATE';
    default:
      return n.startsWith('ARRAY<') ? 'ARRAY' : null;
  }
}
