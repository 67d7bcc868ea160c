// RowData: the parallel row columns (ts, sequence, project, hot ids, shape) and row bytes that open
// and sealed segments both offer, so sealing, merging and scans read either alike.

import type { RowText } from './types.ts';
import type { UintArray } from './narrow.ts';
import type { TsRead } from './ts-column.ts';

/** A column of small ids: narrowed typed arrays in sealed segments, JS arrays in the open one. */
export type IdColumn = UintArray | readonly number[];

/** Parallel row columns, shared by open and sealed segments. */
export interface RowData extends RowText {
  /** Timestamp (µs) of row r is ts.at(r): PlainTs over a JS array in the open segment, a TsColumn in sealed ones. */
  readonly ts: TsRead;
  /** Ingest sequence number of row r is seqBase + seq[r]. */
  readonly seq: ArrayLike<number>;
  readonly seqBase: number;
  readonly pid: IdColumn;
  /** Dictionary ids per hot key (in SourceStore.hotKeys order). */
  readonly hot: readonly IdColumn[];
  /** Schema shape of each row: which forgettable field paths it uses (SchemaTree.endEvent; 0 = none). */
  readonly shape: ArrayLike<number>;
  /** UTF-8 bytes of row r's JSON and of its extra columns (0 when it has none). */
  jsonBytesOf(r: number): number;
  extraBytesOf(r: number): number;
  /** Writes row r's JSON then its extra columns at `at` in `out`; returns the bytes written. */
  copyRow(r: number, out: Buffer, at: number): number;
}
