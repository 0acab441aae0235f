/**
 * The demo model: a scripted session, no LLM and no key. In a file of its own so a page that only
 * names it (the Settings suggestions) does not download the event schemas with it.
 */
export const DEMO_MODEL = 'demo/scripted';
