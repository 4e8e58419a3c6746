/**
 * Writing the sandbox state file (see state-file.ts): atomically (temp file, fsync, rename, fsync of
 * the folder), when a request waits for it, a moment after other changes, and on close; receipts
 * once each into `<stateFile>.files/`.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open as openFile, rm as removeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SandboxEngine } from './engine.js';
import type { Terminal } from './terminal.js';
import { STATE_FORMAT, STATE_VERSION, type PersistedState, type PersistedTerminal } from './state-format.js';

function terminalState(t: Terminal, filesDir: string): PersistedTerminal {
  const d = t.data;
  return {
    apiKey: t.apiKey,
    id: t.id,
    depositId: t.depositId,
    clientId: t.clientId,
    webhookSecret: t.webhookSecret,
    preset: { ...t.preset, enabledButtons: [...t.preset.enabledButtons] },
    settings: { ...t.settings, enabledButtons: [...t.settings.enabledButtons] },
    data: {
      seq: d.seq,
      rotation: d.rotation,
      availableMinor: d.availableMinor.toString(),
      frozenMinor: d.frozenMinor.toString(),
      orders: d.orders.map(({ method, slot: _s, amountKey: _k, ...o }) => ({ ...o, methodId: method.id })),
      sessions: d.sessions.map(({ order, side: _side, ...s }) => ({ ...s, orderId: order?.id ?? null })),
      disputes: d.disputes.map(({ order, files, ...x }) => ({
        ...x,
        orderId: order.id,
        files: files.map((f) => {
          if (f.path === null || dirname(f.path) !== filesDir) {
            const target = join(filesDir, f.id);
            if (f.data === null) throw new Error(`the receipt ${f.id} has no content to save`);
            writeAtomically(target, f.data);
            f.path = target;
          }
          return { id: f.id, name: f.name, contentType: f.contentType, size: f.size, sha256: f.sha256 };
        }),
      })),
      transactions: d.transactions.map((x) => ({ ...x })),
      lateCredited: [...d.lateCredited],
      webhookLog: d.webhookLog.map((x) => structuredClone(x) as unknown as PersistedTerminal['data']['webhookLog'][number]),
    },
  };
}

/** Writes `content` to `path` through a temp file in the same folder, flushed, then renamed over it. */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/**
 * The async form of {@link writeAtomically}, with the folder fsynced after the rename (so the rename
 * itself survives a power cut). `superseded()` is asked just before the rename: true when a newer
 * save has landed meanwhile, and then this older one is dropped.
 */
async function writeAtomicallyAsync(path: string, content: string, temp: string, superseded: () => boolean): Promise<boolean> {
  const fh = await openFile(temp, 'w', 0o600);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  if (superseded()) {
    await removeFile(temp, { force: true });
    return false;
  }
  renameSync(temp, path);
  try {
    const dir = await openFile(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // A platform that cannot fsync a folder (Windows): the rename is as durable as it makes it.
  }
  return true;
}

export interface StateFileWriter {
  /** Schedules a save (debounced): for changes no request waits for. */
  changed(): void;
  /**
   * Resolves once the file holds every change made before the call. Calls of one moment share one
   * write (coalesced); rejects when the file cannot be written (the next call tries again).
   */
  durable(): Promise<void>;
  /** Saves now; throws when it cannot. */
  save(): void;
  /** Saves now if anything changed since the last save. */
  flush(): void;
  /** Saves if needed and stops. */
  close(): void;
}

export function filesDirOf(path: string): string {
  return `${path}.files`;
}

/**
 * Saves `engine`'s state to `path`: when a request waits for it ({@link StateFileWriter.durable}), a
 * moment after other changes (`debounceMs`), and on close. A failed debounced save is logged and
 * tried again at the next change. Temp files a killed process left behind are removed at start.
 */
export function createStateWriter(o: {
  path: string;
  engine: SandboxEngine;
  mainApiKey: string;
  masterSecret: string;
  clockOffsetMs: () => number;
  debounceMs: number;
  onError: (err: unknown) => void;
}): StateFileWriter {
  const filesDir = filesDirOf(o.path);
  let timer: NodeJS.Timeout | null = null;
  /** The engine version the file holds (-1: unknown, save whatever there is). */
  let savedVersion = -1;
  let closed = false;
  /** The async write under way, which every durable() of the moment waits for. */
  let writing: Promise<void> | null = null;
  let temps = 0;
  removeStaleTemps(o.path);

  const snapshot = () => {
    const version = o.engine.version;
    const state: PersistedState = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date().toISOString(),
      clockOffsetMs: o.clockOffsetMs(),
      masterSecret: o.masterSecret,
      mainApiKey: o.mainApiKey,
      terminals: [...o.engine.terminals.values()].map((t) => terminalState(t, filesDir)),
    };
    return { version, state, text: `${JSON.stringify(state)}\n` };
  };
  const saved = (version: number, state: PersistedState) => {
    if (version > savedVersion) savedVersion = version;
    removeOrphanedReceipts(filesDir, state);
  };
  const save = () => {
    if (o.engine.version === savedVersion) return;
    const { version, state, text } = snapshot();
    writeAtomically(o.path, text);
    saved(version, state);
  };
  /** One async write of the state as it is once the requests of this moment have made their changes. */
  const writeOnce = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (o.engine.version <= savedVersion) return;
    const { version, state, text } = snapshot();
    const temp = join(dirname(o.path), `.${basename(o.path)}.${process.pid}.${++temps}.tmp`);
    try {
      if (await writeAtomicallyAsync(o.path, text, temp, () => savedVersion >= version)) saved(version, state);
    } catch (err) {
      await removeFile(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  };
  const durable = async () => {
    const target = o.engine.version;
    while (savedVersion < target) {
      writing ??= writeOnce().finally(() => {
        writing = null;
      });
      await writing;
    }
  };
  const trySave = () => {
    timer = null;
    try {
      save();
    } catch (err) {
      o.onError(err);
    }
  };
  return {
    durable,
    save() {
      if (timer) clearTimeout(timer);
      timer = null;
      savedVersion = -1;
      save();
    },
    changed() {
      if (closed || timer) return;
      timer = setTimeout(() => {
        timer = null;
        durable().catch(o.onError);
      }, o.debounceMs);
    },
    flush() {
      if (timer) clearTimeout(timer);
      trySave();
    },
    close() {
      if (closed) return;
      this.flush();
      closed = true;
    },
  };
}

/** Temp files of this state file that a killed process left (never renamed into place). */
function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      rmSync(join(dirname(path), name), { force: true });
    } catch {
      // Not a file of ours after all (a folder of that name): left alone.
    }
  }
}

/** Receipts of disputes that are gone (a reset) are removed from the files folder. */
function removeOrphanedReceipts(filesDir: string, state: PersistedState): void {
  let names: string[];
  try {
    names = readdirSync(filesDir);
  } catch {
    return;
  }
  const kept = new Set(state.terminals.flatMap((t) => t.data.disputes.flatMap((d) => d.files.map((f) => f.id))));
  for (const name of names) if (!kept.has(name) && !name.startsWith('.')) rmSync(join(filesDir, name), { force: true });
}
