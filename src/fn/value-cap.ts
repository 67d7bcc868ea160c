// The single-value cap of SPEC §11 as kernels apply it: a string or array result is measured before
// it is built, so no kernel ever asks V8 for a string past the cap (or past V8's own string limit).

import { activeMeter, valueTooLarge } from '../core/work-meter.ts';

/** Refuses a result of `units` (UTF-16 units of a string, or 8 bytes per array element) over the value cap. */
export function checkLength(what: string, units: number): void {
  const cap = activeMeter().limits.maxValueBytes;
  if (units > cap) throw valueTooLarge(what, units, cap);
}
