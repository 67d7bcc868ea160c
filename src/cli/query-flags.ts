// The flags of `ringql query`, for its parser (query-command.ts) and for the bin's early look at the
// arguments (column-prestart.ts), which must read them the same way.

import type { FlagSpec } from './args.ts';

export const QUERY_FLAGS: Record<string, FlagSpec> = {
  endpoint: { value: true }, sql: { value: true }, lql: { value: true }, param: { value: true, repeat: true },
  load: { value: true, repeat: true }, now: { value: true }, explain: { value: false }, help: { value: false },
  format: { value: true },
};
