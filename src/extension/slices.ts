// Work done on the extension host in slices of a few milliseconds of time (not of items: a busy machine makes an item
// cost ten times as much), yielding to the event loop in between, so that no feature holds the host for long.
import { yieldToLoop } from '../core';

export class Slices {
  private since = Date.now();
  private count = 0;

  constructor(private readonly budgetMs = 8) {}

  /** Call once per item: yields when the slice's time is spent (the clock is read every 32 items). */
  async pass(): Promise<void> {
    if (++this.count % 32 || Date.now() - this.since < this.budgetMs) return;
    await yieldToLoop();
    this.since = Date.now();
  }
}
