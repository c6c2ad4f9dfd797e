import { loadConfig, ConfigError } from './config.js';
import { buildGateway } from './app.js';

async function main(): Promise<void> {
  let config;
  let gateway;
  try {
    config = loadConfig();
    gateway = await buildGateway(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const address = await gateway.app.listen({ port: config.port, host: config.host });
  console.log(`gateway listening on ${address} (database: ${gateway.ctx.dbKind})`);
  // New requests get a 503 while calls in flight (streams too) finish, up to SHUTDOWN_TIMEOUT; then
  // the rest are cut, and billed for what they delivered, before the last log batch is written.
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(() => gateway.app.server.closeAllConnections(), config.shutdownTimeoutMs);
    try {
      await gateway.close();
    } finally {
      clearTimeout(deadline);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
