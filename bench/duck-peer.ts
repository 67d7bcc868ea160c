// The DuckDB peer: loads the same NDJSON into an in-memory table and runs each benchmark query's
// DuckDB SQL, serialising rows to JSON as a service would. Reported with 1 thread and with all cores.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { cpus } from 'node:os';
import { timeRuns, progress } from './stats.ts';

export interface DuckPeer {
  con: DuckDBConnection;
  loadMs: number;
  close(): void;
}

export async function openDuck(path: string): Promise<DuckPeer> {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const t = performance.now();
  await con.run(`CREATE TABLE edge AS SELECT * FROM read_json('${path.replace(/'/g, "''")}', format = 'newline_delimited', maximum_depth = -1, sample_size = 20000)`);
  const loadMs = performance.now() - t;
  progress(`duckdb loaded in ${(loadMs / 1000).toFixed(1)} s`);
  return { con, loadMs, close: () => { con.closeSync(); inst.closeSync(); } };
}

export async function setThreads(peer: DuckPeer, n: number | 'all'): Promise<void> {
  await peer.con.run(`SET threads = ${n === 'all' ? cpus().length : n}`);
}

/** Runs one query and returns its rows as JSON text (the work a client would wait for). */
export async function duckJson(peer: DuckPeer, sql: string): Promise<{ json: string; rows: number }> {
  const r = await peer.con.runAndReadAll(sql);
  const rows = r.getRowObjectsJson();
  return { json: JSON.stringify({ result: rows }), rows: rows.length };
}

export async function timeDuck(peer: DuckPeer, sql: string, reps: number): Promise<number[]> {
  return timeRuns(() => duckJson(peer, sql), reps, 1);
}
