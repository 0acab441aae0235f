import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The shared libraries `binary` loads, as `ldd` resolves them (none for a static binary). */
export async function sharedLibraries(binary: string): Promise<string[]> {
  let stdout: string;
  try {
    ({ stdout } = await run('ldd', [binary]));
  } catch (error) {
    // ldd exits 1 with "not a dynamic executable" for a static one
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    if (/not a dynamic executable|statically linked/.test(output)) return [];
    throw error;
  }
  // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" and "/lib64/ld-linux-x86-64.so.2 (0x…)"
  const libraries = stdout
    .split('\n')
    .map((line) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined);
  const missing = stdout.split('\n').find((line) => line.includes('=> not found'));
  if (missing) throw new Error(`${binary} needs a library this machine lacks: ${missing.trim()}`);
  return libraries;
}

/** The first of `candidates` that exists, resolved through links. */
export function firstExisting(what: string, candidates: string[]): string {
  for (const candidate of candidates) {
    if (fs.existsSync(candidate)) return fs.realpathSync(candidate);
  }
  throw new Error(`No ${what} on this machine (looked for ${candidates.join(', ')})`);
}
