import fs from 'node:fs';
import path from 'node:path';
import { UID_RANGE } from './sandbox-users';

/*
 * Which server on this machine has which sandbox uids. A server run as root ends whatever runs as
 * a deleted sandbox's uid, and a uid's files are its sandbox's: two servers (two DATA_DIRs) must
 * never share one. Each claims the block from its SANDBOX_UID_BASE (one uid below it, for MCP
 * tests, to UID_RANGE above) in a file of this machine's, naming its DATA_DIR; a block whose
 * DATA_DIR is gone is free again.
 */

export const UID_CLAIMS_DIR = '/var/lib/agent-console/uid-blocks';

const LAST_UID = 2 ** 32 - 2;

/** The uids a block claimed at `base` spans: the MCP test uid below it, then the sandboxes'. */
const span = (base: number) => ({ from: base - 1, to: base + UID_RANGE });
const overlap = (a: number, b: number) => span(a).from < span(b).to && span(b).from < span(a).to;

function readClaims(claimsDir: string): { base: number; dataDir: string }[] {
  return fs
    .readdirSync(claimsDir)
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        return [{ base: Number(name), dataDir: fs.readFileSync(path.join(claimsDir, name), 'utf8') }];
      } catch {
        return []; // released meanwhile
      }
    });
}

/**
 * The first uid block from `base` up that no other live DATA_DIR claims, claimed for `dataDir`.
 * Its claims stay while it exists (its sandboxes keep their uids, also when the base changes);
 * those of DATA_DIRs that no longer exist are released on the way.
 */
export function claimUidBlock(base: number, dataDir: string, claimsDir = UID_CLAIMS_DIR): number {
  fs.mkdirSync(claimsDir, { recursive: true, mode: 0o700 });
  const own = path.resolve(dataDir);
  const claims = readClaims(claimsDir);
  for (const claim of claims) {
    if (claim.dataDir !== own && !fs.existsSync(claim.dataDir)) fs.rmSync(path.join(claimsDir, String(claim.base)), { force: true });
  }
  const others = readClaims(claimsDir).filter((claim) => claim.dataDir !== own);
  for (let candidate = base; span(candidate).to <= LAST_UID;) {
    const taken = others.find((claim) => overlap(claim.base, candidate));
    if (taken) {
      candidate = span(taken.base).to + 1;
      continue;
    }
    const file = path.join(claimsDir, String(candidate));
    try {
      fs.writeFileSync(file, own, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      // Ours already, or another server's claimed in between: then look again.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (fs.readFileSync(file, 'utf8') !== own) return claimUidBlock(base, dataDir, claimsDir);
    }
    return candidate;
  }
  throw new Error(`No block of ${UID_RANGE} sandbox uids from ${base} up is free on this machine`);
}
