import { loadConfig, ConfigError } from './config.js';
import { buildGateway } from './app.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const gateway = await buildGateway(config);
  const address = await gateway.app.listen({ port: config.port, host: config.host });
  console.log(`gateway listening on ${address} (database: ${gateway.ctx.dbKind})`);
  const shutdown = async () => {
    await gateway.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
