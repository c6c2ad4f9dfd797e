/**
 * AWS Signature Version 4 for Bedrock runtime calls, through the maintained Smithy signer. Only
 * `host` (and the signer's own `x-amz-*` headers) are signed: the relay sets `content-type` and
 * `accept` itself when it sends the call, and AWS needs no more than that.
 */
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsKey } from './bedrock-key.js';

export const BEDROCK_SIGNING_SERVICE = 'bedrock';

const Sha256 = Hash.bind(null, 'sha256');

/** The headers that authenticate a POST of `body` to `url`: `authorization`, `x-amz-date`, `x-amz-content-sha256`. */
export async function signBedrockRequest(
  url: string,
  body: string,
  key: AwsKey,
  signingDate: Date = new Date(),
): Promise<Record<string, string>> {
  const target = new URL(url);
  const signer = new SignatureV4({
    service: BEDROCK_SIGNING_SERVICE,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
    sha256: Sha256,
  });
  const query: Record<string, string> = {};
  for (const [name, value] of target.searchParams) query[name] = value;
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port ? Number(target.port) : undefined,
      path: target.pathname,
      query,
      headers: { host: target.host },
      body,
    },
    { signingDate },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = String(value);
  return headers;
}
