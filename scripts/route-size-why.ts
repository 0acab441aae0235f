/**
 * `npm run size -- --why`: what each page's first JavaScript is made of. Builds once more with
 * hidden source maps into a temporary directory, attributes each character of the built chunks
 * to the source file its source map traces it to, and shares each file's gzip size among those sources by their part of its bytes
 * (an estimate: code compresses unevenly). Sources are summed per package, and per folder of `src/`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface SourceMap {
  sources: string[];
  mappings: string;
}

/** Decodes one base64 VLQ field at `at`; returns the value and where the next field starts. */
function readVlq(text: string, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let digit: number;
  do {
    digit = BASE64.indexOf(text[at++]!);
    value += (digit & 31) << shift;
    shift += 5;
  } while (digit & 32);
  return [value & 1 ? -(value >>> 1) : value >>> 1, at];
}

/** Bytes of `code` per source of its map; bytes the map names no source for count as `(bundler)`. */
function bytesPerSource(code: string, map: SourceMap): Map<string, number> {
  const lineLengths = code.split('\n').map((line) => line.length);
  const bytes = new Map<string, number>();
  const add = (source: string, length: number) => bytes.set(source, (bytes.get(source) ?? 0) + length);
  let sourceIndex = 0;
  map.mappings.split(';').forEach((line, lineIndex) => {
    let column = 0;
    const starts: { column: number; source: string }[] = [];
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      for (let at = 0; at < segment.length;) {
        const [value, next] = readVlq(segment, at);
        fields.push(value);
        at = next;
      }
      column += fields[0]!;
      if (fields.length > 1) sourceIndex += fields[1]!;
      starts.push({ column, source: fields.length > 1 ? map.sources[sourceIndex]! : '(bundler)' });
      // Original line and column (fields 2, 3) and names (4) are not needed here.
    }
    starts.forEach(({ column: start, source }, i) => add(source, (starts[i + 1]?.column ?? lineLengths[lineIndex] ?? start) - start));
  });
  return bytes;
}

/** A package (`@mantine/core`), or a folder of the console (`src/features/settings`). */
function groupOf(source: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (inPackage) return inPackage[1]!;
  const inSrc = /(?:^|\/)src\/(.*)$/.exec(source);
  if (!inSrc) return source;
  const parts = inSrc[1]!.split('/');
  return ['src', ...parts.slice(0, parts[0] === 'features' ? 2 : 1)].join('/');
}

/** Builds with source maps into a temporary directory and returns it. */
export function buildWithSourceMaps(): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-size-'));
  execFileSync('npx', ['vite', 'build', '--sourcemap', 'hidden', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return outDir;
}

/** KiB of gzip per group for the given files (paths relative to `dist`), largest first. */
export function composition(dist: string, files: string[], gzipSize: (file: string) => number): [string, number][] {
  const groups = new Map<string, number>();
  for (const file of files) {
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    const map = JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as SourceMap;
    const perSource = bytesPerSource(code, map);
    const total = [...perSource.values()].reduce((sum, n) => sum + n, 0);
    const gzipped = gzipSize(file);
    for (const [source, n] of perSource) {
      const group = groupOf(source);
      groups.set(group, (groups.get(group) ?? 0) + (gzipped * n) / total);
    }
  }
  return [...groups].sort((a, b) => b[1] - a[1]);
}
