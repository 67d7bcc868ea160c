// Fast formatting of one event's timestamp (µs since epoch) in the several textual forms the
// log sources use, computed once per event; the calendar part is cached per UTC day.

const US_PER_DAY = 86_400_000_000;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PAD2: string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' : '') + i);

function pad3(n: number): string {
  return n < 10 ? '00' + n : n < 100 ? '0' + n : '' + n;
}
function pad6(n: number): string {
  const s = '' + n;
  return '000000'.slice(s.length) + s;
}

/** Formats a µs timestamp; call `set(us)` once per event, then read the forms needed. */
export class EventClock {
  /** The event time in µs since epoch. */
  us = 0;
  private day = Number.NaN;
  /** "YYYY-MM-DD" of the cached day. */
  private ymd = '';
  /** "Thu, 23 Mar 2023" of the cached day (HTTP date header). */
  private httpDay = '';
  private hms = '';
  private micro = 0;

  set(us: number): void {
    this.us = us;
    const day = Math.floor(us / US_PER_DAY);
    if (day !== this.day) {
      this.day = day;
      const d = new Date(day * 86_400_000);
      this.ymd = d.toISOString().slice(0, 10);
      this.httpDay = DAY_NAMES[d.getUTCDay()] + ', ' + PAD2[d.getUTCDate()] + ' ' + MONTH_NAMES[d.getUTCMonth()] + ' ' + d.getUTCFullYear();
    }
    const inDay = us - day * US_PER_DAY;
    const sec = Math.floor(inDay / 1_000_000);
    this.micro = inDay - sec * 1_000_000;
    this.hms = PAD2[Math.floor(sec / 3600)]! + ':' + PAD2[Math.floor(sec / 60) % 60]! + ':' + PAD2[sec % 60]!;
  }

  /** `2023-03-23T14:40:18.149123Z` */
  isoMicrosZ(): string {
    return this.ymd + 'T' + this.hms + '.' + pad6(this.micro) + 'Z';
  }

  /** `2023-03-23T14:40:18.149123+00:00` */
  isoMicrosOffset(): string {
    return this.ymd + 'T' + this.hms + '.' + pad6(this.micro) + '+00:00';
  }

  /** `2023-03-23T14:40:18Z` (auth server `time`). */
  isoSecondsZ(): string {
    return this.ymd + 'T' + this.hms + 'Z';
  }

  /** `2023-03-23T14:34:17.643993277+00:00` (ns precision; the last 3 digits are given). */
  isoNanosOffset(extraNs: number): string {
    return this.ymd + 'T' + this.hms + '.' + pad6(this.micro) + pad3(extraNs) + '+00:00';
  }

  /** `2023-03-23 14:40:18.149 UTC` (postgres csvlog). */
  pgMillis(): string {
    return this.ymd + ' ' + this.hms + '.' + pad3(Math.floor(this.micro / 1000)) + ' UTC';
  }

  /** `Thu, 23 Mar 2023 12:59:07 GMT` */
  httpDate(): string {
    return this.httpDay + ' ' + this.hms + ' GMT';
  }
}

let pgDay = Number.NaN;
let pgYmd = '';

/** `2023-03-23 13:53:11 UTC` for an arbitrary µs time (the calendar day is cached). */
export function pgSeconds(us: number): string {
  const day = Math.floor(us / US_PER_DAY);
  if (day !== pgDay) {
    pgDay = day;
    pgYmd = new Date(day * 86_400_000).toISOString().slice(0, 10);
  }
  const sec = Math.floor((us - day * US_PER_DAY) / 1_000_000);
  return pgYmd + ' ' + PAD2[Math.floor(sec / 3600)]! + ':' + PAD2[Math.floor(sec / 60) % 60]! + ':' + PAD2[sec % 60]! + ' UTC';
}

/** ISO string with a non-zero offset naming the same instant, e.g. `2023-03-23T16:40:18.149123+02:00`. */
export function isoMicrosWithOffset(us: number, offsetMinutes: number): string {
  const local = us + offsetMinutes * 60_000_000;
  const ms = Math.floor(local / 1000);
  const micro = local - ms * 1000;
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return iso.slice(0, 23) + pad3(micro) + sign + PAD2[Math.floor(abs / 60)] + ':' + PAD2[abs % 60];
}
