// `application/x-ndjson` (SPEC §3): one row object per line, each line ending in LF, no wrapper.

import { JsonObjectsSink } from './json-sink.ts';

export class NdjsonSink extends JsonObjectsSink {
  constructor() {
    super('', '', '\n', '');
  }
}
