// Loads the whole function library so the registry is complete before any query is bound.

import './operators.ts';
import './scalar-string.ts';
import './scalar-time.ts';
import './scalar-conditional.ts';
import './scalar-math.ts';
import './scalar-array.ts';
import './scalar-json.ts';
import './scalar-date-parse.ts';
import './aggregates.ts';

export { scalarFunction, aggregateFunction } from './registry.ts';
export type { FnDef, AggDef, Kernel, Accumulator } from './registry.ts';
