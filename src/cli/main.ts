// The `ringql` command: dispatches to `query`, `gen` and `repair`; exit codes 0 ok, 1 query error, 2 usage.

import { queryCommand, QUERY_USAGE } from './query-command.ts';
import { genCommand } from './gen-command.ts';
import { repairCommand, REPAIR_USAGE } from './repair-command.ts';

const USAGE = `ringql — saved SQL queries over in-memory project logs

${QUERY_USAGE}
usage: ringql gen --out <dir> [--events N] [--projects N] [--days N] [--seed S] [--end <ISO>]
${REPAIR_USAGE}`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'query': return queryCommand(rest);
    case 'gen': return genCommand(rest);
    case 'repair': return repairCommand(rest);
    case 'help': case '--help': case '-h': process.stdout.write(USAGE); return 0;
    default:
      process.stderr.write(`${cmd ? `Unknown command "${cmd}"\n` : ''}${USAGE}`);
      return 2;
  }
}
