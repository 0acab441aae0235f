import path from 'node:path';
import type { SandboxIsolation, SandboxRuntimeName } from '../src/contract/sandboxes';
import { DATA_DIR_LABEL } from './sandboxes/docker-runtime';

/*
 * What `npm start` prints for a person at the terminal: the sign-in link last, where it stands
 * out, and at Ctrl+C what it leaves running.
 */

/** Bold on a terminal; plain text where the output goes to a file or a pipe. */
const bold = (text: string, tty: boolean) => (tty ? `\x1b[1m${text}\x1b[22m` : text);

const ISOLATIONS: Record<SandboxIsolation, string> = {
  container: 'Sandboxes run as Docker containers.',
  namespaces: 'Sandboxes run as processes in namespaces of their own (bubblewrap).',
  uids: "Sandboxes run as processes without namespaces, each as a user of its own: they share this machine's network and ports. Install bubblewrap and slirp4netns (Debian: apt-get install bubblewrap slirp4netns) before others use this server.",
  none: "Sandboxes are not isolated: they run as this server's user, with its files, network and ports. Install bubblewrap and slirp4netns (Debian: apt-get install bubblewrap slirp4netns), or use SANDBOX_RUNTIME=docker, before others use this server.",
};

/** One line that names what keeps sandboxes apart from the server and each other, and what is missing. */
export const isolationLine = (isolation: SandboxIsolation): string => ISOLATIONS[isolation];

/**
 * `heading` (e.g. "Agent Console is running."), `notes` on lines of their own (what sandboxes are
 * kept apart by, what keeps them from starting), where pages that cannot send the key sign in
 * (unless the server gives no browser sessions),
 * then the sign-in link alone on its line after a blank one. With `keyIsIn` (the output is no
 * terminal: a log file others may read), the address without the key, and where the key is.
 */
export function signInMessage(
  {
    heading,
    notes = [],
    signInLink,
    cookieSignInPage,
    keyIsIn,
  }: { heading: string; notes?: string[]; signInLink: string; cookieSignInPage: string | undefined; keyIsIn?: string },
  tty = Boolean(process.stdout.isTTY),
): string {
  const open = keyIsIn
    ? [`Open ${signInLink.split('#', 1)[0]} and sign in with the session key, which is in ${keyIsIn}.`]
    : ['Open this link to sign in:', '', `    ${bold(signInLink, tty)}`];
  return [
    '',
    heading,
    ...notes,
    ...(cookieSignInPage ? [`Pages that cannot send the key (OpenHands' web client) sign in at ${cookieSignInPage}`] : []),
    '',
    ...open,
    '',
  ].join('\n');
}

/**
 * Where the key is said to be instead of printed, when the output is no terminal and
 * PRINT_SIGN_IN_LINK does not ask for the link: `undefined` when the link is printed.
 */
export function keyLocation(
  config: { printSignInLink: boolean; sessionApiKey: string | undefined; dataDir: string },
  tty = Boolean(process.stdout.isTTY),
): string | undefined {
  if (tty || config.printSignInLink) return undefined;
  return config.sessionApiKey ? 'the SESSION_API_KEY the server was started with' : path.join(config.dataDir, 'session-api-key');
}

/**
 * Said at Ctrl+C when sandboxes keep running: they outlive the server on purpose (their agents
 * go on, and the next start finds them again), so it says how to remove them.
 */
export function stopMessage({ running, runtime, dataDir }: { running: number; runtime: SandboxRuntimeName; dataDir: string }): string {
  const count = running === 1 ? '1 sandbox keeps' : `${running} sandboxes keep`;
  const containers =
    runtime === 'docker' ? `, or remove their containers: docker rm -f $(docker ps -aq --filter label=${DATA_DIR_LABEL}=${dataDir})` : '';
  return `${count} running after the server stops. To remove them, \`npm start\` again and delete them on the Sandboxes page${containers}.`;
}
