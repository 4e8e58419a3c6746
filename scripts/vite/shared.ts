/** What the CDN build's plugins (vite.config.ts) share: where the files go, and a node of a parsed program. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is scripts/vite/shared.ts). */
export const root = fileURLToPath(new URL('../../', import.meta.url));
export const CDN_DIR = join(root, 'dist', 'cdn');
/** Where the lazy chunks go, relative to paydesk.js. */
export const CHUNK_DIR = 'chunks';
/** Where the classic script's copies of the chunks and the module that hands out its own go. */
export const CLASSIC_DIR = 'classic';

/** A node of a program parsed by `this.parse` (ESTree, with offsets into the text). */
export type Node = { type: string; start: number; end: number; [k: string]: unknown };
