// Items sent again as they change (a Codex exec item, a Cursor Agent tool event, an Assistants run step, a Realtime
// conversation item): the first copy of an item is the call, its completed copy the outcome. One home for telling
// which copy is which, so that a call and its result are each read once.

export class ItemLifecycle {
  private readonly called = new Set<string>();
  private readonly ended = new Set<string>();

  /** Whether this copy of item `id` is its call: the first copy met. An item without an id cannot be met again. */
  isCall(id: string | undefined): boolean {
    return firstTime(this.called, id);
  }

  /** Whether this completed copy of item `id` is its outcome: the first completed copy met. */
  isOutcome(id: string | undefined): boolean {
    return firstTime(this.ended, id);
  }
}

function firstTime(seen: Set<string>, id: string | undefined): boolean {
  if (id === undefined) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  return true;
}
