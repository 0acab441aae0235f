import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UID_RANGE } from './sandbox-users';
import { claimUidBlock } from './uid-blocks';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-uid-blocks-'));
  dirs.push(dir);
  return dir;
};

describe('claimUidBlock', () => {
  it('gives two DATA_DIRs on one machine blocks that do not overlap, keeps each its own across restarts, and frees a gone one', () => {
    const claims = tempDir();
    const [first, second, third] = [tempDir(), tempDir(), tempDir()];
    expect(claimUidBlock(200_000, first, claims)).toBe(200_000);
    // Same base asked for: the next block past the first one's (its MCP uid below it included).
    const next = claimUidBlock(200_000, second, claims);
    expect(next).toBe(200_000 + UID_RANGE + 1);
    // A base inside another's block moves past it too.
    expect(claimUidBlock(200_100, third, claims)).toBeGreaterThan(next + UID_RANGE);
    expect(claimUidBlock(200_000, first, claims)).toBe(200_000);
    expect(claimUidBlock(200_000, second, claims)).toBe(next);

    fs.rmSync(first, { recursive: true });
    const fourth = tempDir();
    expect(claimUidBlock(200_000, fourth, claims)).toBe(200_000);
    expect(fs.readFileSync(path.join(claims, '200000'), 'utf8')).toBe(fourth);
  });
});
