// What the profiles showed for each target ringql can miss, printed under the targets table for the
// ones a run missed: the cause, and the change that would close the gap. Keep it true when code moves.

export const GAP_CAUSES: Record<string, string> = {
  'logs.all default, engine ÷ DuckDB (1 thread)':
    'The answer is the newest 100 rows of one project, found by binary search in the per-project runs of the newest segments; a miss here means the scan visits segments it should prune.',
  'usage.api-counts daily cold ÷ DuckDB (1 thread)':
    'A cold daily count reads every row of the 7-day window: about 45% of it is the scan copying (ts, seq, row reference, project, hot ids) into batches, 35% the unnest chain and bucket counters over the hot columns. DuckDB reads two narrow columns. Closing it means handing the vectorised aggregate the hot columns of whole segments instead of copied batches.',
  'usage.api-counts daily warm ÷ DuckDB (1 thread)':
    'A warm answer is kept bytes while no event arrived; with ingest running it is the minute partials plus the first minute of the window.',
  '… flat across sizes (max ÷ min of warm medians)':
    'Warm answers do not read rows; a difference across sizes is the timer resolution of microsecond figures, or background GC of the bigger process.',
  'logs.all default over HTTP ÷ raw uWS':
    'The raw peer writes one prebuilt buffer. ringql, per request, plans the saved query (~10% of server time), opens the scan over the newest segments (~8%), copies ~230 KB of stored row bytes into the body (~10%) and then pays the same uWebSockets.js write the peer pays (~27%). Closing it: cache plans that depend on neither the clock nor the growing schema, and write the row byte ranges straight into the corked response instead of assembling a body first.',
  'cached usage.api-counts over HTTP ÷ raw uWS':
    'The cached answer itself costs ~3 µs in-process. The rest is the HTTP glue around it: copying the request headers, the sha256 of the token (constant-time check), routing, the cache key and the promise-based reply; the raw peer answers in ~13 µs all told. Closing it: a synchronous path for cache hits that skips the promise chain and builds fewer objects per request.',
  'ingest over HTTP, events/s':
    'A demo edge event is ~2.3 KB of JSON: JSON.parse (~12 µs) and the record-shaped copy plus one JSON.stringify (~10 µs) alone cap one thread near 40,000 events/s, before validation and storage; 250,000 events/s is ~550 MB/s of JSON. Closing it needs a byte-level transformer that validates and rewrites the JSON (objects into arrays of one record) without building JS objects, or parsing on worker threads.',
  'resident bytes per event ÷ NDJSON bytes':
    'Rows are stored as their output JSON bytes in off-heap slabs, which equal the NDJSON bytes (each nested object becomes an array of one record: +2 bytes each). Above that: ~40 bytes of index per row (timestamp, sequence, project, hot ids, offsets), memory the allocator keeps after compaction frees merged slabs, and the fixed size of the process. Going below 1.0 needs compression of sealed segments.',
};
