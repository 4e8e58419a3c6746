// One reading of a built module's static imports, for the build's checks (scripts/build.mjs), the
// size and integrity tests and bench/sizes.ts: `import … from "x"`, `import "x"` and
// `export … from "x"`, never `import("x")`.

/** The specifiers of a built module's static imports (re-exports included). */
export const staticImports = (code) =>
  [...code.matchAll(/\b(?:import|export)\s*(?:[\w$*{][^;]*?\bfrom\s*)?["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
