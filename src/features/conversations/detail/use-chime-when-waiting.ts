import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ExecutionStatus } from '../../../contract/conversations';
import { settingsQuery } from '../../../queries/settings';

/** The statuses in which the agent waits for the person: an approval, its next task, a way out of a loop. */
const WAITS_FOR_YOU = new Set<ExecutionStatus>(['waiting_for_confirmation', 'finished', 'stuck']);

/** A short two-note chime, made on the spot (no sound file to download). */
export function playChime(): void {
  const AudioContextClass = window.AudioContext as typeof AudioContext | undefined;
  if (!AudioContextClass) return;
  const context = new AudioContextClass();
  const gain = context.createGain();
  gain.gain.setValueAtTime(0.12, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.35);
  gain.connect(context.destination);
  [660, 880].forEach((frequency, index) => {
    const note = context.createOscillator();
    note.frequency.value = frequency;
    note.connect(gain);
    note.start(context.currentTime + index * 0.12);
    note.stop(context.currentTime + 0.35);
  });
  setTimeout(() => void context.close(), 600);
}

/**
 * Plays the chime when the conversation starts waiting for the person while its page is open, if
 * Settings' `enable_sound_notifications` says so. Settings are read only then, not with the page.
 */
export function useChimeWhenWaiting(status: ExecutionStatus | null, chime: () => void = playChime): void {
  const queryClient = useQueryClient();
  const previous = useRef(status);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (before === null || status === null || before === status || !WAITS_FOR_YOU.has(status)) return;
    void queryClient
      .fetchQuery({ ...settingsQuery(), staleTime: 60_000 })
      .then((settings) => settings?.enable_sound_notifications && chime())
      .catch(() => undefined); // a chime is not worth an error
  }, [status, queryClient, chime]);
}
