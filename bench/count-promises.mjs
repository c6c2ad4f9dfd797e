// Preloaded (`node --import ./bench/count-promises.mjs`) by bench/relay.mjs under BENCH_PROMISES=1:
// counts the promises the process creates and the upstream calls it makes (undici requests), and
// prints both totals to stderr on SIGUSR2. The count does not depend on how busy the machine is, so
// it shows a change in the work of a call where CPU figures on these noisy machines cannot; the
// hook slows the process, so CPU figures of such a run mean nothing.
import { createHook } from 'node:async_hooks';

let promises = 0;
let upstreamCalls = 0;
createHook({
  init(_id, type) {
    if (type === 'PROMISE') promises++;
    else if (type === 'UNDICI_REQUEST') upstreamCalls++;
  },
}).enable();
process.on('SIGUSR2', () => process.stderr.write(`promise-count ${promises} ${upstreamCalls}\n`));
