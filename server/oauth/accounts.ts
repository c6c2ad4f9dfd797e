/**
 * What a verified third-party identity does to our users: binds to the signed-in user, logs in
 * the live user it is bound to, or signs a new user up (when registration is open) with the
 * provider's login as username, its name and e-mail, the invitation code and the same rewards as
 * a password registration. One identity is handled by one request at a time, across processes.
 */
import { randomBytes } from 'node:crypto';
import type { GatewayContext } from '../context.js';
import type { Db } from '../db/index.js';
import type { User } from '../db/types.js';
import { USER_ENABLED } from '../auth/roles.js';
import { fail } from '../http/errors.js';
import { bindProviderId, findBoundUser } from '../users/identity-repository.js';
import { findUserById, isUsernameTaken } from '../users/repository.js';
import { isUniqueViolation } from '../db/errors.js';
import { publishUserChange } from '../users/user-cache.js';
import { createAccount } from '../accounts/register.js';
import { emailRuleViolation, emailTaken, isValidEmail, normaliseEmail } from '../accounts/email-rules.js';
import { PROVIDERS, type Identity, type ProviderKey } from './providers.js';

/** The registration form's username limit (server/accounts/register.ts). */
const USERNAME_MAX = 12;
const DISPLAY_NAME_MAX = 64;
const NAME_ATTEMPTS = 6;
const LOCK_SECONDS = 30;

/**
 * Where an identity of one provider is kept: a column of the user row for the built-in providers,
 * a binding row for the custom ones.
 */
export interface IdentitySlot {
  /** Names the provider in locks and in usernames made up for it. */
  key: string;
  label: string;
  /** Width of the stored id: a longer id is refused rather than cut. */
  maxIdLength: number;
  findHolder(db: Db, id: string): Promise<User | undefined>;
  bind(db: Db, userId: number, id: string): Promise<void>;
  /** False when the provider may log people in but not sign new ones up. */
  mayRegister?: boolean;
}

export function builtinSlot(provider: ProviderKey): IdentitySlot {
  const { label, maxIdLength, column } = PROVIDERS[provider];
  return {
    key: provider,
    label,
    maxIdLength,
    findHolder: (db, id) => findBoundUser(db, column, id),
    bind: (db, userId, id) => bindProviderId(db, userId, column, id),
  };
}

function checkIdentity(slot: IdentitySlot, identity: Identity): void {
  if (!identity.id) throw fail('oauth.no_user_id', { provider: slot.label });
  if (identity.id.length > slot.maxIdLength) throw fail('oauth.user_id_too_long', { provider: slot.label });
}

/** Runs `fn` while holding the identity: a second request for it at the same moment is refused. */
async function holdingIdentity<T>(ctx: GatewayContext, slot: IdentitySlot, id: string, fn: () => Promise<T>): Promise<T> {
  const key = `oauth:lock:${slot.key}:${id}`;
  if (!(await ctx.kv.setIfAbsent(key, '1', LOCK_SECONDS))) throw fail('oauth.busy');
  try {
    return await fn();
  } finally {
    await ctx.kv.delete(key);
  }
}

/** Binds the identity to `user`; refused when another live user holds it. Returns the updated user. */
export async function bindIdentity(
  ctx: GatewayContext,
  user: User,
  provider: ProviderKey | IdentitySlot,
  identity: Identity,
): Promise<User> {
  const slot = typeof provider === 'string' ? builtinSlot(provider) : provider;
  checkIdentity(slot, identity);
  if (user.status !== USER_ENABLED) throw fail('auth.user_banned');
  return holdingIdentity(ctx, slot, identity.id, async () => {
    const holder = await slot.findHolder(ctx.db, identity.id);
    if (holder && holder.id !== user.id) throw fail('oauth.bound_elsewhere', { provider: slot.label });
    await slot.bind(ctx.db, user.id, identity.id);
    publishUserChange(ctx.bus, user.id);
    const updated = await findUserById(ctx.db, user.id);
    if (!updated) throw fail('user.not_found');
    return updated;
  });
}

/** The user to start a session for: the one bound to the identity, or a new one. */
export async function signInWith(
  ctx: GatewayContext,
  provider: ProviderKey | IdentitySlot,
  identity: Identity,
  affCode: string,
): Promise<User> {
  const slot = typeof provider === 'string' ? builtinSlot(provider) : provider;
  checkIdentity(slot, identity);
  return holdingIdentity(ctx, slot, identity.id, async () => {
    const bound = await slot.findHolder(ctx.db, identity.id);
    if (bound) {
      if (bound.status !== USER_ENABLED) throw fail('auth.user_banned');
      return bound;
    }
    if (!ctx.options.bool('RegisterEnabled')) throw fail('account.registration_closed');
    if (slot.mayRegister === false) throw fail('oauth.auto_register_disabled', { provider: slot.label });
    const userId = await registerIdentity(ctx, slot, identity, affCode);
    const created = await findUserById(ctx.db, userId);
    if (!created) throw fail('user.not_found');
    return created;
  });
}

const codePoints = (s: string, max: number) => [...s].slice(0, max).join('');

/** The provider's login as a username: no blanks or control characters, at most 12 characters. */
export function usernameBase(login: string): string {
  return codePoints(login.replace(/[\p{Cc}\s]/gu, ''), USERNAME_MAX);
}

/** `base` shortened to leave room for `_` and four random hex digits. */
function withSuffix(base: string): string {
  return `${codePoints(base, USERNAME_MAX - 5)}_${randomBytes(2).toString('hex')}`;
}

/** The provider's address when it is usable here: valid, allowed by the admin's rules and not held by anyone. */
async function usableEmail(ctx: GatewayContext, raw: string): Promise<string> {
  const email = normaliseEmail(raw);
  if (!email || !isValidEmail(email) || emailRuleViolation(ctx.options, email)) return '';
  return (await emailTaken(ctx.db, email)) ? '' : email;
}

async function registerIdentity(ctx: GatewayContext, slot: IdentitySlot, identity: Identity, affCode: string): Promise<number> {
  const base = usernameBase(identity.login);
  const email = await usableEmail(ctx, identity.email);
  for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
    // The login itself first; a provider without logins (WeChat) gets its name plus a suffix.
    const username = attempt === 0 && base ? base : withSuffix(base || slot.key);
    if (await isUsernameTaken(ctx.db, username)) continue;
    const displayName = codePoints(identity.displayName || identity.login || username, DISPLAY_NAME_MAX);
    try {
      return await createAccount(
        ctx,
        // Nobody knows this password: the person signs in through the provider (or resets it by e-mail).
        { username, password: randomBytes(24).toString('base64url'), email, display_name: displayName, aff_code: affCode },
        (trx, userId) => slot.bind(trx, userId, identity.id),
      );
    } catch (err) {
      // Someone took the name (or the invitation code) in the meantime: try another.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw fail('oauth.no_username');
}
