import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { createRouter } from './app/router';
import { signInFromLink } from './features/auth/sign-in-link';

// Before the first render, so the key never shows in the address bar for longer than a moment;
// and again when a link is opened in a tab already showing the console (only the hash changes).
signInFromLink();
window.addEventListener('hashchange', () => signInFromLink());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const queryClient = createQueryClient();
// Before the first render, so the page's code and data are asked for at once.
const router = createRouter(queryClient);
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
