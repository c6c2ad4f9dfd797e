/**
 * Where a Vertex AI model is called: the region (from the channel's `other`), the regional origin
 * (`{region}-aiplatform.googleapis.com`, or `aiplatform.googleapis.com` for `global`, or the
 * channel's base URL) and the publisher model path. Claude models carry `@` versions on Vertex.
 */
import type { ChannelAccess } from '../types.js';
import { projectOf } from './service-account.js';

export const DEFAULT_VERTEX_REGION = 'us-central1';

/** Claude's dated name whose Vertex name says `-v2`. */
const VERTEX_CLAUDE_RENAMES: Record<string, string> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

export function isClaudeModel(model: string): boolean {
  return model.startsWith('claude');
}

/** `claude-3-5-sonnet-20240620` → `claude-3-5-sonnet@20240620`; a name with `@` or without a date is kept. */
export function vertexClaudeModel(model: string): string {
  if (Object.hasOwn(VERTEX_CLAUDE_RENAMES, model)) return VERTEX_CLAUDE_RENAMES[model]!;
  if (model.includes('@')) return model;
  const dated = /^(claude-.+)-(\d{8})$/.exec(model);
  return dated ? `${dated[1]}@${dated[2]}` : model;
}

/**
 * The region for a model: `other` is a region (`us-east5`), or JSON naming one per model with a
 * `default` (`{"default": "us-central1", "claude-sonnet-4-20250514": "us-east5"}`).
 */
export function vertexRegion(other: string | null, model: string): string {
  const raw = (other ?? '').trim();
  if (raw === '') return DEFAULT_VERTEX_REGION;
  if (!raw.startsWith('{')) return raw;
  let regions: Record<string, unknown>;
  try {
    regions = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return DEFAULT_VERTEX_REGION;
  }
  const pick = (name: string) => (typeof regions[name] === 'string' && regions[name] !== '' ? (regions[name] as string) : '');
  return pick(model) || pick(vertexClaudeModel(model)) || pick('default') || DEFAULT_VERTEX_REGION;
}

/** A region name as Google writes them (`us-central1`, `europe-west4`, `global`). */
export function isRegionName(region: string): boolean {
  return /^[a-z][a-z0-9-]*[a-z0-9]$/.test(region);
}

function originFor(channel: ChannelAccess, region: string): string {
  if (channel.base_url) return channel.base_url.replace(/\/+$/, '');
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

/** Where a publisher model is: its project and region, and the publisher and model names in the URL. */
export interface ModelPlace {
  project: string;
  region: string;
  publisher: string;
  model: string;
}

/** `{origin}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{action}`. */
export function publisherModelUrl(channel: ChannelAccess, place: ModelPlace, action: string): string {
  const { project, region, publisher, model } = place;
  const path = `/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}/publishers/${publisher}/models/`;
  // `@` is kept as Google writes it (claude-…@20240620); it needs no escaping in a path.
  return `${originFor(channel, region)}${path}${encodeURIComponent(model).replace(/%40/g, '@')}:${action}`;
}

function modelUrl(channel: ChannelAccess, publisher: string, routeModel: string, urlModel: string, action: string): string {
  const place = { project: projectOf(channel.key), region: vertexRegion(channel.other, routeModel), publisher, model: urlModel };
  return publisherModelUrl(channel, place, action);
}

/** A Google model's long-running prediction (Veo), started under the channel's project and region. */
export function predictLongRunningUrl(channel: ChannelAccess, model: string): string {
  return modelUrl(channel, 'google', model, model, 'predictLongRunning');
}

/** Gemini's generateContent, or its SSE stream. */
export function geminiUrl(channel: ChannelAccess, model: string, stream: boolean): string {
  return modelUrl(channel, 'google', model, model, stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
}

/** Claude's rawPredict, or streamRawPredict. */
export function claudeUrl(channel: ChannelAccess, model: string, stream: boolean): string {
  return modelUrl(channel, 'anthropic', model, vertexClaudeModel(model), stream ? 'streamRawPredict' : 'rawPredict');
}
