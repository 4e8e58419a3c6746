/**
 * The in-process half of a store's publish/subscribe: the listeners of this process by channel, and
 * the delivery of one message to them. Each store brings the rest (the memory store nothing, SQLite
 * its events table, Redis its SUBSCRIBE connection).
 */

export type Listener = (message: string) => void;

export class FanOut {
  private readonly channels = new Map<string, Set<Listener>>();

  /**
   * Adds `listener` to `channel`; the same function added twice is two subscriptions. Returns its
   * removal, which answers whether that removal left the channel without listeners (a second call
   * removes nothing and answers false).
   */
  add(channel: string, listener: Listener): () => boolean {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    const wrapped: Listener = (m) => listener(m);
    set.add(wrapped);
    return () => {
      const s = this.channels.get(channel);
      if (!s || !s.delete(wrapped)) return false;
      if (s.size > 0) return false;
      this.channels.delete(channel);
      return true;
    };
  }

  /**
   * Gives `message` to every listener `channel` has now, each in its own microtask: never inside the
   * publisher's call, and a listener's failure is its own (the others still get the message).
   */
  deliver(channel: string, message: string): void {
    const set = this.channels.get(channel);
    if (!set) return;
    for (const listener of [...set]) {
      queueMicrotask(() => {
        try {
          listener(message);
        } catch {
          // A listener's failure is its own; the others still get the message.
        }
      });
    }
  }

  /** Number of channels with listeners. */
  get channelCount(): number {
    return this.channels.size;
  }

  /** Drops every listener (a closed store). */
  clear(): void {
    this.channels.clear();
  }
}
