import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { createRouter } from './app/router';
import { signInFromLink } from './features/auth/sign-in-link';
import { loadCatalog, switchLocale } from './i18n/catalogs';
import { initialLocale } from './i18n/chosen-locale';
import { SOURCE_LOCALE } from './i18n/locales';
import { loadShellCatalog } from './i18n/shell-catalog';

// Before the first render, so the key never shows in the address bar for longer than a moment;
// and again when a link is opened in a tab already showing the console (only the hash changes).
signInFromLink();
window.addEventListener('hashchange', () => signInFromLink());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const queryClient = createQueryClient();
// Before the first render, so the page's code and data are asked for at once.
const router = createRouter(queryClient);
// The shell's strings in the language to show (in English, already here) before anything renders.
// Should another language's fail to come, the console shows in English.
void loadCatalog(loadShellCatalog)
  .then(() => switchLocale(initialLocale()))
  .catch(() => switchLocale(SOURCE_LOCALE))
  .finally(() =>
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    ),
  );
