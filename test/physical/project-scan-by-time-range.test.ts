// ProjectScanByTimeRange: a scan bounded by project or time reads through the store's indexes.

import { describe, expect, it } from 'vitest';
import { projectScanByTimeRange } from '../../src/exec/physical/rules/project-scan-by-time-range.ts';
import { find, logical } from './helpers.ts';

const scan = (where: string) => find(logical(`select t.id from \`edge.logs.prod\` t ${where}`), 'scan');

describe('ProjectScanByTimeRange', () => {
  it('fires for a project equality, a lower or an upper time bound', () => {
    expect(projectScanByTimeRange(scan("where t.project = 'alpha'"))).toBe(true);
    expect(projectScanByTimeRange(scan("where t.timestamp >= '2025-01-15T00:00:00Z'"))).toBe(true);
    expect(projectScanByTimeRange(scan("where t.timestamp < '2025-01-15T00:00:00Z'"))).toBe(true);
  });
  it('does not fire for a full scan or a filter the store cannot index', () => {
    expect(projectScanByTimeRange(scan(''))).toBe(false);
    expect(projectScanByTimeRange(scan("where t.event_message = 'x'"))).toBe(false);
  });
});
