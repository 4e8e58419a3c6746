/**
 * What each engine does with a digest (`integrity`) that does not match, measured on a bare page of
 * ours: the facts the CDN loader (src/element/integrity.ts) is built on, reported per engine
 * (docs/code-integrity.md, "Per engine"). Each test names what the loader needs of the engine; the other
 * behaviours are measured and reported as diagnostics (a `# ` line of the test's output).
 *
 * The loader needs, in every engine: a `<script type="module" integrity>` whose bytes do not match is
 * refused (`error`, its code never runs); one whose bytes match runs and its later `import()` fetches
 * nothing again; a module script of a parent inserted after its import has run takes that checked
 * module (the import is not fetched again).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { enginesToRun, launchEngine, type Engine, type EnginePage } from './driver.js';

const hits: string[] = [];
/** /m/<name>.js: a module that records that it ran; /m/p-<name>.js imports /m/d-<name>.js. */
const body = (path: string) => {
  const name = path.slice('/m/'.length, -'.js'.length);
  const imp = name.startsWith('p-') ? `import '/m/d-${name.slice(2)}.js';\n` : '';
  return `${imp}(globalThis.__ran ||= []).push(${JSON.stringify(name)});\nexport const x = 1;\n`;
};
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
const WRONG = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;

let server: Server;
let origin = '';
before(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/m/') && path.endsWith('.js')) {
      hits.push(path);
      return void res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-cache' }).end(body(path));
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>integrity</title><p>integrity');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

/** Inserts `<tag>` elements in the page in order, each with its attributes, and returns their events (`load`, `error`, `none`). */
function insert(page: EnginePage, elements: { tag: 'link' | 'script'; attrs: Record<string, string>; await?: boolean }[]) {
  return page.evaluate(async (list: { tag: string; attrs: Record<string, string>; await?: boolean }[]) => {
    const events: string[] = [];
    for (const { tag, attrs, await: wait } of list) {
      const el = document.createElement(tag);
      const seen = new Promise<string>((resolve) => {
        el.addEventListener('load', () => resolve('load'));
        el.addEventListener('error', () => resolve('error'));
        setTimeout(() => resolve('none'), 5000);
      });
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      document.head.append(el);
      if (wait) events.push(await seen);
      else void seen.then((e) => events.push(e));
    }
    await new Promise((r) => setTimeout(r, 300));
    return events;
  }, elements);
}
const ran = (page: EnginePage) => page.evaluate(() => ((globalThis as { __ran?: string[] }).__ran ?? []).slice());
const importOk = (page: EnginePage, path: string) =>
  page.evaluate((p: string) => import(p).then(() => 'imported', () => 'refused'), path);

for (const name of enginesToRun()) {
  describe(`${name}: integrity checks`, () => {
    let engine: Engine;
    let page: EnginePage;
    let n = 0;
    /** A fresh module name for each measure. */
    const fresh = (prefix = '') => `/m/${prefix}${name}-${++n}.js`;
    before(async () => {
      engine = await launchEngine(name);
      page = await engine.newPage({ width: 800, height: 900 });
      await page.goto(`${origin}/`);
    });
    after(async () => {
      await page?.close();
      await engine?.close();
    });

    test(`${name}: a module script whose bytes do not match its digest is refused and never runs (what the loader relies on)`, async (t) => {
      t.diagnostic(`${name}: ${engine.version}`);
      const src = fresh();
      const events = await insert(page, [{ tag: 'script', attrs: { type: 'module', integrity: WRONG, src }, await: true }]);
      assert.deepEqual(events, ['error']);
      assert.ok(!(await ran(page)).includes(src.slice(3, -3)), 'its code did not run');
    });

    test(`${name}: a matching module script runs, and import() of it fetches nothing again`, async () => {
      const src = fresh();
      hits.length = 0;
      const events = await insert(page, [{ tag: 'script', attrs: { type: 'module', integrity: sri(body(src)), src }, await: true }]);
      assert.deepEqual(events, ['load']);
      assert.equal(await importOk(page, src), 'imported');
      assert.deepEqual(hits, [src], 'fetched once');
    });

    test(`${name}: a parent's module script inserted after its checked import has run takes that module (no second fetch of it)`, async () => {
      const dep = fresh('d-');
      const parent = dep.replace('/m/d-', '/m/p-');
      hits.length = 0;
      const events = await insert(page, [
        { tag: 'script', attrs: { type: 'module', integrity: sri(body(dep)), src: dep }, await: true },
        { tag: 'script', attrs: { type: 'module', integrity: sri(body(parent)), src: parent }, await: true },
      ]);
      assert.deepEqual(events, ['load', 'load']);
      assert.deepEqual(hits.filter((h) => h === dep), [dep], 'the import was fetched once, with its digest');
    });

    test(`${name}: measured: modulepreload, preload and fetch() with a digest that does not match; a refused import fetched again for a parent`, async (t) => {
      const say = (what: string, value: unknown) => t.diagnostic(`${name}: ${what}: ${JSON.stringify(value)}`);
      // <link rel=modulepreload integrity=wrong>: its event, then import() of the same URL.
      const mp = fresh();
      const [mpEvent] = await insert(page, [{ tag: 'link', attrs: { rel: 'modulepreload', integrity: WRONG, href: mp }, await: true }]);
      const mpImport = await importOk(page, mp);
      const mpRan = (await ran(page)).includes(mp.slice(3, -3));
      say('modulepreload with a wrong digest fires', mpEvent);
      say('then import() of it', `${mpImport}${mpRan ? ', and the changed code ran' : ', the code never ran'}`);
      // fetch() with integrity.
      const fetched = await page.evaluate((u: string, i: string) => fetch(u, { integrity: i }).then(() => 'resolved', () => 'rejected'), fresh(), WRONG);
      say('fetch() with a wrong digest', fetched);
      // A refused import, then its parent (no digest for the import in a module's static import).
      const dep = fresh('d-');
      const parent = dep.replace('/m/d-', '/m/p-');
      const events = await insert(page, [
        { tag: 'script', attrs: { type: 'module', integrity: WRONG, src: dep }, await: true },
        { tag: 'script', attrs: { type: 'module', integrity: sri(body(parent)), src: parent }, await: true },
      ]);
      const depRan = (await ran(page)).includes(dep.slice(3, -3));
      say('a parent inserted after its import was refused', `${events.join(', ')}${depRan ? ': the import was fetched again without its digest and ran' : ': the import stays refused'}`);
      // <link rel=preload as=script crossorigin integrity> then the module script: one fetch or two.
      const pre = fresh();
      hits.length = 0;
      await insert(page, [
        { tag: 'link', attrs: { rel: 'preload', as: 'script', crossorigin: 'anonymous', integrity: sri(body(pre)), href: pre }, await: true },
        { tag: 'script', attrs: { type: 'module', integrity: sri(body(pre)), src: pre }, await: true },
      ]);
      say('preload as=script then the module script (no-cache)', `${hits.filter((h) => h === pre).length} fetch(es)`);
      const preBad = fresh();
      const badEvents = await insert(page, [
        { tag: 'link', attrs: { rel: 'preload', as: 'script', crossorigin: 'anonymous', integrity: WRONG, href: preBad }, await: true },
        { tag: 'script', attrs: { type: 'module', integrity: WRONG, src: preBad }, await: true },
      ]);
      say('preload with a wrong digest, then the module script', badEvents.join(', '));
      // A page's own <link rel=modulepreload integrity> of a chunk (README once suggested one for a
      // language table) with a changed file, then the loader's module script of the same URL.
      const own = fresh();
      const ownEvents = await insert(page, [
        { tag: 'link', attrs: { rel: 'modulepreload', integrity: WRONG, href: own }, await: true },
        { tag: 'script', attrs: { type: 'module', integrity: WRONG, src: own }, await: true },
      ]);
      const ownRan = (await ran(page)).includes(own.slice(3, -3));
      say("a page's modulepreload with a wrong digest, then the module script", `${ownEvents.join(', ')}${ownRan ? ': the changed code ran' : ': the code never ran'}`);
      assert.equal(badEvents[1], 'error', 'the module script is refused whatever the preload did');
      assert.ok(!(await ran(page)).includes(preBad.slice(3, -3)));
    });
  });
}
