import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateKeyFile } from './data-dir';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  it('round-trips and never shows the plain text', () => {
    const box = new SecretBox('material');
    const sealed = box.seal('sk-very-secret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('sk-very-secret');
    expect(box.open(sealed)).toBe('sk-very-secret');
  });

  it('seals the same value differently each time', () => {
    const box = new SecretBox('material');
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses a value sealed with another key or tampered with', () => {
    const sealed = new SecretBox('one').seal('secret');
    expect(() => new SecretBox('two').open(sealed)).toThrow();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => new SecretBox('one').open(tampered)).toThrow();
  });
});

describe('key files', () => {
  it('are created once, with mode 0600, and read back after', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-keys-'));
    try {
      const key = loadOrCreateKeyFile(dir, 'session-api-key');
      expect(key.length).toBeGreaterThanOrEqual(40);
      expect(fs.statSync(path.join(dir, 'session-api-key')).mode & 0o777).toBe(0o600);
      expect(loadOrCreateKeyFile(dir, 'session-api-key')).toBe(key);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
