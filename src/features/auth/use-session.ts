import { useSyncExternalStore } from 'react';
import { getSessionState, type SessionState, subscribeToSession } from '../../api/session';

export function useSessionState(): SessionState {
  return useSyncExternalStore(subscribeToSession, getSessionState);
}
