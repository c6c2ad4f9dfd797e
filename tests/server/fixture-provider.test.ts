/**
 * The provider promise: a channel type declared only by its provider's manifest, added as one line
 * of providers/channel-types.ts, is listed with its models, accepted for a channel and relayed
 * through — no channel table, check or provider registry touched.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { must } from '../helpers/gateway.js';

const ACME = 900;

// The one line of the registry.
vi.mock('../../server/relay/providers/channel-types.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/relay/providers/channel-types.js')>();
  const { acmeType } = await import('../fixtures/provider-acme/channel-type.js');
  return { CHANNEL_TYPES: { ...real.CHANNEL_TYPES, 900: acmeType } };
});

let f: RelayFixture;
beforeAll(async () => {
  f = await startRelayFixture('sqlite');
});
afterAll(() => f?.close());

describe('a provider declared only by its manifest', () => {
  it('is offered with its default models', async () => {
    const models = must<Record<string, string[]>>(await f.root.get('/api/models'), 'type models');
    expect(models[String(ACME)]).toEqual(['gpt-4o-mini', 'acme-large']);
  });

  it('takes channels and relays their calls through the compatible base', async () => {
    // Above the fixture's own channel, so the call can only go to the new type's.
    const id = await f.addChannel({ type: ACME, name: 'acme', models: 'gpt-4o-mini', priority: 10 });
    const answer = await f.openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.choices[0]?.message.content).toBeTruthy();
    expect((await f.lastLog()).channel_id).toBe(id);
  });

  it('refuses a channel of a type nobody declared', async () => {
    const res = await f.root.post('/api/channel/', { type: 901, name: 'nobody', key: 'k', models: 'm', group: 'default' });
    expect(res.body.success).toBe(false);
  });
});
