// TopNByTimeFromSortedSegments and LimitHintToScan: a LIMIT reaches the scan through projections; an
// ordered scan then serves a top-N by time, an unordered one only sizes its batches.

import { describe, expect, it } from 'vitest';
import { topNByTimeFromSortedSegments } from '../../src/exec/physical/rules/top-n-by-time-from-sorted-segments.ts';
import { limitHintToScan } from '../../src/exec/physical/rules/limit-hint-to-scan.ts';
import { find, logical, physicalText } from './helpers.ts';

describe('TopNByTimeFromSortedSegments / LimitHintToScan', () => {
  const ordered = find(logical('select t.id from `edge.logs.prod` t order by t.timestamp desc limit 5'), 'scan');
  it('an ORDER BY timestamp became the scan order: with a hint it is a top-N, without one it is not', () => {
    expect(ordered.order).toBe('desc');
    expect(topNByTimeFromSortedSegments(ordered, 5)).toBe(true);
    expect(topNByTimeFromSortedSegments(ordered, null)).toBe(false);
    expect(limitHintToScan(ordered, 5)).toBe(false);
  });
  it('an unordered scan takes the hint as its batch size only', () => {
    const any = { ...ordered, order: 'any' as const };
    expect(topNByTimeFromSortedSegments(any, 5)).toBe(false);
    expect(limitHintToScan(any, 5)).toBe(true);
  });
  it('the hint is LIMIT + OFFSET, and a filter in between stops it', () => {
    expect(physicalText('select t.id from `edge.logs.prod` t order by t.timestamp desc limit 5 offset 2')).toMatch(/Scan edge\.logs\.prod AS t order=desc rows<=7 {2}\[TopNByTimeFromSortedSegments\]/);
    expect(physicalText("select t.id from `edge.logs.prod` t where t.event_message like '%x%' order by t.timestamp desc limit 5")).toMatch(/Scan edge\.logs\.prod AS t order=desc$/m);
  });
});
