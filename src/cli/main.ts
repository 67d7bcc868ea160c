// The `ringql` command: dispatches to `query`, `gen` and `repair`; exit codes 0 ok, 1 query error, 2 usage.
// Each command's modules load when it runs: `ringql query` does not load the generator or the WAL tools.

async function usage(): Promise<string> {
  const [{ QUERY_USAGE }, { REPAIR_USAGE }] = await Promise.all([import('./query-command.ts'), import('./repair-command.ts')]);
  return `ringql — saved SQL queries over in-memory project logs

${QUERY_USAGE}
usage: ringql gen --out <dir> [--events N] [--projects N] [--days N] [--seed S] [--end <ISO>]
${REPAIR_USAGE}`;
}

/** `ringql query`: its column load's workers start first (on the first chunks) when it may use them, and stop if it did not. */
async function query(argv: string[]): Promise<number> {
  const { prestartForQuery } = await import('./column-prestart.ts');
  const pre = prestartForQuery(argv);
  if (!pre) return (await import('./query-command.ts')).queryCommand(argv);
  try {
    return await (await import('./query-command.ts')).queryCommand(argv, undefined, { nowUs: pre.nowUs });
  } finally {
    await (await import('./column-workers.ts')).discardPrestartedWorkers();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'query': return query(rest);
    case 'gen': return (await import('./gen-command.ts')).genCommand(rest);
    case 'repair': return (await import('./repair-command.ts')).repairCommand(rest);
    case 'help': case '--help': case '-h': process.stdout.write(await usage()); return 0;
    default:
      process.stderr.write(`${cmd ? `Unknown command "${cmd}"\n` : ''}${await usage()}`);
      return 2;
  }
}
