// One generated event as an NDJSON line body: a fast hand-written path for the bulky standard
// edge events, JSON.stringify for everything else.

import type { GenEvent } from './context.ts';
import type { EdgeEvent } from './edge-event.ts';
import { edgeEventJson } from './write-edge-line.ts';

export function serializeEvent(source: string, event: GenEvent): string {
  if (source === 'edge.logs.prod') {
    // The edge builder is typed as EdgeEvent; the writer re-checks the variant it handles.
    const line = edgeEventJson(event as unknown as EdgeEvent);
    if (line !== null) return line;
  }
  return JSON.stringify(event);
}
