/** A Vertex AI channel's key: a Google Cloud service-account JSON document. */

export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string;
  projectId: string;
  tokenUri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The account a key describes, or a message naming what is missing (never the key's content). */
export function parseServiceAccount(key: string): { ok: true; account: ServiceAccount } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return { ok: false, message: 'Vertex AI 密钥应为服务账号 JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'Vertex AI 密钥应为服务账号 JSON' };
  }
  const doc = parsed as Record<string, unknown>;
  const missing = ['client_email', 'private_key', 'project_id'].filter((field) => text(doc[field]) === '');
  if (missing.length > 0) return { ok: false, message: `Vertex AI 服务账号 JSON 缺少 ${missing.join('、')}` };
  return {
    ok: true,
    account: {
      clientEmail: text(doc.client_email),
      privateKey: String(doc.private_key),
      privateKeyId: text(doc.private_key_id),
      projectId: text(doc.project_id),
      tokenUri: text(doc.token_uri) || GOOGLE_TOKEN_URI,
    },
  };
}

/** The project a key names, for building URLs before the key is checked in full; empty when unreadable. */
export function projectOf(key: string): string {
  const parsed = parseServiceAccount(key);
  return parsed.ok ? parsed.account.projectId : '';
}
