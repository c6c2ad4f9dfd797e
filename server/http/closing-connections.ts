/**
 * How the server lets go of its connections when it closes, so that a graceful shutdown ends when
 * the last call in flight does, not at SHUTDOWN_TIMEOUT:
 * - a connection a client opened and never sent a request on (a browser's preconnect, a pool's
 *   spare socket) counts for Node as one with a request under way: it is dropped with the idle ones;
 * - a keep-alive connection whose answer finishes after the close began turns idle and its client
 *   keeps it: idle connections are dropped as they appear until the server has closed.
 * Requests that arrive meanwhile are answered 503 with `Connection: close` (Fastify's own).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const SWEEP_MS = 100;

export function releaseConnectionsOnClose(server: Server): void {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  const release = () => {
    closeIdle();
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  let sweep: NodeJS.Timeout | null = null;
  // Node calls this as the server stops listening, in the same turn: no connection comes after it.
  server.closeIdleConnections = () => {
    release();
    if (sweep) return;
    sweep = setInterval(release, SWEEP_MS).unref();
    server.once('close', () => clearInterval(sweep!));
  };
}
