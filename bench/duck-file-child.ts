// Child of bench/cli-vs-duck.ts: DuckDB answering one query straight from an NDJSON file (read_json, no
// table loaded first), as a one-shot `duckdb -c` would; prints {ms, rows} (ms from instance creation to rows).
//   node --import tsx bench/duck-file-child.ts <threads|all> <sql>

import { DuckDBInstance } from '@duckdb/node-api';
import { cpus } from 'node:os';

const [threads, sql] = process.argv.slice(2);
const t = performance.now();
const inst = await DuckDBInstance.create(':memory:', { threads: String(threads === 'all' ? cpus().length : Number(threads)) });
const con = await inst.connect();
const rows = (await con.runAndReadAll(sql!)).getRowObjectsJson();
const ms = performance.now() - t;
con.closeSync();
inst.closeSync();
process.stdout.write(JSON.stringify({ ms, rows }) + '\n');
