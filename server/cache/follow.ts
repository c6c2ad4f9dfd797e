import type { Bus } from './bus.js';

/**
 * How a process keeps a cache of database rows current: reloaded when any process announces a
 * change on one of `topics` (bus.ts), and every `everySeconds` in case a message was lost. A
 * reload that fails waits for the next turn (the cache keeps what it had). Returns the function
 * that stops both.
 */
export function followReloads(
  bus: Bus,
  topics: readonly string[],
  everySeconds: number,
  reload: () => Promise<unknown>,
): () => void {
  let stopped = false;
  const run = () => {
    if (!stopped) reload().catch(() => undefined);
  };
  for (const topic of topics) bus.on(topic, run);
  const timer = setInterval(run, everySeconds * 1000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
