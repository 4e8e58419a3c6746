/** The demo console's password when none is given: printed at start. */
import { randomInt } from 'node:crypto';

/** A readable random password for the demo console, e.g. `demo-k3v9-q2tx-8mzn`. */
export function randomConsolePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < 12; i++) {
    s += alphabet[randomInt(alphabet.length)];
    if (i % 4 === 3 && i < 11) s += '-';
  }
  return `demo-${s}`;
}
