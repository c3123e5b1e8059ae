// A request's body collected up to a limit, for the CLI's local servers (serve, mcp wrap, otlp): past the limit the
// bytes are dropped as they come (never buffered) and the request is refused once; the rest is read and let go.
import type { IncomingMessage } from 'node:http';

export function collectBody(req: IncomingMessage, limit: number, over: () => void, whole: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > limit) {
      refused = true;
      chunks.length = 0;
      over();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!refused) whole(Buffer.concat(chunks));
  });
}
