/** An AWS Claude (Bedrock) channel's key: `AccessKeyId|SecretAccessKey|Region`. */

export interface AwsKey {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export const AWS_KEY_FORMAT = 'AccessKeyId|SecretAccessKey|Region';

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** The key's parts, or a message saying what is wrong (never quoting the key, whose parts may be misplaced). */
export function parseAwsKey(key: string): { ok: true; key: AwsKey } | { ok: false; message: string } {
  const parts = key
    .trim()
    .split('|')
    .map((p) => p.trim());
  const [accessKeyId = '', secretAccessKey = '', region = ''] = parts;
  if (parts.length !== 3 || !accessKeyId || !secretAccessKey || !region) {
    return { ok: false, message: `AWS 密钥格式应为 ${AWS_KEY_FORMAT}` };
  }
  if (!REGION.test(region)) return { ok: false, message: 'AWS 密钥的第三段应为区域，例如 us-east-1' };
  return { ok: true, key: { accessKeyId, secretAccessKey, region } };
}

/** The region a key names, for building URLs before the key is checked in full; empty when unreadable. */
export function regionOf(key: string): string {
  const parsed = parseAwsKey(key);
  return parsed.ok ? parsed.key.region : '';
}
