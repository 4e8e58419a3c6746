/** One call of the provider API as the client's modules pass it around, and what came back. */
import type { EndpointKind } from './errors.js';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  kind: EndpointKind;
  query?: URLSearchParams;
  /** A JSON body (serialised when sent) … */
  body?: unknown;
  /** … or a ready one with its type (multipart). */
  raw?: { contentType: string; bytes: Uint8Array };
}

/** One HTTP answer, whole. */
export interface Exchange {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/** How messages and errors name a call: `POST /api/v1/order/`. */
export const label = (call: Call): string => `${call.method} ${call.path}`;
