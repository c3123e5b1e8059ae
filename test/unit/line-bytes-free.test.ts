// The read buffer of a sliced file lets go of its memory at once (line-bytes.ts freeNow): a buffer it grew out of,
// its bytes when the file is done or checked another way, and buffers that come back after that. Without it the
// memory waits for the main thread's next full collection (one-session traces: 18 MB for the rest of the run).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeNow, LineBytes } from '../../src/cli/line-bytes';

const MB = 1 << 20;

function lines(n: number, width: number): Uint8Array {
  const line = 'x'.repeat(width - 1) + '\n';
  return new TextEncoder().encode(line.repeat(n));
}

describe('LineBytes frees what it lets go of', () => {
  it('freeNow detaches a buffer and its memory leaves this thread at once', () => {
    const buffer = new ArrayBuffer(32 * MB);
    new Uint8Array(buffer).fill(1);
    const before = process.memoryUsage().arrayBuffers;
    freeNow(buffer);
    assert.equal(buffer.byteLength, 0, 'detached');
    const drop = before - process.memoryUsage().arrayBuffers;
    assert.ok(drop >= 31 * MB, `freed at once (${(drop / MB).toFixed(1)} MB)`);
    assert.doesNotThrow(() => freeNow(buffer), 'a detached buffer again: nothing to do, no error');
  });

  it('cuts the same bytes while it grows, reuses a buffer that came back, and frees everything on release', () => {
    const held = new LineBytes();
    const piece = lines(1000, 1000); // ~1 MB a piece: the 2 MB buffer grows twice
    for (let i = 0; i < 5; i++) held.push(piece);
    assert.equal(held.size, 5 * piece.length);
    const first = held.cutAt(piece.length);
    assert.deepEqual(first, piece);
    held.recycle(first.buffer as ArrayBuffer);
    const again = held.cutAt(piece.length);
    assert.equal(again.buffer, first.buffer, 'the buffer that came back is filled again');
    assert.deepEqual(again, piece);
    const rest = held.rest();
    assert.equal(rest.length, 3 * piece.length);
    const before = process.memoryUsage().arrayBuffers;
    held.release();
    assert.ok(before - process.memoryUsage().arrayBuffers >= 7.5 * MB, 'its 8 MB buffer freed at once');
    assert.equal(rest.length, 3 * piece.length, 'what was cut out and handed on is untouched');
    const late = new ArrayBuffer(MB);
    held.recycle(late);
    assert.equal(late.byteLength, 0, 'a buffer that comes back after release is freed, not kept');
  });
});
