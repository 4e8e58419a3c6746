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
  plugins: [distPaths()],
};

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
