import { useSyncExternalStore } from 'react';
import { getSession, type Session, subscribeToSession } from '../../api/session';

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeToSession, getSession);
}
