// The synthetic projects: `default` plus seeded 20-letter refs, Zipf-like popularity (a few big
// projects, a long tail), and the per-project details events repeat (functions, hosts, region).

import { Rng } from './random.ts';

export interface EdgeFunction {
  name: string;
  id: string;
  version: number;
}

export interface Project {
  ref: string;
  /** Relative traffic share (Zipf-like by rank). */
  weight: number;
  region: string;
  dbHost: string;
  storageHost: string;
  realtimeNode: string;
  functions: EdgeFunction[];
  /** Whether the project uses these services at all (every project uses edge, db, auth, rest). */
  usesFunctions: boolean;
  usesRealtime: boolean;
  usesStorage: boolean;
  /** Table names of its REST API. */
  tables: string[];
  buckets: string[];
}

const REGIONS = ['us-east-1', 'us-east-1', 'us-west-1', 'eu-central-1', 'eu-west-2', 'eu-west-1', 'ap-southeast-1', 'ap-northeast-1', 'ap-south-1', 'sa-east-1', 'ca-central-1'];
const FUNCTION_NAMES = [
  'hello-world', 'stripe-webhook', 'send-email', 'connect-heartbeat', 'resize-image', 'openai-chat', 'push-notification',
  'generate-pdf', 'sync-users', 'slack-bot', 'og-image', 'cron-cleanup', 'invite-user', 'checkout-session',
];
const TABLES = [
  'todos', 'profiles', 'messages', 'orders', 'products', 'some_table', 'countries', 'posts', 'comments', 'rooms',
  'invoices', 'customers', 'events', 'notifications', 'tasks', 'teams', 'documents', 'subscriptions', 'likes', 'followers',
];
const BUCKETS = ['avatars', 'public', 'images', 'uploads', 'documents', 'product-images', 'attachments'];

/** Deterministic project refs for a seed: `default` first, then 20 lowercase letters each. */
export function projectRefs(count: number, seed: number): string[] {
  const rng = new Rng(seed ^ 0x5eed0f);
  const refs = ['default'];
  const seen = new Set(refs);
  while (refs.length < count) {
    const ref = rng.lower(20);
    if (!seen.has(ref)) { seen.add(ref); refs.push(ref); }
  }
  return refs.slice(0, Math.max(1, count));
}

/** A small fixed set of project refs for the demo mode (same for every run). */
export function demoProjects(count = 4): string[] {
  return projectRefs(count, 1);
}

/** The demo server's projects (`default` plus three seeded refs). */
export const DEMO_PROJECTS: readonly string[] = demoProjects(4);

function pickSome<T>(rng: Rng, items: readonly T[], min: number, max: number): T[] {
  const copy = items.slice();
  rng.shuffle(copy);
  return copy.slice(0, rng.int(min, Math.min(max, copy.length)));
}

export function buildProjects(count: number, seed: number, rng: Rng): Project[] {
  const refs = projectRefs(count, seed);
  return refs.map((ref, rank) => {
    const fnNames = pickSome(rng, FUNCTION_NAMES, 1, 5);
    const big = rank < 3;
    return {
      ref,
      // Zipf with s ≈ 1.1 over the rank; `default` is the most popular project.
      weight: 1 / Math.pow(rank + 1, 1.1),
      region: rank === 0 ? 'us-east-1' : rng.pick(REGIONS),
      dbHost: 'db-' + ref,
      storageHost: 'storage-' + rng.hex(6) + '.internal',
      realtimeNode: `realtime@10.0.${rng.int(0, 7)}.${rng.int(2, 250)}`,
      functions: fnNames.map((name) => ({ name, id: rng.uuid(), version: rng.int(1, 900) })),
      usesFunctions: big || rng.chance(0.6),
      usesRealtime: big || rng.chance(0.5),
      usesStorage: big || rng.chance(0.7),
      tables: pickSome(rng, TABLES, 3, 8),
      buckets: pickSome(rng, BUCKETS, 1, 3),
    };
  });
}
