// Module hooks for a child process: fail loudly if anything resolves the "ioredis" package.
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'ioredis' || specifier.startsWith('ioredis/')) throw new Error('ioredis was loaded');
  return next(specifier, context);
}`));
