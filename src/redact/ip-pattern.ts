// The IPv4/IPv6 address pattern used by PII redaction (SPEC §6). Built once from small parts so each
// alternative is readable; every alternative is bounded (≤ 8 groups of ≤ 4 hex digits), so matching is linear.

/** 0–255, zero-padded up to three digits too (`010.001.002.003` counts, SPEC §6). */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|0?\\d?\\d)';
/** A dotted quad of valid octets; not glued to further digits on either side (`12192.168.1.11` is no address). */
const IPV4_CORE = `${OCTET}(?:\\.${OCTET}){3}`;
const IPV4 = `(?<!\\d)${IPV4_CORE}(?!\\d)`;

const H = '[0-9A-Fa-f]{1,4}';
/** Every textual IPv6 form (RFC 4291 §2.2), longest and IPv4-suffixed forms first so the trailing guard can pick. */
const IPV6_FORMS = [
  `(?:${H}:){6}${IPV4_CORE}`,
  `(?:${H}:){1,5}:(?:${H}:){0,4}${IPV4_CORE}`,
  `::(?:${H}:){0,5}${IPV4_CORE}`,
  `(?:${H}:){7}${H}`,
  `(?:${H}:){1,6}:${H}(?::${H}){0,5}`,
  `(?:${H}:){1,7}:`,
  `::${H}(?::${H}){0,6}`,
];
/**
 * Left guard: not glued to a letter or digit (`_` and `.` before are fine: `x_fe80::1`, `a.2001:db8::1`),
 * not after `::` (`std::vector`), and not after `:` that ends a hex group standing alone — the inside of a
 * longer colon run such as a MAC-like `aa:bb:cc:dd:ee:ff`. A `:` ending a word is fine (`Remote:fe80::1`,
 * `source:2001:db8::1`). Right guard: no further word character, colon or `.digit`.
 * Every lookbehind is of bounded length (≤ 6 characters), so matching stays linear.
 */
const IPV6_LEFT = '(?<![0-9A-Za-z])(?<!::)(?<!(?<![0-9A-Za-z_.])[0-9A-Fa-f]{1,4}:)';
/**
 * A full eight-group address followed by `:port` (seen in logs without the brackets RFC 3986 asks for):
 * the address is the eight groups. One group of three or four digits at least, so a run of two-digit
 * groups (a MAC-like `ff:ee:dd:…`) stays what it is.
 */
const IPV6_WITH_PORT = `(?=(?:${H}:){0,7}[0-9A-Fa-f]{3})(?:${H}:){7}${H}(?=:\\d{1,5}(?![0-9A-Za-z_:]|\\.\\d))`;
const IPV6 = `${IPV6_LEFT}(?:${IPV6_WITH_PORT}|(?:${IPV6_FORMS.join('|')})(?![0-9A-Za-z_:]|\\.\\d))`;

/** Global pattern matching one address per hit; IPv6 is tried first so `::ffff:1.2.3.4` is one address. */
export const IP_ADDRESS = new RegExp(`${IPV6}|${IPV4}`, 'g');

/** Cheap pre-check: only strings with a digit or hex letter next to `.`/`:` can hold an address. */
export const MAY_HOLD_ADDRESS = /[0-9A-Fa-f][.:]|::/;
