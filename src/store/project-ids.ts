// Project names of one source as small ids (0 = no project), as rows store them: assigned on first
// sight, never reused, and restored from a checkpoint in the same order.

export class ProjectIds {
  private readonly ids = new Map<string, number>();
  /** Names by id; index 0 is null (rows without a project). */
  readonly names: (string | null)[] = [null];

  /** The id of project `p`, assigned when new (null: 0). */
  id(p: string | null): number {
    if (p === null) return 0;
    let id = this.ids.get(p);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(p);
      this.ids.set(p, id);
    }
    return id;
  }

  /** The id of project `p` if it has one (no assignment). */
  find(p: string): number | undefined {
    return this.ids.get(p);
  }

  /** Replaces every id with a checkpoint's names (index = id). */
  restore(names: readonly (string | null)[]): void {
    this.names.length = 0;
    this.ids.clear();
    names.forEach((p, i) => { this.names.push(p); if (p !== null) this.ids.set(p, i); });
  }
}
