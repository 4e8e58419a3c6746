/** What each resource module of the client works with (client.ts makes one per client). */
import type { Create } from './create-once.js';
import type { Resolved } from './options.js';
import type { Transport } from './transport.js';
import type { ProviderClientOptions, RequestOptions } from './types.js';

export interface ClientContext {
  /** A read, retried (transport.ts). */
  read: Transport['read'];
  /** A create, sent once (create-once.ts). */
  create: Create;
  /** One request's settings from its options. */
  resolve(opts: RequestOptions | undefined): Resolved;
  /** The terminal's integration type, when the caller said it. */
  integrationType: ProviderClientOptions['integrationType'];
}
