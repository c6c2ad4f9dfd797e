/**
 * A software WebAuthn authenticator for server tests: ES256 (P-256) keys from node:crypto, `none`
 * attestation encoded in CBOR, discoverable credentials (it keeps the user handle), a signature
 * counter, and the client data a browser at `origin` would produce. It speaks the JSON forms the
 * console's browser library sends (RegistrationResponseJSON / AuthenticationResponseJSON).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** The CBOR subset WebAuthn needs: integers, byte and text strings, arrays and maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface Credential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** Whether it verifies its holder (PIN, biometrics): the UV flag. */
  userVerification?: boolean;
  /** Whether it counts signatures (many platform passkeys always report 0). */
  counts?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    public origin: string,
    private readonly opts: SoftAuthenticatorOptions = {},
  ) {}

  private flags(extra = 0): number {
    return FLAG_UP | (this.opts.userVerification === false ? 0 : FLAG_UV) | extra;
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a new discoverable credential for the options' RP and user. */
  create(publicKey: any): Record<string, unknown> {
    const { privateKey, publicKey: pub } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = pub.export({ format: 'jwk' });
    const cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credential: Credential = {
      id: randomBytes(32),
      rpId: publicKey.rp.id,
      userHandle: publicKey.user.id,
      privateKey,
      cosePublicKey,
      counter: 0,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const counter = Buffer.alloc(4);
    const authData = Buffer.concat([
      sha256(credential.rpId),
      Buffer.from([this.flags(FLAG_AT)]),
      counter,
      Buffer.alloc(16),
      idLength,
      credential.id,
      cosePublicKey,
    ]);
    this.credentials.push(credential);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', publicKey.challenge)),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an assertion by one of its credentials the options allow (or any for the RP). */
  get(publicKey: any, pick?: Credential): Record<string, unknown> {
    const allowed: string[] = (publicKey.allowCredentials ?? []).map((c: { id: string }) => c.id);
    const credential =
      pick ?? this.credentials.find((c) => c.rpId === publicKey.rpId && (allowed.length === 0 || allowed.includes(b64u(c.id))));
    if (!credential) throw new Error('no credential for this relying party');
    if (this.opts.counts !== false) credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([this.flags()]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', publicKey.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
