// The HTTP peer: bare uWebSockets.js answering every GET with one fixed body (the bytes ringql sent
// for the same request), so the ratio isolates ringql's own per-request cost. Run as a child process:
//   node --import tsx bench/raw-uws-server.ts <port> <body-file>

import { readFileSync } from 'node:fs';
import uws from 'uWebSockets.js';

const port = Number(process.argv[2]);
const body = readFileSync(process.argv[3]!);
const app = uws.App();
app.get('/*', (res) => {
  res.cork(() => {
    res.writeHeader('Content-Type', 'application/json; charset=utf-8').end(body);
  });
});
app.listen('127.0.0.1', port, (sock) => {
  if (!sock) { console.error(`raw uWS: cannot listen on ${port}`); process.exit(1); }
  console.log(`raw uWS listening on ${port}`);
});
