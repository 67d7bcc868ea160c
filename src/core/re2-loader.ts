// Loads the native RE2 binding synchronously and refuses to run without it: BigQuery regex semantics
// and the linear-time guarantee for user patterns depend on it, so there is no RegExp fallback.

import { createRequire } from 'node:module';

/** The slice of the re2 binding ringql uses (it mirrors RegExp for string subjects). */
export interface Re2Instance {
  readonly source: string;
  lastIndex: number;
  exec(s: string): RegExpExecArray | null;
  test(s: string): boolean;
}
export type Re2Ctor = new (pattern: string, flags?: string) => Re2Instance;

export function loadRe2(): Re2Ctor {
  const require = createRequire(import.meta.url);
  try {
    const mod = require('re2') as Re2Ctor | { default: Re2Ctor };
    const ctor = typeof mod === 'function' ? mod : mod.default;
    if (!new ctor('a+b').test('xaab')) throw new Error('self-test failed');
    return ctor;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `ringql: the native RE2 binding (package re2) failed to load: ${why}. Regular expressions need RE2 for ` +
        'BigQuery semantics and linear-time matching, so ringql will not start without it. Run `npm ci` ' +
        '(it builds re2 with node-gyp; needs python3, make and a C++ compiler).',
    );
  }
}
