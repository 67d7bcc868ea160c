// The request and data limits that are not HTTP framing: query text length and nesting, events per
// batch, event nesting and field size, concurrent requests, field paths per source (core/config.ts).

import { limitsConfig, type Env, type Limits } from './config.ts';

export { DEFAULT_LIMITS, type Limits } from './config.ts';

/** The limits section of the configuration (throws naming a bad variable). */
export function limitsFromEnv(env: Env = process.env): Limits {
  return limitsConfig(env);
}
