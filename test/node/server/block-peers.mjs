// Module hooks for a child process: fail loudly if anything resolves "pg" or "node:test" (neither may
// load with paydesk/server: pg is an optional peer, node:test belongs to paydesk/server/testing only).
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'pg' || specifier.startsWith('pg/')) throw new Error('pg was loaded');
  if (specifier === 'node:test' || specifier === 'test') throw new Error('node:test was loaded');
  return next(specifier, context);
}`));
