// `ringql repair [--state-dir <dir>]`: checks the checkpoint and the write-ahead log as a start would, moves
// a damaged part file aside (saying how many events it held) and sets a damaged log file aside (keeping the
// records before the damage), saying how many batches and events remain; exit 1 on failure.

import { stateDirConfig } from '../core/config.ts';
import { join } from 'node:path';
import { recoverWal } from '../durable/wal-recovery.ts';
import { loadCheckpoint } from '../durable/checkpoint-load.ts';
import { decodeBatch } from '../durable/batch-record.ts';
import { RECORD_BATCH } from '../durable/record-frame.ts';

export const REPAIR_USAGE = 'usage: ringql repair [--state-dir <dir>]   (default: RINGQL_STATE_DIR, else .state/ in the checkout)\n';

export function repairCommand(argv: string[]): number {
  let stateDir = stateDirConfig(process.env);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--state-dir' && argv[i + 1]) stateDir = argv[++i]!;
    else {
      process.stderr.write(`Unknown argument "${argv[i]}"\n${REPAIR_USAGE}`);
      return 2;
    }
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  try {
    const ck = loadCheckpoint(join(stateDir, 'checkpoint'), { discardCorrupt: true, log });
    if (ck) {
      const parts = [...ck.sources.values()].reduce((n, p) => n + p.length, 0);
      const lost = ck.setAside.reduce((n, a) => n + (a.events ?? 0), 0);
      process.stdout.write(`${join(stateDir, 'checkpoint')}: checkpoint ${ck.manifest.id}, ${parts} part file(s) whole; ` +
        (ck.setAside.length ? `moved aside: ${ck.setAside.map((a) => a.file).join(', ')} (${lost} events)` : 'nothing moved aside') + '\n');
    }
    const r = recoverWal({ dir: join(stateDir, 'wal'), discardCorrupt: true, log, fromSeq: ck?.manifest.walFrom ?? 0 }, (type, payload) => {
      if (type !== RECORD_BATCH) return { events: 0, maxTs: -Infinity };
      return { events: decodeBatch(payload).events.length, maxTs: -Infinity };
    });
    process.stdout.write(`${join(stateDir, 'wal')}: ${r.files.length} file(s), ${r.records} batches, ${r.events} events kept; ` +
      `${r.tornTails} torn tail(s) cut; ${r.setAside.length ? `set aside: ${r.setAside.join(', ')}` : 'nothing set aside'}\n`);
    return 0;
  } catch (err) {
    log(`ringql repair: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
