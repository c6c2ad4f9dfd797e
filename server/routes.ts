import type { FastifyInstance } from 'fastify';
import statusRoutes from './status/routes.js';
import optionRoutes from './options/routes.js';
import oidcDiscoveryRoutes from './options/oidc-discovery.js';
import accountRoutes from './accounts/routes.js';
import emailBindRoutes from './accounts/email-bind.js';
import oauthRoutes from './oauth/routes.js';
import userSelfRoutes from './users/self-routes.js';
import userAdminRoutes from './users/admin-routes.js';
import tokenRoutes from './tokens/routes.js';
import channelRoutes from './channels/routes.js';
import relayRoutes from './relay/routes.js';
import claudeRoutes from './relay/claude-routes.js';
import geminiRoutes from './relay/gemini-routes.js';
import logRoutes from './logs/routes.js';
import channelHealthRoutes from './channels/health-routes.js';
import realtimeRoutes from './relay/realtime.js';
import taskRelayRoutes from './tasks/relay-routes.js';
import taskRoutes from './tasks/routes.js';
import redemptionRoutes from './redemptions/routes.js';
import topupRoutes from './topup/routes.js';
import pricingRoutes from './pricing/routes.js';
import opsRoutes from './ops/routes.js';

/** Every route module of the gateway, in one list. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(statusRoutes);
  await app.register(optionRoutes);
  await app.register(oidcDiscoveryRoutes);
  await app.register(accountRoutes);
  await app.register(emailBindRoutes);
  await app.register(oauthRoutes);
  await app.register(userSelfRoutes);
  await app.register(userAdminRoutes);
  await app.register(tokenRoutes);
  await app.register(channelRoutes);
  await app.register(channelHealthRoutes);
  await app.register(logRoutes);
  await app.register(relayRoutes);
  await app.register(claudeRoutes);
  await app.register(geminiRoutes);
  await app.register(realtimeRoutes);
  await app.register(taskRelayRoutes);
  await app.register(taskRoutes);
  await app.register(redemptionRoutes);
  await app.register(topupRoutes);
  await app.register(pricingRoutes);
  await app.register(opsRoutes);
}
