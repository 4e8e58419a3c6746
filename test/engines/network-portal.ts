/**
 * A switch for WebKitGTK's network state, which classic WebDriver cannot emulate: a stand-in for the
 * desktop portal's NetworkMonitor (`org.freedesktop.portal.NetworkMonitor`, version 2) on a private
 * D-Bus of its own. WebKit started with {@link NetworkPortal.env} takes its network state from GIO's
 * portal network monitor (`GIO_USE_NETWORK_MONITOR=portal`, `GTK_USE_PORTAL=1`): its network process
 * asks this service whether the network is available, asks again at each `changed` signal, and
 * WebKit fires `offline` / `online` in its pages (`navigator.onLine` follows). Requests are not
 * blocked by it: a test cuts them itself (shop.ts `cut`).
 *
 * The D-Bus side is the least the monitor needs, spoken here over the bus's socket (little-endian
 * messages, EXTERNAL authentication): `Properties.GetAll`/`Get` (its `version`), `GetAvailable`,
 * `GetMetered`, `GetConnectivity`, the `changed` signal; anything else is answered UnknownMethod.
 * The bus is a `dbus-daemon` (Debian's `dbus-daemon` package) on a socket in a temporary folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PATH = '/org/freedesktop/portal/desktop';
const IFACE = 'org.freedesktop.portal.NetworkMonitor';
const NAME = 'org.freedesktop.portal.Desktop';
export const DBUS_DAEMON = '/usr/bin/dbus-daemon';

export interface NetworkPortal {
  /** What WebKit's processes need in their environment to ask this portal. */
  env: Record<string, string>;
  /** Says the network is (un)available and signals the change; resolves when WebKit has asked again. */
  setAvailable(available: boolean): Promise<void>;
  /** How many times the network's availability was asked for (WebKit's network process asks at start and at each change). */
  readonly asked: number;
  close(): Promise<void>;
}

// ------------------------------------------------------------------ marshalling (little-endian)

class Writer {
  private bytes: number[] = [];
  get length(): number {
    return this.bytes.length;
  }
  align(n: number): this {
    while (this.bytes.length % n) this.bytes.push(0);
    return this;
  }
  byte(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u32(v: number): this {
    this.align(4);
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }
  /** `s` and `o`. */
  string(s: string): this {
    const b = Buffer.from(s, 'utf8');
    this.u32(b.length);
    this.bytes.push(...b, 0);
    return this;
  }
  signature(s: string): this {
    this.bytes.push(s.length, ...Buffer.from(s, 'ascii'), 0);
    return this;
  }
  setU32(at: number, v: number): void {
    this.bytes.splice(at, 4, v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }
  buffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

type Field = { code: number; sig: 's' | 'o' | 'u' | 'g'; value: string | number };
const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;
const SIGNAL = 4;

/** A message: header fields as given, the body already marshalled (`signature` names its type). */
function message(type: number, serial: number, fields: Field[], signature = '', body: Buffer = Buffer.alloc(0)): Buffer {
  const w = new Writer().byte(0x6c).byte(type).byte(0).byte(1).u32(body.length).u32(serial);
  const all = signature ? [...fields, { code: 8, sig: 'g' as const, value: signature }] : fields;
  const lengthAt = w.length;
  w.u32(0);
  const start = w.length;
  for (const f of all) {
    w.align(8).byte(f.code).signature(f.sig);
    if (f.sig === 'u') w.u32(f.value as number);
    else if (f.sig === 'g') w.signature(f.value as string);
    else w.string(f.value as string);
  }
  w.setU32(lengthAt, w.length - start);
  w.align(8);
  return Buffer.concat([w.buffer(), body]);
}

interface Incoming {
  type: number;
  serial: number;
  path?: string;
  iface?: string;
  member?: string;
  sender?: string;
}

/** Splits whole messages off `buf`; returns them and what is left. */
function parse(buf: Buffer): { messages: Incoming[]; rest: Buffer } {
  const messages: Incoming[] = [];
  let at = 0;
  const pad = (n: number, m: number) => (n + m - 1) & ~(m - 1);
  while (buf.length - at >= 16) {
    if (buf[at] !== 0x6c) throw new Error('network portal: a big-endian D-Bus message (not expected here)');
    const bodyLength = buf.readUInt32LE(at + 4);
    const fieldsLength = buf.readUInt32LE(at + 12);
    const total = pad(16 + fieldsLength, 8) + bodyLength;
    if (buf.length - at < total) break;
    const m: Incoming = { type: buf[at + 1]!, serial: buf.readUInt32LE(at + 8) };
    let p = at + 16;
    const end = at + 16 + fieldsLength;
    while (p < end) {
      p = at + pad(p - at, 8);
      const code = buf[p++]!;
      const sigLength = buf[p++]!;
      const sig = buf.toString('ascii', p, p + sigLength);
      p += sigLength + 1;
      let value: string | number;
      if (sig === 's' || sig === 'o') {
        p = at + pad(p - at, 4);
        const n = buf.readUInt32LE(p);
        value = buf.toString('utf8', p + 4, p + 4 + n);
        p += 4 + n + 1;
      } else if (sig === 'u') {
        p = at + pad(p - at, 4);
        value = buf.readUInt32LE(p);
        p += 4;
      } else if (sig === 'g') {
        const n = buf[p]!;
        value = buf.toString('ascii', p + 1, p + 1 + n);
        p += n + 2;
      } else throw new Error(`network portal: a header field of type ${sig}`);
      if (code === 1) m.path = value as string;
      else if (code === 2) m.iface = value as string;
      else if (code === 3) m.member = value as string;
      else if (code === 7) m.sender = value as string;
    }
    messages.push(m);
    at += total;
  }
  return { messages, rest: buf.subarray(at) };
}

// ------------------------------------------------------------------ the service

/** Starts a private bus and the portal on it, the network available. */
export async function startNetworkPortal(): Promise<NetworkPortal> {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-portal-'));
  const socketPath = join(dir, 'bus');
  writeFileSync(
    join(dir, 'bus.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${socketPath}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy></busconfig>\n`,
  );
  const daemon: ChildProcess = spawn(DBUS_DAEMON, [`--config-file=${join(dir, 'bus.conf')}`, '--nofork', '--print-address'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => {
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  let socket: Socket | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('dbus-daemon gave no address within 10 s')), 10_000);
      daemon.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`${DBUS_DAEMON}: ${err.message} (install with \`apt-get install dbus-daemon\`)`));
      });
      daemon.stdout!.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    socket = connect(socketPath);
    const s = socket;
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.once('connect', () => resolve());
    });
    // EXTERNAL: the uid, in hex of its decimal digits.
    s.write(`\0AUTH EXTERNAL ${Buffer.from(String(process.getuid?.() ?? 0)).toString('hex')}\r\n`);
    await new Promise<void>((resolve, reject) => {
      s.once('data', (b: Buffer) => (b.toString().startsWith('OK ') ? resolve() : reject(new Error(`network portal: the bus refused: ${b.toString().trim()}`))));
    });
    s.write('BEGIN\r\n');
  } catch (err) {
    socket?.destroy();
    stop();
    throw err;
  }
  const s = socket;
  let serial = 0;
  let available = true;
  let asked = 0;
  const waiters: (() => void)[] = [];
  const send = (b: Buffer) => void s.write(b);
  const bus = (member: string, signature = '', body?: Buffer) =>
    send(message(METHOD_CALL, ++serial, [
      { code: 1, sig: 'o', value: '/org/freedesktop/DBus' },
      { code: 2, sig: 's', value: 'org.freedesktop.DBus' },
      { code: 3, sig: 's', value: member },
      { code: 6, sig: 's', value: 'org.freedesktop.DBus' },
    ], signature, body));
  const reply = (to: Incoming, signature: string, body: Buffer) =>
    send(message(METHOD_RETURN, ++serial, [{ code: 5, sig: 'u', value: to.serial }, { code: 6, sig: 's', value: to.sender! }], signature, body));
  const refuse = (to: Incoming) =>
    send(message(ERROR, ++serial, [
      { code: 4, sig: 's', value: 'org.freedesktop.DBus.Error.UnknownMethod' },
      { code: 5, sig: 'u', value: to.serial },
      { code: 6, sig: 's', value: to.sender! },
    ]));
  const answer = (m: Incoming) => {
    if (m.type !== METHOD_CALL || !m.sender) return;
    if (m.path !== PATH) return refuse(m);
    if (m.iface === 'org.freedesktop.DBus.Properties' && m.member === 'GetAll') {
      // a{sv} with one entry, "version" → <uint32 2>: the array's length, then the entry at an 8-aligned offset
      // (the body starts 8-aligned in the message, so the offsets here are the message's).
      const body = new Writer().u32(0);
      const first = body.align(8).length;
      const buf = body.string('version').signature('u').u32(2).buffer();
      buf.writeUInt32LE(buf.length - first, 0);
      return reply(m, 'a{sv}', buf);
    }
    if (m.iface === 'org.freedesktop.DBus.Properties' && m.member === 'Get') return reply(m, 'v', new Writer().signature('u').u32(2).buffer());
    if (m.iface === IFACE && m.member === 'GetAvailable') {
      asked++;
      for (const w of waiters.splice(0)) w();
      return reply(m, 'b', new Writer().u32(available ? 1 : 0).buffer());
    }
    if (m.iface === IFACE && m.member === 'GetMetered') return reply(m, 'b', new Writer().u32(0).buffer());
    // NetworkManager's numbers: 4 full, 1 none.
    if (m.iface === IFACE && m.member === 'GetConnectivity') return reply(m, 'u', new Writer().u32(available ? 4 : 1).buffer());
    return refuse(m);
  };
  let pending: Buffer = Buffer.alloc(0);
  s.on('data', (b: Buffer) => {
    const { messages, rest } = parse(Buffer.concat([pending, b]));
    pending = rest;
    for (const m of messages) answer(m);
  });
  s.on('error', () => undefined);
  bus('Hello');
  // RequestName(s name, u flags = 4: do not queue).
  bus('RequestName', 'su', new Writer().string(NAME).u32(4).buffer());
  return {
    env: {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${socketPath}`,
      GTK_USE_PORTAL: '1',
      GIO_USE_NETWORK_MONITOR: 'portal',
      // With portals on, GIO would ask the portal for proxies too: none here.
      GIO_USE_PROXY_RESOLVER: 'dummy',
    },
    get asked() {
      return asked;
    },
    async setAvailable(value) {
      available = value;
      const askedAgain = new Promise<void>((resolve) => waiters.push(resolve));
      send(message(SIGNAL, ++serial, [
        { code: 1, sig: 'o', value: PATH },
        { code: 2, sig: 's', value: IFACE },
        { code: 3, sig: 's', value: 'changed' },
      ]));
      await Promise.race([askedAgain, new Promise((r) => setTimeout(r, 5000))]);
    },
    async close() {
      s.destroy();
      stop();
    },
  };
}
