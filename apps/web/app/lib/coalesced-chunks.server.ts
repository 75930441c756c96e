import { Transform, type TransformCallback } from 'node:stream';

/**
 * The document's chunks written in one turn of the event loop, sent on as one chunk
 * (docs/architecture.md "Performance"). React writes its HTML in pieces of about 2 KB, and React
 * Router's Express adapter flushes the response after every piece it reads, so the compression
 * middleware would close a compressed block (and the socket take a write) for every piece: 18
 * times for a product page, 3 once joined. React writes everything that is ready in one go, so
 * joining what arrives before the next turn keeps the streaming (the shell now, each suspended
 * part when it resolves) with a flush per part instead of per piece.
 */
export function coalescedChunks(): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const send = (stream: Transform) => {
    scheduled = false;
    if (pending.length === 0) return;
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    stream.push(joined);
  };
  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      pending.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => send(stream));
      }
      done();
    },
    flush(done: TransformCallback) {
      send(stream);
      done();
    },
  });
  return stream;
}
