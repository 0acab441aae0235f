/** What the page shows besides its form, or instead of it. */
export interface SignInPageState {
  /** Why the last try failed (a sentence of ours, never the request's text). */
  error?: string;
  /** Where to sign in instead: this host name must not get the cookie (see `cookieFreeHostAlternative`). */
  elsewhere?: string;
}

const FORM = `<form method="post" action="/sign-in">
<label for="key">Session API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>`;

/** `origin` is built from digits and constants only, so it is safe in HTML as it is. */
const elsewhereNote = (origin: string) =>
  `<p role="alert">Open <a href="${origin}/sign-in">${origin}/sign-in</a>: on 127.0.0.1 the cookie would also reach the sandboxes, whose agent servers are published there.</p>`;

/**
 * The server's own sign-in page: a form that posts the key to `/sign-in`, which sets the session
 * cookie and goes to `/`. No script, so it works whatever console `CONSOLE_DIR` holds.
 */
export function signInPage({ error, elsewhere }: SignInPageState = {}): string {
  const form = error ? FORM.replace('required autofocus', 'required autofocus aria-describedby="error" aria-invalid="true"') : FORM;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in</title>
<style>
body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; background: #f5f5f5; color: #222; }
main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgb(0 0 0 / 15%); width: min(380px, 90vw); }
h1 { font-size: 1.3rem; margin: 0 0 0.5rem; }
label { display: block; margin: 1rem 0 0.3rem; font-weight: 600; }
input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; }
button { margin-top: 1rem; width: 100%; padding: 0.6rem; font: inherit; cursor: pointer; }
.error { color: #b00020; margin: 0.5rem 0 0; }
</style>
</head>
<body>
<main>
<h1>Sign in</h1>
${
  elsewhere
    ? elsewhereNote(elsewhere)
    : `<p>Paste the session API key the server printed when it started.</p>
${form}
${error ? `<p class="error" id="error" role="alert">${error}</p>` : ''}`
}
</main>
</body>
</html>
`;
}
