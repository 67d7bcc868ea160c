// Parsers for one environment variable each: blank or unset means the default; anything else must be
// what the variable accepts, or a ConfigError names the variable, the value and what it accepts.

export type Env = Record<string, string | undefined>;

/** A bad configuration value: main prints the message and exits 2 (no stack). */
export class ConfigError extends Error {
  constructor(name: string, raw: string, accepts: string) {
    super(`${name}="${raw}" is not valid: expected ${accepts}`);
    this.name = 'ConfigError';
  }
}

/** The trimmed value, or null when unset or blank. */
export function rawVar(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

export function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new ConfigError(name, env[name]!, `an integer from ${min} to ${max}`);
  return v;
}

/** A positive number (an integer when `integer`), as the store's capacities and retention take. */
export function positiveVar(env: Env, name: string, fallback: number, integer: boolean): number {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) throw new ConfigError(name, env[name]!, `a positive ${integer ? 'integer' : 'number'}`);
  return v;
}

/** A number in (min, max] — a share such as RINGQL_WARM_CPU_SHARE. */
export function shareVar(env: Env, name: string, fallback: number): number {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0 || v > 1) throw new ConfigError(name, env[name]!, 'a number above 0 and at most 1');
  return v;
}

/** One of `choices` (case-insensitive, returned lower-cased). */
export function choiceVar<T extends string>(env: Env, name: string, fallback: T, choices: readonly T[]): T {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  const v = raw.toLowerCase();
  if (!(choices as readonly string[]).includes(v)) throw new ConfigError(name, env[name]!, `one of ${choices.join(', ')}`);
  return v as T;
}

/** A flag: 0/1/true/false. */
export function flagVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  const v = raw.toLowerCase();
  if (!['0', '1', 'true', 'false'].includes(v)) throw new ConfigError(name, env[name]!, '0 or 1');
  return v === '1' || v === 'true';
}

/** A one-line text, as a header value must be. */
export function lineVar(env: Env, name: string, fallback: string): string {
  const raw = rawVar(env, name);
  if (raw === null) return fallback;
  if (/[\r\n]/.test(raw)) throw new ConfigError(name, env[name]!.replace(/[\r\n]/g, '\\n'), 'one line');
  return raw;
}
