// A small, strict argv parser for the ringql commands: known flags only, repeatable flags
// collected, every mistake a UsageError (exit code 2) with a message that says what to do.

export class UsageError extends Error {}

export interface FlagSpec {
  /** Flag takes a value (else boolean). */
  value: boolean;
  repeat?: boolean;
}

export function parseArgs(argv: string[], spec: Record<string, FlagSpec>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new UsageError(`Unexpected argument "${a}"`);
    let name = a.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) { value = name.slice(eq + 1); name = name.slice(0, eq); }
    const s = spec[name];
    if (!s) throw new UsageError(`Unknown option --${name}; options: ${Object.keys(spec).map((k) => '--' + k).join(', ')}`);
    if (s.value) {
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        value = argv[++i]!;
      }
    } else {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      value = 'true';
    }
    const list = out.get(name) ?? [];
    if (list.length && !s.repeat) throw new UsageError(`--${name} given twice`);
    list.push(value);
    out.set(name, list);
  }
  return out;
}
