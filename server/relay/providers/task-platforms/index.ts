/**
 * Task platforms: Midjourney-proxy (2, 5) and Suno (36). They are not relayed per request — the
 * task code in server/tasks/ submits, polls and refunds — so they serve no relay endpoint; their
 * definitions give the address and credentials those calls use.
 */
import type { ProviderDefinition } from '../types.js';

export function taskPlatform(name: string, auth: (key: string) => Record<string, string>): ProviderDefinition {
  return {
    name,
    protocol: 'task',
    streamUsageOption: false,
    supports: () => false,
    target: (channel) => ({ url: (channel.base_url ?? '').replace(/\/+$/, ''), headers: auth(channel.key) }),
  };
}

export const midjourneyProxy = taskPlatform('Midjourney Proxy', (key) => ({ 'mj-api-secret': key }));
export const suno = taskPlatform('Suno', (key) => ({ authorization: `Bearer ${key}` }));
