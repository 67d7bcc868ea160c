// Child process of bench/ingest-inproc.ts's inprocInChild: builds one corpus's bodies and prints inproc()'s
// figures for them as JSON. Usage: node <server flags> --import tsx bench/ingest-inproc-child.ts demo|small <events> <nowUs> [rounds]

import { demoBodies, smallEdgeBodies } from './ingest-corpus.ts';
import { INPROC_ROUNDS, inproc } from './ingest-inproc.ts';

const [corpus, events, nowUs, rounds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? INPROC_ROUNDS)];
if ((corpus !== 'demo' && corpus !== 'small') || !(events > 0) || !(nowUs > 0) || !(rounds >= 1)) throw new Error('usage: ingest-inproc-child.ts demo|small <events> <nowUs> [rounds]');
const bodies = corpus === 'demo' ? demoBodies(events, nowUs) : smallEdgeBodies(events, nowUs);
process.stdout.write(JSON.stringify(inproc(bodies, nowUs, rounds)) + '\n');
