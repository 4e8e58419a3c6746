/**
 * The sandbox's state on disk (`createSandbox({ stateFile })`, `--state-file PATH`), so a restart of
 * the demo loses nothing: every terminal's settings and data (orders, form sessions, disputes with
 * their receipts, transactions, balances, webhook log), the clock's offset and the secrets. Pending
 * webhook retries are dropped (their log entries read `cancelled`).
 *
 * Written atomically (a temp file, fsync, rename, fsync of the folder), so after a `kill -9` or a
 * power cut at any moment the file is the last complete save. The app answers a request only once
 * the file holds what the request changed ({@link StateFileWriter.durable}: the requests of one
 * moment share one write), and a webhook goes out only once the change it reports is in the file;
 * changes no request made (expiry sweeps, webhook attempts) are saved a moment later, and on close.
 * Receipts go once each into `<stateFile>.files/`. Read on start; a file that cannot be read is a
 * {@link SandboxStateError} naming the problem, and nothing is overwritten. One sandbox per file.
 */
export { SandboxStateError, STATE_FORMAT, STATE_VERSION, type PersistedState, type PersistedTerminal } from './state-format.js';
export { identityOf, mergeSettings, readState, restoreData } from './state-read.js';
export { createStateWriter, filesDirOf, writeAtomically, type StateFileWriter } from './state-write.js';
