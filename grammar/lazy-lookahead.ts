// Chevrotain's LL(k) lookahead, each decision's function built at its first use instead of all of them in
// performSelfAnalysis (~45 ms of every start for the SQL grammar, while a query visits a few dozen decisions).

import type { ILookaheadStrategy } from 'chevrotain';
import { LLkLookaheadStrategy } from './chevrotain-runtime.ts';

type AltOptions = Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0];
type AltFn = ReturnType<ILookaheadStrategy['buildLookaheadForAlternation']>;
type OptOptions = Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0];
type OptFn = ReturnType<ILookaheadStrategy['buildLookaheadForOptional']>;

/**
 * The LL(k) strategy (same validations, same decisions) whose lookahead functions are built lazily. The
 * parser calls each with itself as `this` (`laFunc.call(parser, alts)`), so the built one is called so too.
 */
export function lazyLookahead(maxLookahead: number): ILookaheadStrategy {
  const llk = new LLkLookaheadStrategy({ maxLookahead });
  return {
    validate: (options) => llk.validate(options),
    buildLookaheadForAlternation(options: AltOptions): AltFn {
      let built: AltFn | undefined;
      return function (this: unknown, alts) {
        built ??= llk.buildLookaheadForAlternation(options);
        return built.call(this, alts);
      };
    },
    buildLookaheadForOptional(options: OptOptions): OptFn {
      let built: OptFn | undefined;
      return function (this: unknown) {
        built ??= llk.buildLookaheadForOptional(options);
        return built.call(this);
      };
    },
  };
}
