import { describe, expect, it, vi } from 'vitest';
import { getSession, signIn } from '../../api/session';
import { forgetSignInError, signInErrorToShow, signInFromLink } from './sign-in-link';

function fakeLocation(url: string): Location {
  const u = new URL(url);
  return { pathname: u.pathname, search: u.search, hash: u.hash } as Location;
}

describe('signInFromLink', () => {
  it('stores the key from #key= and removes it from the address bar', () => {
    const history = { state: { idx: 0 }, replaceState: vi.fn() } as unknown as History;
    expect(signInFromLink(fakeLocation('http://127.0.0.1:3000/settings?x=1#key=abc123'), history)).toBe(true);
    expect(getSession()).toEqual({ apiKey: 'abc123', baseUrl: '' });
    expect(history.replaceState).toHaveBeenCalledWith({ idx: 0 }, '', '/settings?x=1');
  });

  it('sends the key to the server that served the link, not a server chosen earlier', () => {
    signIn({ apiKey: 'old', baseUrl: 'http://elsewhere.example:3000' });
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    signInFromLink(fakeLocation('http://127.0.0.1:3000/#key=new'), history);
    expect(getSession()).toEqual({ apiKey: 'new', baseUrl: '' });
  });

  it('keeps other fragment parameters', () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    signInFromLink(fakeLocation('http://h/#key=k&tab=mcp'), history);
    expect(history.replaceState).toHaveBeenCalledWith(null, '', '/#tab=mcp');
  });

  it('takes the session cookie the server set as the sign-in, and keeps a sign-in error for the form until it is forgotten', () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    expect(signInFromLink(fakeLocation('http://h/#session=cookie'), history)).toBe(true);
    expect(getSession()).toEqual({ apiKey: '', baseUrl: '' });
    expect(signInFromLink(fakeLocation('http://h/#sign-in-error=Not%20on%20this%20team'), history)).toBe(false);
    expect(history.replaceState).toHaveBeenLastCalledWith(null, '', '/');
    expect(signInErrorToShow()).toBe('Not on this team');
    expect(signInErrorToShow()).toBe('Not on this team');
    forgetSignInError();
    expect(signInErrorToShow()).toBeNull();
  });

  it('does nothing without a key', () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    expect(signInFromLink(fakeLocation('http://h/settings#section'), history)).toBe(false);
    expect(history.replaceState).not.toHaveBeenCalled();
  });
});
