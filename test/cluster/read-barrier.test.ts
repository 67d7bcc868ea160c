// LastSeqAsker: a query must see a last sequence read after it arrived, never one from an ask already
// in flight (that ask may predate events acknowledged before the query was sent).

import { describe, expect, it } from 'vitest';
import { LastSeqAsker } from '../../src/cluster/read-barrier.ts';

describe('LastSeqAsker', () => {
  it('gives a caller arriving during an ask the result of the next ask, shared by all such callers', async () => {
    let asks = 0;
    const pending: ((v: number) => void)[] = [];
    const asker = new LastSeqAsker(() => { asks++; return new Promise<number>((r) => pending.push(r)); });
    const first = asker.lastSeq();
    const second = asker.lastSeq();
    const third = asker.lastSeq();
    expect(asks).toBe(1);
    pending[0]!(10); // the stream held 10 when the first ask was answered
    expect(await first).toBe(10);
    await new Promise((r) => setImmediate(r));
    expect(asks).toBe(2); // the later callers' own ask, started after they arrived
    pending[1]!(12);
    expect(await second).toBe(12);
    expect(await third).toBe(12);
  });

  it('passes a failed ask to its callers and asks afresh afterwards', async () => {
    let n = 0;
    const asker = new LastSeqAsker(async () => { n++; if (n === 1) throw new Error('no leader'); return 7; });
    await expect(asker.lastSeq()).rejects.toThrow('no leader');
    expect(await asker.lastSeq()).toBe(7);
  });
});
