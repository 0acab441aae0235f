import { SANDBOX_PUBLISHED_HOST } from '../sandboxes/published-host';

/** An agent server's URL as handed out: on the address sandboxes are published on. */
export const publishedUrl = new RegExp(`^http://${SANDBOX_PUBLISHED_HOST.replaceAll('.', '\\.')}:\\d+$`);
