import { msg } from '@lingui/core/macro';

/** Why browser sessions and a team need sandboxes with a network of their own, and what to install. */
export const SHARED_NETWORK_REFUSAL = msg`This server's sandboxes share its network (they run without namespaces), so a page one of them serves on this machine would be sent a browser's session cookie: sign in with the session key or an API key. Install bubblewrap and slirp4netns (Debian: apt-get install bubblewrap slirp4netns) and restart the server to sign in with a password or an identity provider, or to invite others; or use SANDBOX_RUNTIME=docker.`;
