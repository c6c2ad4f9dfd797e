/**
 * Gateway model names → Bedrock model ids. Newer Claude models have no on-demand throughput in a
 * single region: they are invoked through a cross-region inference profile, whose id is the model
 * id prefixed with the geography of the calling region (`us.`, `eu.`, `apac.`).
 */

interface BedrockModel {
  id: string;
  /** Invoked through the geography's cross-region inference profile. */
  profile: boolean;
}

const model = (id: string, profile = false): BedrockModel => ({ id, profile });

const MODELS: Record<string, BedrockModel> = {
  'claude-3-haiku-20240307': model('anthropic.claude-3-haiku-20240307-v1:0'),
  'claude-3-sonnet-20240229': model('anthropic.claude-3-sonnet-20240229-v1:0'),
  'claude-3-opus-20240229': model('anthropic.claude-3-opus-20240229-v1:0', true),
  'claude-3-5-sonnet-20240620': model('anthropic.claude-3-5-sonnet-20240620-v1:0'),
  'claude-3-5-sonnet-20241022': model('anthropic.claude-3-5-sonnet-20241022-v2:0', true),
  'claude-3-5-haiku-20241022': model('anthropic.claude-3-5-haiku-20241022-v1:0', true),
  'claude-3-7-sonnet-20250219': model('anthropic.claude-3-7-sonnet-20250219-v1:0', true),
  'claude-sonnet-4-20250514': model('anthropic.claude-sonnet-4-20250514-v1:0', true),
  'claude-opus-4-20250514': model('anthropic.claude-opus-4-20250514-v1:0', true),
  'claude-opus-4-1-20250805': model('anthropic.claude-opus-4-1-20250805-v1:0', true),
  'claude-sonnet-4-5-20250929': model('anthropic.claude-sonnet-4-5-20250929-v1:0', true),
  'claude-haiku-4-5-20251001': model('anthropic.claude-haiku-4-5-20251001-v1:0', true),
  'claude-opus-4-5-20251101': model('anthropic.claude-opus-4-5-20251101-v1:0', true),
};

/** The gateway names Bedrock serves, for the console's model list. */
export const BEDROCK_CLAUDE_MODELS = Object.keys(MODELS);

/** The inference-profile geography of a region, or '' where Bedrock defines none. */
export function profileGeography(region: string): string {
  if (region.startsWith('us-gov-')) return 'us-gov';
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return '';
}

/**
 * The Bedrock model id for a gateway model name called from `region`. A name that already is a
 * Bedrock id (`anthropic.…`, `us.anthropic.…`, an ARN) is used as it is, so operators can map a
 * model to any id or inference profile through the channel's model mapping.
 */
export function bedrockModelId(name: string, region: string): string {
  const known = Object.hasOwn(MODELS, name) ? MODELS[name] : undefined;
  if (!known) return name;
  const geography = known.profile ? profileGeography(region) : '';
  return geography ? `${geography}.${known.id}` : known.id;
}
