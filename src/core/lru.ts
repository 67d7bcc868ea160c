// mnemonist's two LRU maps, loaded file by file: its index loads every structure it has (~17 MB of
// resident memory at start). Its "exports" map serves the single files to `require` only.

import { createRequire } from 'node:module';

type LRUMapCtor = typeof import('mnemonist/lru-map.js').default;
type LRUMapWithDeleteCtor = typeof import('mnemonist/lru-map-with-delete.js').default;

const require = createRequire(import.meta.url);

export const LRUMap = require('mnemonist/lru-map.js') as LRUMapCtor;
export type LRUMap<K, V> = import('mnemonist/lru-map.js').default<K, V>;
export const LRUMapWithDelete = require('mnemonist/lru-map-with-delete.js') as LRUMapWithDeleteCtor;
export type LRUMapWithDelete<K, V> = import('mnemonist/lru-map-with-delete.js').default<K, V>;
