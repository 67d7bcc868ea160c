// The IPv4/IPv6 address pattern used by PII redaction (SPEC §6). Built once from small parts so each
// alternative is readable; every alternative is bounded (≤ 8 groups of ≤ 4 hex digits), so matching is linear.

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
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
 * Left guard: not inside a word, a number or a longer colon run (`std::vector`, MAC-like `aa:bb:...` runs);
 * a single `:` before is fine (`from:fe80::1`). Right guard: no further word character, colon or `.digit`.
 */
const IPV6 = `(?<![0-9A-Za-z_.])(?<![0-9A-Fa-f:]:)(?:${IPV6_FORMS.join('|')})(?![0-9A-Za-z_:]|\\.\\d)`;

/** Global pattern matching one address per hit; IPv6 is tried first so `::ffff:1.2.3.4` is one address. */
export const IP_ADDRESS = new RegExp(`${IPV6}|${IPV4}`, 'g');

/** Cheap pre-check: only strings with a digit or hex letter next to `.`/`:` can hold an address. */
export const MAY_HOLD_ADDRESS = /[0-9A-Fa-f][.:]|::/;
