/** Vite's build manifest (`build.manifest: true`), as the size check and the page preloads read it. */

export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** `key` and every chunk it imports statically, at any depth (added to `seen`). */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

/** The app's entry chunk. */
export function entryKey(manifest: Manifest): string {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest names no entry chunk');
  return entry;
}

/** The pages the router loads on demand (`src/features/<name>/[<part>/]<page>-page.tsx`). */
export const pageModules = (manifest: Manifest) =>
  Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && key.endsWith('-page.tsx'));
