/**
 * dist/custom-elements.json (cem analyze --litelement): the element, its tag, and every attribute,
 * property, event, slot, CSS part and CSS custom property documented — checked against the sources, so
 * a part or token added to a template without its JSDoc fails here. Needs `dist/` (npm test builds it).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Described {
  name: string;
  description?: string;
  summary?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
}
interface ElementDecl extends Described {
  kind: 'class';
  customElement?: boolean;
  tagName?: string;
  attributes?: (Described & { fieldName?: string })[];
  members?: Member[];
  events?: Described[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
interface Module {
  path: string;
  declarations?: (ElementDecl | Described)[];
  exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
}

let modules: Module[];
let element: ElementDecl;
let elementModule: Module;
let sources: string;
let pkg: { customElements?: string };

const has = (d: Described) => Boolean((d.description ?? d.summary ?? '').trim());
const undocumented = (items: Described[] | undefined) => (items ?? []).filter((i) => !has(i)).map((i) => i.name);

before(async () => {
  const file = join(root, 'dist', 'custom-elements.json');
  if (!existsSync(file)) throw new Error('dist/custom-elements.json is missing: run `npm run build` first (npm test does it)');
  modules = (JSON.parse(await readFile(file, 'utf8')) as { modules: Module[] }).modules;
  for (const m of modules) {
    for (const d of m.declarations ?? []) {
      if ((d as ElementDecl).customElement && d.name === 'PaydeskCheckout') {
        element = d as ElementDecl;
        elementModule = m;
      }
    }
  }
  const dir = join(root, 'src', 'element');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
  sources = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
  pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { customElements?: string };
});

describe('custom-elements.json', () => {
  test('package.json points at it', () => {
    assert.equal(pkg.customElements, 'dist/custom-elements.json');
  });

  test('describes PaydeskCheckout as <paydesk-checkout>, registered by the define module, with dist paths', () => {
    assert.ok(element, 'the manifest has the PaydeskCheckout custom element');
    assert.equal(element.tagName, 'paydesk-checkout');
    assert.ok(has(element), 'the class has a description');
    assert.equal(elementModule.path, 'dist/element/paydesk-checkout.js');
    const definitions = modules.flatMap((m) => (m.exports ?? []).filter((e) => e.kind === 'custom-element-definition'));
    assert.deepEqual(
      definitions.map((d) => [d.name, d.declaration.name, d.declaration.module]),
      [['paydesk-checkout', 'PaydeskCheckout', 'dist/element/paydesk-checkout.js']],
    );
    for (const m of modules) assert.match(m.path, /^dist\/.*\.js$/, `${m.path} is a dist path`);
  });

  test('every attribute in the source is in the manifest, each with a description', () => {
    // Reactive properties, as `@property({…}) name` decorators or `static properties = { name: {…} }`:
    // attribute = `attribute: '…'`, else the lower-cased name; `attribute: false` and `state: true` have none.
    const declared: [name: string, options: string][] = [
      ...[...sources.matchAll(/@property\(([^)]*)\)\s*(?:(?:public|override|declare|readonly)\s+)*(\w+)/g)].map(
        (m): [string, string] => [m[2]!, m[1] ?? ''],
      ),
      ...[...sources.matchAll(/static\s+(?:override\s+)?properties\s*(?::[^=]+)?=\s*{([\s\S]*?)\n\s*};/g)].flatMap((block) =>
        [...block[1]!.matchAll(/(\w+)\s*:\s*{([^}]*)}/g)].map((m): [string, string] => [m[1]!, m[2] ?? '']),
      ),
    ];
    const expected = new Set<string>();
    for (const [name, opts] of declared) {
      if (/attribute:\s*false|state:\s*true/.test(opts)) continue;
      expected.add(/attribute:\s*['"]([^'"]+)['"]/.exec(opts)?.[1] ?? name.toLowerCase());
    }
    assert.ok(expected.size > 0, 'the source declares attributes');
    const documented = new Set((element.attributes ?? []).map((a) => a.name));
    assert.deepEqual([...expected].filter((a) => !documented.has(a)), [], 'attributes missing from the manifest');
    assert.deepEqual(undocumented(element.attributes), [], 'attributes without a description');
  });

  test('every public property and method has a description', () => {
    const publicMembers = (element.members ?? []).filter((m) => !m.static && (m.privacy ?? 'public') === 'public');
    assert.ok(publicMembers.length > 0);
    assert.deepEqual(undocumented(publicMembers), []);
  });

  test('every event of PaydeskEventMap is documented', () => {
    const map = /interface PaydeskEventMap\s*{([^}]*)}/.exec(sources)?.[1] ?? '';
    const events = [...map.matchAll(/'(paydesk-[a-z-]+)'/g)].map((m) => m[1]!);
    assert.ok(events.length > 0, 'PaydeskEventMap lists events');
    assert.deepEqual((element.events ?? []).map((e) => e.name).sort(), [...events].sort());
    assert.deepEqual(undocumented(element.events), []);
  });

  test('every CSS part used in a template is documented, and only those', () => {
    const used = new Set([...sources.matchAll(/\bpart="([^"$]+)"/g)].flatMap((m) => m[1]!.trim().split(/\s+/)));
    assert.ok(used.size > 0, 'the templates expose parts');
    assert.deepEqual((element.cssParts ?? []).map((p) => p.name).sort(), [...used].sort());
    assert.deepEqual(undocumented(element.cssParts), []);
  });

  test('every --paydesk-* custom property the styles read is documented, and only those', () => {
    const used = new Set([...sources.matchAll(/var\(\s*(--paydesk-[a-z0-9-]+)/g)].map((m) => m[1]!));
    assert.ok(used.size > 0, 'the styles read custom properties');
    assert.deepEqual((element.cssProperties ?? []).map((p) => p.name).sort(), [...used].sort());
    assert.deepEqual(undocumented(element.cssProperties), []);
  });

  test('every slot in a template is documented (and none that does not exist)', () => {
    const used = new Set([...sources.matchAll(/<slot(?:\s+name="([^"]+)")?/g)].map((m) => m[1] ?? ''));
    assert.deepEqual(
      (element.slots ?? []).map((s) => s.name).sort(),
      [...used].sort(),
      'slots in the manifest = <slot> elements in the templates',
    );
    assert.deepEqual(undocumented(element.slots), []);
  });
});
