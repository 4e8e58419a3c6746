/**
 * Which proxies are believed: `trustProxy` as a list of addresses and CIDR ranges (IPv4 and IPv6), and
 * the client address of a request that came through them — the nearest `X-Forwarded-For` entry that
 * is not itself a trusted proxy, walking from the right (like Express's `trust proxy`). Pure: no
 * `node:net`, so it runs on edge runtimes too.
 */

/** An address as 4 (IPv4) or 16 (IPv6) bytes; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is IPv4. */
export function parseAddress(text: string): Uint8Array | null {
  let s = text.trim();
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return null;
    s = s.slice(1, end);
  }
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = parseIPv4(s) ?? parseIPv4(s.replace(/:\d{1,5}$/, ''));
  if (v4) return v4;
  const v6 = parseIPv6(s);
  if (!v6) return null;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return mapped ? v6.slice(12) : v6;
}

function parseIPv4(s: string): Uint8Array | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    out[i] = Number(p);
  }
  return out;
}

function parseIPv6(s: string): Uint8Array | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(s) || s.length > 45) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const g = items[i]!;
      if (i === items.length - 1 && g.includes('.')) {
        const v4 = parseIPv4(g);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return null;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

interface Range {
  bytes: Uint8Array;
  bits: number;
}

/** A set of trusted proxies; `true` trusts every socket (the nearest forwarded entry is the client). */
export type ProxyTrust = { all: true } | { all: false; ranges: readonly Range[] };

/** Checks a `trustProxy` option: `true`/`false`, or a list of addresses and CIDR ranges (a `TypeError` names a bad entry). */
export function parseTrustProxy(option: unknown): ProxyTrust | null {
  if (option === undefined || option === false) return null;
  if (option === true) return { all: true };
  if (!Array.isArray(option)) throw new TypeError('paydesk/server: trustProxy must be true, false or a list of addresses and CIDR ranges (e.g. ["10.0.0.0/8", "127.0.0.1", "::1"])');
  const ranges: Range[] = [];
  for (const entry of option) {
    if (typeof entry !== 'string') throw new TypeError(`paydesk/server: trustProxy entries must be strings, got ${typeof entry}`);
    const [addr, prefix, ...rest] = entry.split('/');
    const bytes = parseAddress(addr ?? '');
    const max = bytes ? bytes.length * 8 : 0;
    const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (!bytes || rest.length > 0 || bits < 0 || bits > max) {
      throw new TypeError(`paydesk/server: trustProxy entry ${JSON.stringify(entry)} is not an IPv4 or IPv6 address or CIDR range`);
    }
    ranges.push({ bytes, bits });
  }
  return { all: false, ranges };
}

function inRange(addr: Uint8Array, range: Range): boolean {
  if (addr.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((addr[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

export function isTrusted(trust: ProxyTrust, address: string): boolean {
  if (trust.all) return true;
  const bytes = parseAddress(address);
  return bytes !== null && trust.ranges.some((r) => inRange(bytes, r));
}

/**
 * The client address of a request: with no socket address known, or a socket that is not a trusted
 * proxy, the socket address (a forwarded header is ignored); from a trusted proxy, the nearest
 * `X-Forwarded-For` entry that is not a trusted proxy itself (with `true`: the last entry), or the
 * farthest entry when all are trusted.
 */
export function clientAddressBehindProxies(trust: ProxyTrust, socket: string | undefined, xff: string | null): string | undefined {
  if (socket !== undefined && !isTrusted(trust, socket)) return socket;
  if (socket === undefined && !trust.all) return undefined;
  const hops = (xff ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (hops.length === 0) return socket;
  if (trust.all) return hops[hops.length - 1];
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(trust, hops[i]!)) return hops[i];
  return hops[0];
}
