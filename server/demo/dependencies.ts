import { createHash } from 'node:crypto';

/*
 * A repository's dependencies as its package manager keeps them: the manifest a person edits and
 * the lock file the manager writes, before and after one dependency moves to a new version.
 */

export interface Bump {
  name: string;
  from: string;
  to: string;
}

export interface Ecosystem {
  manifest: string;
  lock: string;
  /** The repository's other dependencies, by name, at their versions. */
  pinned: Record<string, string>;
  /** What the weekly update bumps, one picked per week. */
  weekly: Bump[];
  /** The manifest's and the lock file's texts with `versions`. */
  manifestText: (versions: Record<string, string>) => string;
  lockText: (versions: Record<string, string>) => string;
  install: (bump: Bump) => { command: string; output: string };
}

/** A stable checksum of `name` at `version`, base64 or hex, so a lock file's hash changes with the version. */
const digest = (name: string, version: string, encoding: 'base64' | 'hex') =>
  createHash('sha512').update(`${name}@${version}`).digest(encoding);

const sorted = (versions: Record<string, string>) => Object.entries(versions).sort(([a], [b]) => a.localeCompare(b));

export function npm(project: string, pinned: Record<string, string>, weekly: Bump[]): Ecosystem {
  return {
    manifest: 'package.json',
    lock: 'package-lock.json',
    pinned,
    weekly,
    manifestText: (versions) =>
      `${JSON.stringify({ name: project, private: true, dependencies: Object.fromEntries(sorted(versions).map(([name, version]) => [name, `^${version}`])) }, null, 2)}\n`,
    lockText: (versions) => {
      const packages: Record<string, object> = {
        '': { name: project, dependencies: Object.fromEntries(sorted(versions).map(([name, version]) => [name, `^${version}`])) },
      };
      for (const [name, version] of sorted(versions)) {
        packages[`node_modules/${name}`] = {
          version,
          resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').at(-1)}-${version}.tgz`,
          integrity: `sha512-${digest(name, version, 'base64')}`,
        };
      }
      return `${JSON.stringify({ name: project, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
    },
    install: (bump) => ({
      command: `npm install ${bump.name}@${bump.to}`,
      output: `\nchanged 4 packages, and audited 1187 packages in 12s\n\n214 packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`,
    }),
  };
}

export function goModules(module: string, pinned: Record<string, string>, weekly: Bump[]): Ecosystem {
  return {
    manifest: 'go.mod',
    lock: 'go.sum',
    pinned,
    weekly,
    manifestText: (versions) =>
      `module ${module}\n\ngo 1.23\n\nrequire (\n${sorted(versions)
        .map(([name, version]) => `\t${name} ${version}`)
        .join('\n')}\n)\n`,
    lockText: (versions) =>
      sorted(versions)
        .flatMap(([name, version]) => [
          `${name} ${version} h1:${digest(name, version, 'base64').slice(0, 43)}=`,
          `${name} ${version}/go.mod h1:${digest(`${name}/go.mod`, version, 'base64').slice(0, 43)}=`,
        ])
        .join('\n') + '\n',
    install: (bump) => ({
      command: `go get ${bump.name}@${bump.to} && go mod tidy`,
      output: `go: downloading ${bump.name} ${bump.to}\ngo: upgraded ${bump.name} ${bump.from} => ${bump.to}`,
    }),
  };
}

export function uv(project: string, pinned: Record<string, string>, weekly: Bump[]): Ecosystem {
  return {
    manifest: 'pyproject.toml',
    lock: 'uv.lock',
    pinned,
    weekly,
    manifestText: (versions) =>
      `[project]\nname = "${project}"\nrequires-python = ">=3.12"\ndependencies = [\n${sorted(versions)
        .map(([name, version]) => `    "${name}==${version}",`)
        .join('\n')}\n]\n`,
    lockText: (versions) =>
      `version = 1\nrequires-python = ">=3.12"\n\n${sorted(versions)
        .map(
          ([name, version]) =>
            `[[package]]\nname = "${name}"\nversion = "${version}"\nsource = { registry = "https://pypi.org/simple" }\nsdist = { url = "https://files.pythonhosted.org/packages/source/${name[0]}/${name}/${name}-${version}.tar.gz", hash = "sha256:${digest(name, version, 'hex').slice(0, 64)}" }`,
        )
        .join('\n\n')}\n`,
    install: (bump) => ({
      command: `uv lock --upgrade-package ${bump.name} && uv sync`,
      output: `Resolved 52 packages in 1.18s\nPrepared 1 package in 2.04s\nUninstalled 1 package in 9ms\nInstalled 1 package in 31ms\n - ${bump.name}==${bump.from}\n + ${bump.name}==${bump.to}`,
    }),
  };
}
