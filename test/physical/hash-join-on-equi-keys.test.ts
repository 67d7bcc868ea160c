// HashJoinOnEquiKeys: `l = r` with each side reading one input only (either order) hashes; anything else does not.

import { describe, expect, it } from 'vitest';
import { hashJoinOnEquiKeys } from '../../src/exec/physical/rules/hash-join-on-equi-keys.ts';
import { expr } from '../../src/plan/explain.ts';
import { find, logical, physicalText } from './helpers.ts';

const join = (on: string) => find(logical(`select a.id from \`edge.logs.prod\` a join \`postgres.logs\` b on ${on}`), 'join');

describe('HashJoinOnEquiKeys', () => {
  it('takes the left key from the left input, whichever side of = it is written on', () => {
    const k1 = hashJoinOnEquiKeys(join('a.id = b.id'))!;
    expect([expr(k1.left), expr(k1.right)]).toEqual(['id', 'id']);
    const k2 = hashJoinOnEquiKeys(join('b.event_message = a.id'))!;
    expect([expr(k2.left), expr(k2.right)]).toEqual(['id', 'event_message']);
  });
  it('does not fire when one side reads both inputs, or none, or the operator is not =', () => {
    expect(hashJoinOnEquiKeys(join('concat(a.id, b.id) = b.id'))).toBeNull();
    expect(hashJoinOnEquiKeys(join("a.id = 'x'"))).toBeNull();
    expect(hashJoinOnEquiKeys(join('a.id < b.id'))).toBeNull();
  });
  it('names itself in the physical plan', () => {
    expect(physicalText('select a.id from `edge.logs.prod` a join `postgres.logs` b on a.id = b.id')).toMatch(/HashJoin inner keys=id = id {2}\[HashJoinOnEquiKeys\]/);
    expect(physicalText('select a.id from `edge.logs.prod` a join `postgres.logs` b on a.id < b.id')).toMatch(/NestedLoopJoin inner ON \(id < id\)$/m);
  });
});
