import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { endCookieSession } from '../../api/auth';
import { signOut } from '../../api/session';

/**
 * Signing out is a navigation to here, so a page with unsaved changes asks first (its guard
 * blocks leaving it). The next sign-in starts at the Settings page, not here.
 */
export function SignOutRoute() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('/', { replace: true });
    signOut();
    void endCookieSession();
  }, [navigate]);
  return null;
}
