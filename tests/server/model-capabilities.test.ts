import { describe, expect, it } from 'vitest';
import { capabilitiesOf, capabilityOverridesError } from '../../server/relay/wire/model-capabilities.js';

// The capability table: the longest family prefix wins, vendor paths are ignored, and an admin's
// entry changes only the fields it names (or describes a model the table does not know).
describe('model capabilities', () => {
  it('knows the families by their longest prefix', () => {
    expect(capabilitiesOf('gpt-5-mini')).toMatchObject({ reasons: true, tokenField: 'max_completion_tokens' });
    expect(capabilitiesOf('gpt-5-chat-latest')).toMatchObject({ reasons: false, thinking: 'none' });
    expect(capabilitiesOf('openai/o1-mini')).toMatchObject({ reasons: true, thinking: 'none' });
    expect(capabilitiesOf('claude-sonnet-4-5-20250929')).toMatchObject({ oneSampler: true, thinking: 'budget' });
    expect(capabilitiesOf('claude-sonnet-4-20250514')).toMatchObject({ oneSampler: false, outputLimit: 64000 });
    expect(capabilitiesOf('gemini-2.0-flash')?.thinking).toBe('none');
    expect(capabilitiesOf('deepseek-chat')).toBeNull();
  });

  it('takes the admin’s entries over the built-in ones', () => {
    const overrides = { 'gpt-4.1': { outputLimit: 1000 }, 'my-reasoner': { reasons: true, sampling: [] } };
    expect(capabilitiesOf('gpt-4.1-mini', overrides)).toMatchObject({ outputLimit: 1000, thinking: 'none' });
    expect(capabilitiesOf('my-reasoner-v2', overrides)).toMatchObject({ reasons: true, sampling: [], outputLimit: null });
  });

  it('refuses entries that would silently do nothing', () => {
    expect(capabilityOverridesError('{"gpt-x":{"reasons":true}}')).toBeNull();
    expect(capabilityOverridesError('[]')).toBe('not a JSON object');
    expect(capabilityOverridesError('{"gpt-x":{"reason":true}}')).toBe('gpt-x.reason: unknown field');
    expect(capabilityOverridesError('{"gpt-x":{"sampling":["temp"]}}')).toBe('gpt-x.sampling: invalid value');
    expect(capabilityOverridesError('{"gpt-x":{"outputLimit":-1}}')).toBe('gpt-x.outputLimit: invalid value');
  });
});
