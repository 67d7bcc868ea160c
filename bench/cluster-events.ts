// Ingest bodies for the cluster bench: 500 small (~600 B) edge events per body, each body holding five of
// the projects (100 events each, in rotation), so every body spreads over several partitions and nodes.

export const CLUSTER_SOURCE = 'edge.logs.prod';

export interface ClusterBody {
  bytes: Buffer;
  events: number;
  /** Events per project in this body. */
  perProject: Map<string, number>;
}

const PATHS = ['/rest/v1/orders', '/auth/v1/token', '/storage/v1/object/public/avatars/a.png', '/functions/v1/hello', '/realtime/v1/websocket'];
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

export function projectName(i: number): string {
  return `cproj${String(i).padStart(2, '0')}`;
}

/** One ~600 B edge event of `project`, stamped within the last day before `endMs`. */
function edgeEvent(i: number, project: string, endMs: number): string {
  const path = PATHS[i % PATHS.length]!;
  const host = `${project}.example.co`;
  return JSON.stringify({
    id: `0c1a2b3c-5c2d-4e8f-9a1b-${String(i).padStart(12, '0')}`,
    timestamp: new Date(endMs - (i % 86_400) * 1000).toISOString(),
    event_message: `${METHODS[i % 4]} | ${200 + (i % 5)} | 203.0.113.${i % 250} | cf-ray-${(i * 7919).toString(16)} | https://${host}${path}`,
    project,
    metadata: {
      request: { method: METHODS[i % 4], path, url: `https://${host}${path}?limit=${i % 100}`, host,
        headers: { user_agent: 'supabase-js/2.39.0', cf_connecting_ip: `203.0.113.${i % 250}` } },
      response: { status_code: 200 + (i % 5), origin_time: 12 + (i % 300), headers: { content_type: 'application/json', cf_cache_status: 'DYNAMIC' } },
    },
  });
}

/** `bodies` bodies of 500 events over `projects` projects (five per body, 100 events each). */
export function clusterBodies(bodies: number, projects: number, endMs: number): ClusterBody[] {
  const out: ClusterBody[] = [];
  let i = 0;
  for (let b = 0; b < bodies; b++) {
    const lines: string[] = [];
    const perProject = new Map<string, number>();
    for (let k = 0; k < 5; k++) {
      const project = projectName((b * 5 + k) % projects);
      for (let e = 0; e < 100; e++) lines.push(edgeEvent(i++, project, endMs));
      perProject.set(project, 100);
    }
    out.push({ bytes: Buffer.from(`{"batch":[${lines.join(',')}]}`), events: lines.length, perProject });
  }
  return out;
}

/** Events per project over all bodies. */
export function totalsPerProject(bodies: readonly ClusterBody[]): Map<string, number> {
  const t = new Map<string, number>();
  for (const b of bodies) for (const [p, n] of b.perProject) t.set(p, (t.get(p) ?? 0) + n);
  return t;
}
