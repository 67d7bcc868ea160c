// The planner's Catalog over the in-memory Store: source names, their top-level columns with
// static types (the fixed four plus every key seen), and scans.

import type { Catalog, SourceHandle } from '../plan/catalog.ts';
import type { SqlType } from '../plan/types.ts';
import type { Store } from '../store/store.ts';
import type { SourceStore } from '../store/source-store.ts';
import type { SchemaField } from '../store/types.ts';

/** Scalar field types by dotted path, built once per schema snapshot (a new snapshot when fields are added). */
const FIELD_TYPES = new WeakMap<readonly SchemaField[], Map<string, SqlType>>();

function fieldTypes(fields: readonly SchemaField[]): Map<string, SqlType> {
  let m = FIELD_TYPES.get(fields);
  if (m === undefined) {
    m = new Map();
    for (const f of fields) {
      if (f.mode === 'NULLABLE' && f.type !== 'RECORD' && f.type !== 'JSON') m.set(f.path.join('.'), f.type);
    }
    FIELD_TYPES.set(fields, m);
  }
  return m;
}

const FIXED: Record<string, SqlType> = { id: 'STRING', timestamp: 'TIMESTAMP', event_message: 'STRING', metadata: 'ARRAY' };

function handle(s: SourceStore): SourceHandle {
  return {
    def: s.def,
    columns: () => [...s.topLevelColumns()],
    columnType(name: string): SqlType {
      // Own keys only: a column named `constructor` or `toString` is not one of the fixed four.
      if (Object.hasOwn(FIXED, name)) return FIXED[name]!;
      if (name === 'project' && s.def.projectPath.length === 1) return 'STRING';
      const f = s.topLevelField(name);
      if (!f) return 'ANY';
      if (f.mode === 'REPEATED' || f.type === 'RECORD') return 'ARRAY';
      return f.type === 'JSON' ? 'ANY' : f.type;
    },
    fieldType: (path) => (path.length > 1 ? fieldTypes(s.schema()).get(path.join('.')) : undefined),
    scan: (spec) => s.scan(spec),
    hotKeys: s.hotKeys,
    hotDict: (key) => s.hotDict(key),
    lastSeq: () => s.lastSeq(),
    watermark: () => s.watermark(),
  };
}

export function catalogFromStore(store: Store): Catalog {
  const handles = new Map(store.sources().map((s) => [s.def.name, handle(s)]));
  return {
    source: (name) => handles.get(name),
    sourceNames: () => [...handles.keys()],
  };
}
