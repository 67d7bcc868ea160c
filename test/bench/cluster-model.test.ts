// The cluster bench's scaling model (bench/cluster-model.ts): one node is bounded by its own per-event
// costs, the partitions are shared out whole, and the smallest capacity term is named as the bottleneck.

import { describe, expect, it } from 'vitest';
import { model, partitionShares, type ModelInputs } from '../../bench/cluster-model.ts';

const x: ModelInputs = { frontUs: 20, consumeUs: 30, natsUs: 20, bytesPerEvent: 500, queryUs: 200, forwardUs: 600 };

describe('cluster scaling model', () => {
  it('one node: 10⁶ µs per second over its per-event and per-query costs; nats and network from their costs', () => {
    const m = model(x, 1, 16);
    expect(m.ingestNodes).toBeCloseTo(1e6 / 50, 6); // front + consume, nothing forwarded
    expect(m.ingestNats).toBeCloseTo((3 * 2 * 1e6) / 20, 6);
    expect(m.ingestNetwork).toBeCloseTo((3 * 125e6) / (3 * 500), 6);
    expect(m.ingest).toBeCloseTo(20_000, 6);
    expect(m.bottleneck).toBe('ringql CPU (busiest node)');
    expect(m.queries).toBeCloseTo(5000, 6);
    expect(m.busiest).toBe(16);
  });

  it('shares whole partitions: they add up to all of them, each a multiple of 1/16', () => {
    for (let k = 1; k <= 12; k++) {
      const s = partitionShares(k, 16);
      expect(s).toHaveLength(k);
      expect(s.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      for (const v of s) expect(Number.isInteger(v * 16)).toBe(true);
    }
  });

  it('the busiest node bounds ingest: never more than k nodes at an even share, and more nodes help', () => {
    for (const k of [2, 3, 6]) {
      const m = model(x, k, 16);
      const busiestShare = m.busiest / 16;
      expect(m.ingestNodes).toBeCloseTo(1e6 / (x.frontUs / k + busiestShare * x.consumeUs), 6);
      expect(m.ingestNodes).toBeLessThanOrEqual((k * 1e6) / (x.frontUs + x.consumeUs) + 1e-6);
    }
    expect(model(x, 6, 16).ingestNodes).toBeGreaterThan(model(x, 2, 16).ingestNodes);
  });

  it('names nats-server CPU when it is the smallest term', () => {
    const m = model({ ...x, natsUs: 1000 }, 12, 16);
    expect(m.ingest).toBeCloseTo(6000, 6);
    expect(m.bottleneck).toBe('nats-server CPU');
  });
});
