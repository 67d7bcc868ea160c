// Typed AST of the BigQuery SQL subset (SPEC §7). Produced by the CST visitor (src/sql/parse.ts)
// and by the LQL compiler; consumed by the printer (src/sql/print.ts) and the binder (src/plan/).
// Over 300 lines on purpose: type declarations only, one union per node family, read as one grammar.

/** 1-based source position of a node's first token. */
export interface Pos {
  line: number;
  column: number;
}

// ─── Expressions ────────────────────────────────────────────────────────────────────────────

export type Expr =
  | Literal
  | Param
  | Ident
  | Call
  | Unary
  | Binary
  | IsExpr
  | InList
  | InSubquery
  | InUnnest
  | Between
  | Like
  | Case
  | Cast
  | Interval
  | Subscript
  | FieldAccess
  | Exists
  | ScalarSubquery
  | ArrayLiteral
  | StructLiteral
  | Extract;

export interface Literal {
  kind: 'literal';
  /** `timestamp`/`datetime`/`date` are typed literals such as TIMESTAMP '2024-01-01 00:00:00'. */
  type: 'string' | 'int' | 'float' | 'bool' | 'null' | 'timestamp' | 'datetime' | 'date' | 'bytes';
  /** int literals keep their digits as a string only when they exceed 2^53; otherwise a number. */
  value: string | number | boolean | null;
  pos?: Pos;
}

/** `@name` query parameter (name without the @, case preserved). */
export interface Param {
  kind: 'param';
  name: string;
  pos?: Pos;
}

/**
 * A possibly dotted name: `timestamp`, `t.timestamp`, `m.request.path`, `` `edge.logs.prod`.id ``.
 * Each part is one identifier; a backtick identifier stays one part even when it contains dots.
 * Date parts such as MINUTE in TIMESTAMP_TRUNC(ts, MINUTE) are also parsed as a one-part Ident.
 */
export interface Ident {
  kind: 'ident';
  parts: string[];
  /** true for each part that was written in backticks (for printing). */
  quoted?: boolean[];
  pos?: Pos;
}

/**
 * Function or aggregate call. `name` is upper-cased (`COUNT`, `REGEXP_CONTAINS`); a `SAFE.` prefix
 * sets `safe`. COUNT(*) is `{name:'COUNT', star:true, args:[]}`.
 */
export interface Call {
  kind: 'call';
  name: string;
  args: Expr[];
  star?: boolean;
  distinct?: boolean;
  safe?: boolean;
  /** Aggregate modifiers inside the parentheses: `ARRAY_AGG(x IGNORE NULLS ORDER BY y DESC LIMIT 5)`. */
  nulls?: 'ignore' | 'respect';
  orderBy?: OrderItem[];
  limit?: Expr;
  /** Window functions are out of the subset; an OVER clause is a syntax error. */
  pos?: Pos;
}

export interface Unary {
  kind: 'unary';
  op: 'NOT' | '-' | '+' | '~';
  operand: Expr;
  pos?: Pos;
}

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '||'
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | 'AND' | 'OR'
  | '&' | '|' | '^' | '<<' | '>>';

export interface Binary {
  kind: 'binary';
  /** `<>` is normalised to `!=`. */
  op: BinaryOp;
  left: Expr;
  right: Expr;
  pos?: Pos;
}

/** `x IS [NOT] NULL|TRUE|FALSE` */
export interface IsExpr {
  kind: 'is';
  operand: Expr;
  not: boolean;
  value: 'NULL' | 'TRUE' | 'FALSE';
  pos?: Pos;
}

export interface InList {
  kind: 'in';
  operand: Expr;
  not: boolean;
  list: Expr[];
  pos?: Pos;
}

export interface InSubquery {
  kind: 'inSubquery';
  operand: Expr;
  not: boolean;
  query: Query;
  pos?: Pos;
}

/** `x IN UNNEST(array)` */
export interface InUnnest {
  kind: 'inUnnest';
  operand: Expr;
  not: boolean;
  array: Expr;
  pos?: Pos;
}

export interface Between {
  kind: 'between';
  operand: Expr;
  not: boolean;
  low: Expr;
  high: Expr;
  pos?: Pos;
}

export interface Like {
  kind: 'like';
  operand: Expr;
  not: boolean;
  pattern: Expr;
  pos?: Pos;
}

/** `CASE [operand] WHEN .. THEN .. [ELSE ..] END` */
export interface Case {
  kind: 'case';
  operand?: Expr;
  whens: { when: Expr; then: Expr }[];
  else?: Expr;
  pos?: Pos;
}

/** Type names as written, upper-cased: INT64, INTEGER, FLOAT64, NUMERIC, STRING, BOOL, BOOLEAN, TIMESTAMP, DATETIME, DATE, BYTES. */
export interface Cast {
  kind: 'cast';
  expr: Expr;
  type: string;
  safe: boolean;
  pos?: Pos;
}

/** `INTERVAL <value> <unit>`; unit upper-cased (MICROSECOND .. DAY, WEEK, MONTH, YEAR). */
export interface Interval {
  kind: 'interval';
  value: Expr;
  unit: string;
  pos?: Pos;
}

/**
 * `a[OFFSET(i)]`, `a[SAFE_OFFSET(i)]`, `a[ORDINAL(i)]`, `a[SAFE_ORDINAL(i)]`, and bare `a[i]`
 * (`mode: 'plain'`, which BigQuery treats as OFFSET; also the struct subscript `row_alias[0]`).
 */
export interface Subscript {
  kind: 'subscript';
  base: Expr;
  index: Expr;
  mode: 'offset' | 'safe_offset' | 'ordinal' | 'safe_ordinal' | 'plain';
  pos?: Pos;
}

/** Field access on a non-name expression: `(expr).field`, `a[OFFSET(0)].field`, `dates[0].start`. */
export interface FieldAccess {
  kind: 'field';
  base: Expr;
  name: string;
  pos?: Pos;
}

export interface Exists {
  kind: 'exists';
  query: Query;
  pos?: Pos;
}

/** `(SELECT ...)` used as a value; `ARRAY(SELECT ...)` is a Call named ARRAY with one ScalarSubquery arg. */
export interface ScalarSubquery {
  kind: 'subquery';
  query: Query;
  pos?: Pos;
}

/** `[a, b]` or `ARRAY<T>[a, b]` (element type kept as written, if any). */
export interface ArrayLiteral {
  kind: 'array';
  elements: Expr[];
  elementType?: string;
  pos?: Pos;
}

/** `STRUCT(a AS x, b)` or `(a, b)` tuple. */
export interface StructLiteral {
  kind: 'struct';
  fields: { expr: Expr; alias?: string }[];
  pos?: Pos;
}

/** `EXTRACT(part FROM expr)`; part upper-cased (MICROSECOND..YEAR, DAYOFWEEK, DATE, ...). */
export interface Extract {
  kind: 'extract';
  part: string;
  expr: Expr;
  pos?: Pos;
}

// ─── Queries ────────────────────────────────────────────────────────────────────────────────

export interface Cte {
  name: string;
  query: Query;
  pos?: Pos;
}

export interface OrderItem {
  expr: Expr;
  desc: boolean;
  /** NULLS FIRST / NULLS LAST when written. */
  nulls?: 'first' | 'last';
}

/** A full query: optional WITH, a set expression, and the ORDER BY / LIMIT that apply to it. */
export interface Query {
  kind: 'query';
  with?: Cte[];
  body: SetExpr;
  orderBy?: OrderItem[];
  limit?: Expr;
  offset?: Expr;
  pos?: Pos;
}

export type SetExpr = Select | SetOp | ParenQuery;

export interface SetOp {
  kind: 'setop';
  op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  /** UNION ALL vs UNION DISTINCT (BigQuery requires one of them to be written). */
  all: boolean;
  left: SetExpr;
  right: SetExpr;
  pos?: Pos;
}

/** A parenthesised query in a set expression: `(SELECT ... ORDER BY ... LIMIT 1) UNION ALL ...`. */
export interface ParenQuery {
  kind: 'parenQuery';
  query: Query;
  pos?: Pos;
}

export interface Select {
  kind: 'select';
  distinct: boolean;
  items: SelectItem[];
  from?: FromItem;
  where?: Expr;
  groupBy?: Expr[];
  having?: Expr;
  qualify?: Expr;
  pos?: Pos;
}

export type SelectItem =
  | { kind: 'expr'; expr: Expr; alias?: string; pos?: Pos }
  /** `*` or `t.*`, optionally `* EXCEPT (a, b)` / `* REPLACE (expr AS a)`. */
  | { kind: 'star'; qualifier?: string[]; except?: string[]; replace?: { expr: Expr; alias: string }[]; pos?: Pos };

export type FromItem = TableRef | SubqueryRef | UnnestRef | Join;

/** A named relation: a source (`` `edge.logs.prod` ``) or a CTE. `name` is the path as written, e.g. ['edge.logs.prod'] or ['project','dataset','t']. */
export interface TableRef {
  kind: 'table';
  name: string[];
  quoted?: boolean[];
  alias?: string;
  pos?: Pos;
}

export interface SubqueryRef {
  kind: 'subqueryRef';
  query: Query;
  alias?: string;
  pos?: Pos;
}

/**
 * `UNNEST(expr) [AS] alias [WITH OFFSET [AS] off]`. A bare dotted path in FROM (`FROM t, t.arr AS a`)
 * is emitted as a TableRef; the binder decides whether it names a table or an implicit UNNEST.
 */
export interface UnnestRef {
  kind: 'unnest';
  expr: Expr;
  alias?: string;
  offsetAlias?: string;
  pos?: Pos;
}

export interface Join {
  kind: 'join';
  /** 'COMMA' for `FROM a, b` (a cross join). */
  type: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS' | 'COMMA';
  left: FromItem;
  right: FromItem;
  on?: Expr;
  using?: string[];
  pos?: Pos;
}

// ─── Statements ─────────────────────────────────────────────────────────────────────────────

/**
 * What one `;`-separated statement was. Only `query` runs; the others exist so the sandbox can
 * say "Only SELECT queries allowed" naming the statement kind instead of a bare syntax error.
 */
export type Statement =
  | Query
  | { kind: 'other'; verb: string; pos?: Pos };
