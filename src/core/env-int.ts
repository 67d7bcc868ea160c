// One parser for integer environment variables: blank means the default, anything else must be an
// integer in range, or the start stops naming the variable and what it accepts.

export type Env = Record<string, string | undefined>;

export function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = Number(raw.trim());
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name}="${raw}" is not valid: expected an integer from ${min} to ${max}`);
  return v;
}
