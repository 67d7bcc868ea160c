// `?sql=EXPLAIN <select>` on a sandboxable endpoint: the consumer query is planned as it would run
// (spliced into the saved WITH list, parameters folded) and both plans come back instead of rows.

import { WorkMeter } from '../core/work-meter.ts';
import { asLimitError } from '../exec/run.ts';
import { meterLimits, type Budget } from '../exec/context.ts';
import { explainPhysical, firedRules } from '../exec/physical/explain-physical.ts';
import type { PhysicalPlan } from '../exec/physical/physical-plan.ts';
import { explainPlan } from '../plan/explain.ts';
import { redactJsonText } from '../redact/redact-json.ts';
import type { Catalog } from '../plan/catalog.ts';
import { planRequest, type ResolvedRequest } from './execute.ts';
import type { PreparedEndpoint } from './prepare.ts';
import { explainTarget } from './query-sql.ts';
import type { RunResponse } from './service-types.ts';

/**
 * The plans of an `EXPLAIN` consumer query as one JSON row `{logical_plan, physical_plan, rules}` (the
 * texts `ringql query --explain` prints), or null when the request is not one. Planning runs under the
 * request budget and the answer is never cached. With redaction on, the plan text is redacted as any
 * result (SPEC §6: every string value): an IP address written in the query shows as REDACTED.
 */
export function explainRequest(prep: PreparedEndpoint, req: ResolvedRequest, catalog: Catalog, nowUs: number, budget: Budget, redact: boolean): RunResponse | null {
  const target = req.consumer?.kind === 'sql' ? explainTarget(req.consumer.text) : null;
  if (target === null) return null;
  const t0 = performance.now();
  const meter = new WorkMeter(meterLimits(budget));
  let physical: PhysicalPlan;
  try {
    physical = planRequest(prep, { ...req, consumer: { kind: 'sql', text: target } }, catalog, nowUs, meter).physical;
  } catch (err) {
    throw asLimitError(err);
  }
  const row = { logical_plan: explainPlan(physical.logical), physical_plan: explainPhysical(physical), rules: firedRules(physical) };
  const text = JSON.stringify({ result: [row] });
  const body = Buffer.from(redact ? redactJsonText(text) : text, 'utf8');
  return { body, rowCount: 1, truncated: false, cache: 'MISS', ageSeconds: 0, timings: [{ name: 'plan', ms: performance.now() - t0 }], rowsScanned: 0, redacted: redact };
}
