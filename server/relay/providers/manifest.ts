/**
 * A channel type as its provider declares it: pure data (no server imports), so the channel tables,
 * the input checks and the console's channel form are all derived from it. One manifest per type, in
 * its provider's folder, listed once in channel-types.ts.
 */
import type { Endpoint } from '../endpoints.js';

export interface ChannelTypeManifest {
  /** Shown in the console's type list (a brand name: not translated). */
  name: string;
  /**
   * The provider's origin (plus the fixed prefix some providers need); the provider appends the
   * request path. Empty: the operator gives the address (self-hosted or per-account services).
   */
  defaultBaseUrl: string;
  /** The address comes from the region instead (`other`), so an empty base URL is no error. */
  baseUrlFromRegion?: true;
  /** Serves without a key (one given is sent as a Bearer token). */
  keyOptional?: true;
  /** How the key field holds several keys: one per line (default), or a JSON array of objects. */
  keys?: 'lines' | 'json-array';
  /** The key has a format of its own, explained under the key input (`resources.channel.key_format.<id>`). */
  keyFormatHint?: true;
  /**
   * The extra `other` field (region, API version …): its label (`resources.channel.other.<label>`),
   * the placeholder the form shows, and the value stored when it is left empty.
   */
  other?: { label: string; placeholder?: string; default?: string };
  /** Takes an OpenAI organization id. */
  organization?: true;
  /** The models offered by the console's "fill models" button; operators may type others. */
  models?: readonly string[];
  /** The provider caches prompts per account or key: a user keeps to one key of a multi-key channel. */
  promptCache?: true;
  /** Relayed by the shared OpenAI-compatible base: no code of its own. */
  compatible?: {
    /** Between the base URL and the endpoint's path, `{other}` standing for the channel's `other`. */
    pathPrefix: string;
    /** Every endpoint, or these; default: all but `/v1/responses` (converted to chat instead). */
    endpoints?: 'all' | readonly Endpoint[];
    /** Whether to ask for usage in the last stream chunk; default true. */
    streamUsageOption?: boolean;
  };
}
