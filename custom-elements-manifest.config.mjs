/**
 * Custom elements manifest (`custom-elements.json`) of <paydesk-checkout>, written by `npm run build`
 * with `cem analyze --litelement --config custom-elements-manifest.config.mjs`.
 *
 * The analyzer reads the TypeScript sources (the JSDoc `@fires`, `@slot`, `@csspart`, `@cssprop` tags
 * and the Lit `@property` decorators); the package ships the compiled `dist/` files, so the plugin below
 * rewrites every module path from `src/x.ts` to `dist/x.js`, the file an importer actually gets.
 */
export default {
  globs: ['src/index.ts', 'src/element/**/*.ts'],
  exclude: ['src/**/*.test.ts', 'src/**/*.d.ts'],
  outdir: 'dist',
  litelement: true,
  // Never let the analyzer rewrite package.json (its `customElements` field is set by hand).
  packagejson: false,
  plugins: [defineCalls(), distPaths()],
};

/**
 * Tag names registered through a constant: `registry.define(TAG, PaydeskCheckout)` with
 * `const TAG = 'paydesk-checkout'` in the same file (the analyzer only sees string literals). Adds the
 * `custom-element-definition` export to the defining module and `tagName` to the class.
 */
function defineCalls() {
  const found = []; // { tagName, className, modulePath }
  return {
    name: 'paydesk-define-calls',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isCallExpression(node) || node.arguments.length < 2) return;
      const callee = node.expression;
      if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'define') return;
      const [tagArg, classArg] = node.arguments;
      if (!ts.isIdentifier(tagArg) || !ts.isIdentifier(classArg)) return;
      let tagName;
      const findConst = (n) => {
        if (tagName) return;
        if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === tagArg.text && n.initializer && ts.isStringLiteral(n.initializer)) {
          tagName = n.initializer.text;
        }
        ts.forEachChild(n, findConst);
      };
      findConst(node.getSourceFile());
      if (!tagName || !/^[a-z][a-z0-9]*-[a-z0-9-]*$/.test(tagName)) return;
      found.push({ tagName, className: classArg.text, modulePath: moduleDoc.path });
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const { tagName, className, modulePath } of found) {
        const classModule = customElementsManifest.modules.find((m) =>
          (m.declarations ?? []).some((d) => d.kind === 'class' && d.customElement && d.name === className),
        );
        const defining = customElementsManifest.modules.find((m) => m.path === modulePath);
        if (!classModule || !defining) continue;
        const decl = classModule.declarations.find((d) => d.name === className);
        decl.tagName ??= tagName;
        defining.exports ??= [];
        if (!defining.exports.some((e) => e.kind === 'custom-element-definition' && e.name === tagName)) {
          defining.exports.push({ kind: 'custom-element-definition', name: tagName, declaration: { name: className, module: classModule.path } });
        }
      }
    },
  };
}

/** `src/element/x.ts` → `dist/element/x.js` in module paths and in references between modules. */
function distPaths() {
  const toDist = (p) => (typeof p === 'string' ? p.replace(/^(\.\/)?src\//, 'dist/').replace(/\.ts$/, '.js') : p);
  const fix = (node) => {
    if (Array.isArray(node)) return node.forEach(fix);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'path' || key === 'module') && typeof value === 'string') node[key] = toDist(value);
      else fix(value);
    }
  };
  return {
    name: 'paydesk-dist-paths',
    packageLinkPhase({ customElementsManifest }) {
      fix(customElementsManifest.modules);
    },
  };
}
