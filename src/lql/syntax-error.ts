// The one shape of an LQL syntax error: a 400 `syntax_error` with the line and column of the
// offending character (LQL is normally one line; a multi-line text reports the line too).

import { RingqlError } from '../core/errors.ts';

export function syntaxError(column: number, message: string, line = 1): RingqlError {
  const where = line === 1 ? `column ${column}` : `line ${line}, column ${column}`;
  return new RingqlError('syntax_error', `LQL syntax error at ${where}: ${message}`, { line, column });
}
