// One reading of a built module's static imports, for the build's checks (scripts/build.mjs), the
// classic script's build (vite.config.ts) and the size test: `import … from "x"`, `import "x"` and
// `export … from "x"`, never `import("x")`.

/** The specifiers of a built module's static imports (re-exports included). */
export const staticImports = (code) =>
  [...code.matchAll(/\b(?:import|export)\s*(?:[\w$*{][^;]*?\bfrom\s*)?["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
