// The shape of an LQL row query: FROM <cte> AS t with shared UNNEST joins (CROSS for filters, LEFT
// ... ON TRUE for selects), default columns plus filtered fields, `s:` selects, newest first.

import { describe, expect, it } from 'vitest';
import { fromChain, id, itemNames, lql, select, USAGE_CTES } from './helpers.ts';

describe('default output', () => {
  it('id, timestamp, event_message, newest first, no LIMIT, no WITH', () => {
    const q = lql('error');
    expect(itemNames(q)).toEqual(['t.id', 't.timestamp', 't.event_message']);
    expect(fromChain(q)).toEqual(['edge_logs AS t']);
    expect(q.orderBy).toEqual([{ expr: id('t', 'timestamp'), desc: true }]);
    expect(q).not.toHaveProperty('limit');
    expect(q).not.toHaveProperty('with');
    expect(select(q).distinct).toBe(false);
  });
  it('adds each filtered field once, named by its last segment', () => {
    const q = lql('m.request.path:/rest -m.request.method:GET project:p m.request.path:~x m.response.path:/y m.id:3 error');
    expect(itemNames(q)).toEqual(['t.id', 't.timestamp', 't.event_message', 'f_metadata_request.path', 'f_metadata_request.method', 't.project']);
  });
  it('a field filtered with NULL is shown too', () => {
    expect(itemNames(lql('m.user:NULL'))).toEqual(['t.id', 't.timestamp', 't.event_message', 'f_metadata.user']);
  });
  it('only the default columns the CTE has; no ORDER BY without a timestamp column', () => {
    const q = lql('f:dates', USAGE_CTES);
    expect(itemNames(q)).toEqual([]);
    expect(q).not.toHaveProperty('orderBy');
    const q2 = lql('f:chart_counts total_rest_requests:>0', USAGE_CTES);
    expect(itemNames(q2)).toEqual(['t.timestamp', 't.total_rest_requests']);
    expect(q2.orderBy).toEqual([{ expr: id('t', 'timestamp'), desc: true }]);
  });
  it('an unknown column list (empty) accepts every name', () => {
    const q = lql('anything:1', [{ name: 'x', columns: [] }]);
    expect(itemNames(q)).toEqual(['t.id', 't.timestamp', 't.event_message', 't.anything']);
  });
});

describe('unnest joins', () => {
  it('one CROSS JOIN UNNEST per distinct prefix, shared between terms, parents first', () => {
    const q = lql('m.request.path:/a m.request.method:GET m.level:error m.response.headers.x:1');
    expect(fromChain(q)).toEqual([
      'edge_logs AS t',
      'CROSS f_metadata <- t.metadata',
      'CROSS f_metadata_request <- f_metadata.request',
      'CROSS f_metadata_response <- f_metadata.response',
      'CROSS f_metadata_response_headers <- f_metadata_response.headers',
    ]);
  });
  it('`metadata.` and `m.` share joins', () => {
    expect(fromChain(lql('m.request.path:/a metadata.request.method:GET'))).toEqual([
      'edge_logs AS t', 'CROSS f_metadata <- t.metadata', 'CROSS f_metadata_request <- f_metadata.request',
    ]);
  });
  it('negated filters also use CROSS joins (NOT NULL filters the row out either way)', () => {
    expect(fromChain(lql('-m.request.path:/a'))).toEqual([
      'edge_logs AS t', 'CROSS f_metadata <- t.metadata', 'CROSS f_metadata_request <- f_metadata.request',
    ]);
  });
  it('NULL tests keep rows that lack the record (LEFT JOIN ... ON TRUE)', () => {
    expect(fromChain(lql('m.request.user:NULL'))).toEqual([
      'edge_logs AS t', 'LEFT f_metadata <- t.metadata ON true', 'LEFT f_metadata_request <- f_metadata.request ON true',
    ]);
  });
  it('a filter on a prefix turns a select-only join into a CROSS join', () => {
    expect(fromChain(lql('s:m.request.path m.request.method:GET'))).toEqual([
      'edge_logs AS t', 'CROSS f_metadata <- t.metadata', 'CROSS f_metadata_request <- f_metadata.request',
    ]);
    expect(fromChain(lql('s:m.request.path m.level:x'))).toEqual([
      'edge_logs AS t', 'CROSS f_metadata <- t.metadata', 'LEFT f_metadata_request <- f_metadata.request ON true',
    ]);
  });
  it('aliases never equal a column of the CTE nor each other', () => {
    const ctes = [{ name: 'c', columns: ['timestamp', 'metadata', 'f_metadata', 'a_b', 'a'] }];
    const q = lql('metadata.x.y:1 a_b.c.d:1 a.b_c.d:1', ctes);
    expect(fromChain(q)).toEqual([
      'c AS t',
      'CROSS f_metadata_2 <- t.metadata',
      'CROSS f_metadata_x <- f_metadata_2.x',
      'CROSS f_a_b <- t.a_b',
      'CROSS f_a_b_c <- f_a_b.c',
      'CROSS f_a <- t.a',
      'CROSS f_a_b_c_2 <- f_a.b_c',
    ]);
  });
  it('a CTE name that is not a plain identifier is marked quoted', () => {
    const q = lql('x', [{ name: 'my-logs', columns: [] }]);
    expect(select(q).from).toEqual({ kind: 'table', name: ['my-logs'], quoted: [true], alias: 't' });
  });
});

describe('s: selects', () => {
  it('s:a.b.c gives column c, and only the selected columns', () => {
    const q = lql('s:m.request.path s:id error');
    expect(itemNames(q)).toEqual(['f_metadata_request.path', 't.id']);
    expect(fromChain(q)).toEqual([
      'edge_logs AS t', 'LEFT f_metadata <- t.metadata ON true', 'LEFT f_metadata_request <- f_metadata.request ON true',
    ]);
    expect(q.orderBy).toEqual([{ expr: id('t', 'timestamp'), desc: true }]);
  });
  it('filtered fields are not added when s: is used', () => {
    expect(itemNames(lql('s:event_message m.level:error'))).toEqual(['t.event_message']);
  });
  it('s:t and s:timestamp select the timestamp; repeated paths are kept once', () => {
    expect(itemNames(lql('s:t s:timestamp s:m.a s:metadata.a'))).toEqual(['t.timestamp', 'f_metadata.a']);
  });
  it('a second path with a taken name is aliased by its full path', () => {
    expect(itemNames(lql('s:m.request.path s:m.response.path'))).toEqual(['f_metadata_request.path', 'f_metadata_response.path AS metadata_response_path']);
  });
  it('a whole record can be selected', () => {
    expect(itemNames(lql('s:metadata'))).toEqual(['t.metadata']);
  });
});
