// Typed LQL terms: what src/lql/read-terms.ts reads from the CST and src/lql/compile.ts turns into
// SQL. `column` is the 1-based column of the term's first character (for error details).

/** A typed filter value; `raw` is the text as written (unquoted), used for regex operands. */
export type LqlValue =
  | { kind: 'string'; value: string; raw: string; column: number }
  | { kind: 'int' | 'float'; value: number; raw: string; column: number }
  | { kind: 'bool'; value: boolean; raw: string; column: number }
  | { kind: 'null'; raw: string; column: number }
  | { kind: 'timestamp'; value: string; raw: string; column: number };

export type CompareOp = '=' | '>' | '>=' | '<' | '<=';

/** `~` regex; `@>` the array field contains the value; `@>~` it holds an element matching the regex. */
export type FieldOp = CompareOp | '~' | '@>' | '@>~';

export type TimeUnit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';

/** Periods of the time shorthands (`this@week`, `last@3months`). */
export type Period = TimeUnit | 'WEEK' | 'MONTH' | 'YEAR';

/** `now`, `today`, `yesterday`, `this@<period>` (start of the period until now). */
export type Shorthand = { name: 'now' | 'today' | 'yesterday' } | { name: 'this'; period: Period };

/** The reference's chart aggregates: `c:sum(m.bytes)`, `c:p95(m.latency)`; `count` with a field too. */
export type ChartAggregate = 'count' | 'countd' | 'avg' | 'sum' | 'max' | 'min' | 'p50' | 'p95' | 'p99';

export type FilterTerm =
  | { kind: 'text'; text: string; negated: boolean; column: number }
  | { kind: 'regex'; pattern: string; negated: boolean; column: number }
  /** Field filter; `path` as written (`m.` not yet expanded); `high` only for ranges. */
  | { kind: 'field'; path: string[]; op: FieldOp; value: LqlValue; high?: LqlValue; negated: boolean; column: number }
  /** `t:` comparison against an ISO timestamp (or an inclusive range). */
  | { kind: 'time'; op: CompareOp; value: LqlValue; high?: LqlValue; negated: boolean; column: number }
  /** `t:last@N unit`. */
  | { kind: 'last'; amount: number; unit: Period; negated: boolean; column: number }
  /** `t:today`, `t:this@week`, `t:now`: windows computed from the query's clock. */
  | { kind: 'shorthand'; op: CompareOp; shorthand: Shorthand; negated: boolean; column: number };

export type Term =
  | FilterTerm
  | { kind: 'source'; name: string; column: number }
  /** `s:path[@alias]`; `path` empty for `s:*`. */
  | { kind: 'select'; path: string[]; alias?: string; column: number }
  | { kind: 'count'; column: number }
  /** `c:<aggregate>(<path>)` (`c:count(*)` stays `count`). */
  | { kind: 'aggregate'; fn: ChartAggregate; path: string[]; column: number }
  | { kind: 'groupBy'; unit: TimeUnit; column: number };
