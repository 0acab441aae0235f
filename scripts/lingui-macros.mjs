// `tsx --import ./scripts/lingui-macros.mjs script.ts`: Lingui's macros for a script tsx runs (see the hook).
import { register } from 'node:module';

register('./lingui-macros-hook.mjs', import.meta.url);
