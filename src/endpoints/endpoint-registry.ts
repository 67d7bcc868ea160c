// The endpoints a service serves, by id and by lower-cased name: the built-ins (one that does not
// prepare stops the start), the stored ones (skipped with a note when unusable) and those created since.

import { RingqlError } from '../core/errors.ts';
import type { Catalog } from '../plan/catalog.ts';
import { isUuid, type EndpointDef } from './definition.ts';
import { loadEndpoint, prepareEndpoint, type PreparedEndpoint } from './prepare.ts';
import { loadBuiltins, loadStored, removeTempFiles, type StoredFile } from './endpoint-files.ts';

export class EndpointRegistry {
  private readonly byId = new Map<string, PreparedEndpoint>();
  private readonly byName = new Map<string, string>();

  constructor(private readonly catalog: Catalog, private readonly now: () => number) {}

  /** Built-ins not prepared yet (a registry loaded with `lazyBuiltins`): prepared at the first lookup or change. */
  private builtinsPending = false;

  /**
   * Prepares the built-ins (any failure stops the start: it is a bug) and every stored endpoint. A
   * stored endpoint never stops the start: one that cannot be read or parsed, or whose name is taken,
   * is skipped and reported; one that does not bind yet (a field only events carry) is kept.
   * `lazyBuiltins` (no stateDir only: the CLI's one-shot service): the built-ins are prepared when first
   * looked up instead (~50 ms of parse and bind a plain `ringql query --sql` never uses).
   */
  load(stateDir: string | null, log: (line: string) => void, lazyBuiltins = false): void {
    if (lazyBuiltins && !stateDir) { this.builtinsPending = true; return; }
    this.installBuiltins();
    if (!stateDir) return;
    const removed = removeTempFiles(stateDir);
    if (removed) log(`ringql: removed ${removed} leftover temporary endpoint file(s) (*.tmp) in ${stateDir}, from writes a crash interrupted`);
    for (const stored of loadStored(stateDir)) {
      const note = this.installStored(stored);
      if (note) log(note);
    }
  }

  /** Whether the built-ins have been prepared (tests: a plain CLI query prepares none). */
  get builtinsPrepared(): boolean {
    return !this.builtinsPending;
  }

  private installBuiltins(): void {
    for (const { def, file } of loadBuiltins()) this.installBuiltin(def, file);
  }

  /** Prepares pending built-ins before any lookup or change, so every answer is as if they were prepared at load. */
  private ready(): void {
    if (!this.builtinsPending) return;
    this.builtinsPending = false;
    this.installBuiltins();
  }

  private installBuiltin(def: EndpointDef, file: string): void {
    let prep: PreparedEndpoint;
    try {
      prep = prepareEndpoint(def, this.catalog, this.now());
    } catch (err) {
      if (err instanceof RingqlError) throw new Error(`Endpoint ${def.name} (${where(file, err)}) does not prepare: ${err.message}`);
      throw err;
    }
    if (this.byName.has(def.name.toLowerCase())) throw new Error(`Endpoint name ${def.name} (${file}) is used twice`);
    this.put(prep);
  }

  /** Installs one stored endpoint if it can be; returns a line to log, or null. */
  private installStored(stored: StoredFile): string | null {
    const skip = (why: string): string => `ringql: ERROR: stored endpoint ${why}; it is skipped (not served) until the file is fixed or deleted and ringql restarted`;
    if (stored.error !== undefined) return skip(`${stored.file} cannot be read: ${stored.error}`);
    const { def, file } = stored;
    if (this.byName.has(def.name.toLowerCase())) return skip(`${def.name} (${file}) has a name another endpoint uses`);
    if (this.byId.has(def.id)) return skip(`${def.name} (${file}) has an id another endpoint uses`);
    let loaded: ReturnType<typeof loadEndpoint>;
    try {
      loaded = loadEndpoint(def, this.catalog, this.now);
    } catch (err) {
      if (err instanceof RingqlError) return skip(`${def.name} (${where(file, err)}) does not parse: ${err.message}`);
      throw err;
    }
    this.put(loaded.prep);
    const e = loaded.bindError;
    return e ? `ringql: stored endpoint ${def.name} (${file}) does not bind yet (${e.code}: ${e.message}); it is served, and its requests answer that error until the data holds what it reads` : null;
  }

  /** The endpoint with this id (any case) or name (any case), or undefined. */
  find(idOrName: string): PreparedEndpoint | undefined {
    this.ready();
    const id = isUuid(idOrName) ? idOrName.toLowerCase() : this.byName.get(idOrName.toLowerCase());
    return id ? this.byId.get(id) : undefined;
  }

  /** As find, but an unknown endpoint is the `endpoint_not_found` error. */
  resolve(idOrName: string): PreparedEndpoint {
    const prep = this.find(idOrName);
    if (!prep) throw new RingqlError('endpoint_not_found', `No endpoint with id or name "${idOrName.slice(0, 200)}"`);
    return prep;
  }

  /** The id of the endpoint named `name` (any case), or undefined. */
  idOfName(name: string): string | undefined {
    this.ready();
    return this.byName.get(name.toLowerCase());
  }

  all(): IterableIterator<PreparedEndpoint> {
    this.ready();
    return this.byId.values();
  }

  /** Serves `prep` under its id and name (replacing an endpoint of that id). */
  put(prep: PreparedEndpoint): void {
    this.ready();
    this.byId.set(prep.def.id, prep);
    this.byName.set(prep.def.name.toLowerCase(), prep.def.id);
  }

  /** Forgets the name `name` only (an update that renames). */
  forgetName(name: string): void {
    this.ready();
    this.byName.delete(name.toLowerCase());
  }

  remove(def: EndpointDef): void {
    this.ready();
    this.byId.delete(def.id);
    this.byName.delete(def.name.toLowerCase());
  }
}

/** `file` or `file:line:column` when the error has a position. */
function where(file: string, err: RingqlError): string {
  return err.details.line ? `${file}:${String(err.details.line)}:${String(err.details.column)}` : file;
}
