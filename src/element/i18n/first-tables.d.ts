/** `./<lang>.js?first`: the first paint's part of a language table, a chunk the CDN build cuts (first.ts). */
declare module '*?first' {
  const table: import('./index.js').Table;
  export default table;
  /** Loads the whole table (the CDN build; absent where the first-paint table is the whole one). */
  export const whole: (() => Promise<unknown>) | undefined;
}
