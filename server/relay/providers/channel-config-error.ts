/**
 * A channel whose key or settings cannot be used: a malformed key (`ak|sk|region`, a service-account
 * JSON), an unusable region, or credentials the provider refused when exchanging them for an
 * access token. The relay treats it like an upstream 401 — another channel is tried, and the
 * channel is reported to the health checks (auto-disable) — instead of a connection failure.
 * Messages name what is wrong, never the key itself.
 */
export class ChannelConfigError extends Error {}
