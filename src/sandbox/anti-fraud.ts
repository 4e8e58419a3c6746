/**
 * Anti-fraud by `user_id` (provider-api.md: "blocks mass requests by one user"): a user may hold a
 * limited number of unpaid orders plus open form sessions that have no order yet.
 */
import { isFinalSessionState } from './session-states.js';
import type { OrderRecord, SessionRecord } from './records.js';
import type { Terminal } from './terminal.js';

export function trackUser(terminal: Terminal, userId: string, item: OrderRecord | SessionRecord): void {
  let set = terminal.data.byUser.get(userId);
  if (!set) terminal.data.byUser.set(userId, (set = new Set()));
  set.add(item);
}

/** Unpaid orders plus open form sessions that have no order yet, of one user (finished ones are pruned). */
export function openItemsOfUser(terminal: Terminal, userId: string): number {
  const set = terminal.data.byUser.get(userId);
  if (!set) return 0;
  let open = 0;
  for (const item of set) {
    if ('method' in item) {
      if (item.status === 'Unpaid') open++;
      else set.delete(item);
    } else if (isFinalSessionState(item.state) || item.order !== null) {
      set.delete(item); // finished, or counted through its order
    } else {
      open++;
    }
  }
  if (set.size === 0) terminal.data.byUser.delete(userId);
  return open;
}
