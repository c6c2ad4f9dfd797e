import type { Bus } from '../cache/bus.js';
import { publishSubscriptionChange } from '../subscriptions/cache.js';
import { publishUserChange } from '../users/user-cache.js';

/**
 * After an order is paid, every process reads the user again: a top-up changed their balance, a
 * plan their subscriptions and perhaps their group.
 */
export function publishOrderPaid(bus: Bus, userId: number): void {
  publishUserChange(bus, userId);
  publishSubscriptionChange(bus, userId);
}
