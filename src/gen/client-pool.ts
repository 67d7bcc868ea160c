// Who calls the APIs: user agents, client library headers, and seeded pools of IPv4/IPv6
// addresses (so the same clients recur, and PII redaction has plenty of addresses to find).

import { Rng, Weighted } from './random.ts';

export const USER_AGENTS = new Weighted<string>([
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36', 14],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 14],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:122.0) Gecko/20100101 Firefox/122.0', 4],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2.1 Safari/605.1.15', 5],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1', 9],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36', 6],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36', 2],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 11_5_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.150 Safari/537.36', 1],
  ['node', 6],
  ['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', 3],
  ['undici', 3],
  ['Deno/1.40.2', 3],
  ['Dart/3.2 (dart:io)', 3],
  ['okhttp/4.12.0', 2],
  ['python-requests/2.31.0', 3],
  ['python-httpx/0.26.0', 1],
  ['axios/1.6.5', 2],
  ['curl/8.4.0', 2],
  ['PostmanRuntime/7.36.1', 1],
  ['Go-http-client/2.0', 1],
  ['Expo/2.30.8 CFNetwork/1485 Darwin/23.1.0', 2],
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 1],
]);

export const CLIENT_INFOS = [
  'client-js-web/2.39.3', 'client-js-node/2.39.3', 'client-js-web/2.38.4', 'client-flutter/2.3.1',
  'client-py/2.3.4', 'client-swift/2.1.0', 'client-kt/2.0.4', 'postgrest-js/1.9.2',
];

export const REFERERS = [
  'https://app.example.com/', 'https://www.example.org/', 'https://shop.example.net/checkout', 'http://localhost:3000/',
  'http://localhost:5173/', 'https://dashboard.example.com/project/default', '', '', '', '',
];

export const JA3_HASHES_COUNT = 48;

/** Seeded address pools; clients recur the way they do in real traffic. */
export class ClientPool {
  readonly ipv4: string[];
  readonly ipv6: string[];
  readonly ja3: string[];
  /** Private addresses of service nodes and pollers (10.x, 172.16.x). */
  readonly internal: string[];

  constructor(rng: Rng) {
    this.ipv4 = [];
    for (let i = 0; i < 4096; i++) this.ipv4.push(publicIpv4(rng));
    this.ipv6 = [];
    for (let i = 0; i < 1024; i++) this.ipv6.push(ipv6(rng));
    this.ja3 = [];
    for (let i = 0; i < JA3_HASHES_COUNT; i++) this.ja3.push(rng.hex(32));
    this.internal = [];
    for (let i = 0; i < 256; i++) {
      this.internal.push(rng.chance(0.8) ? `10.${rng.int(0, 3)}.${rng.int(0, 15)}.${rng.int(2, 254)}` : `172.16.${rng.int(0, 31)}.${rng.int(2, 254)}`);
    }
  }

  /** A client address: IPv4 most of the time, IPv6 for ~15%. */
  clientIp(rng: Rng): string {
    return rng.float() < 0.15 ? this.ipv6[rng.below(this.ipv6.length)]! : this.ipv4[rng.below(this.ipv4.length)]!;
  }

  ipv4At(rng: Rng): string {
    return this.ipv4[rng.below(this.ipv4.length)]!;
  }

  internalIp(rng: Rng): string {
    return this.internal[rng.below(this.internal.length)]!;
  }
}

function publicIpv4(rng: Rng): string {
  const r = rng.float();
  // Documentation ranges for a share (safe to show), the rest spread over public space.
  if (r < 0.1) return `203.0.113.${rng.int(1, 254)}`;
  if (r < 0.2) return `198.51.100.${rng.int(1, 254)}`;
  if (r < 0.25) return `192.0.2.${rng.int(1, 254)}`;
  for (;;) {
    const a = rng.int(1, 223);
    if (a === 10 || a === 127 || a === 100 || a === 169 || a === 172 || a === 192) continue;
    return `${a}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  }
}

function group(rng: Rng): string {
  return rng.u32().toString(16).slice(0, rng.int(1, 4));
}

function ipv6(rng: Rng): string {
  const r = rng.float();
  if (r < 0.3) return `2001:db8:${group(rng)}::${group(rng)}`;
  if (r < 0.55) return `2a02:${group(rng)}:${group(rng)}:${group(rng)}::${group(rng)}`;
  const prefix = rng.pick(['2600', '2a01', '2405', '2804', '2c0f', '2607']);
  const parts: string[] = [prefix];
  for (let i = 0; i < 7; i++) parts.push(group(rng));
  return parts.join(':');
}
