import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets at rest with AES-256-GCM. Sealed values look like `v1.<base64url>` (iv, tag
 * and ciphertext); the key is derived from the configured key material with HKDF, so any
 * string an operator puts in SECRETS_KEY gives a proper 256-bit key.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(keyMaterial: string) {
    if (keyMaterial.length === 0) throw new Error('Secrets key material must not be empty');
    this.#key = Buffer.from(hkdfSync('sha256', keyMaterial, 'agent-console', 'secrets-at-rest/v1', 32));
  }

  /** A key of its own for `purpose`, derived from this one: no other use shares the key secrets are sealed with. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, 'agent-console', purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, payload] = sealed.split('.', 2);
    if (version !== VERSION || payload === undefined) throw new Error('Not a sealed secret');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
