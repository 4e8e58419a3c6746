/** The specifiers of a built module's static imports (`import … from "x"`, `import "x"`, `export … from "x"`). */
export declare const staticImports: (code: string) => string[];
