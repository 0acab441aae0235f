import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { startTaskQuery } from '../../../queries/conversations';
import { startingNoticeId } from './starting-notice';

/** A start made here is followed (`follow(taskId)`): once READY, its conversation opens. */
export function useFollowStart(): (taskId: string) => void {
  // `i18n` stays the same object (unlike `t`): the effect does not run again on a change of language.
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const [following, setFollowing] = useState<string | null>(null);
  const followed = useQuery({ ...startTaskQuery(following ?? ''), enabled: following !== null });
  const ready = followed.data?.status === 'READY' ? followed.data : null;
  // Its "Conversation starting" notice stays while it starts, and goes once it ended or is no longer followed.
  const ended = followed.data?.status === 'READY' || followed.data?.status === 'ERROR';
  useEffect(() => {
    if (following === null) return;
    if (ended) notifications.hide(startingNoticeId(following));
    return () => {
      notifications.hide(startingNoticeId(following));
    };
  }, [following, ended]);
  useEffect(() => {
    if (!ready) return;
    // The running cap may have paused others for this one: the task names them.
    if (ready.detail) notifications.show({ color: 'yellow', title: i18n._(msg`Other conversations were paused`), message: ready.detail });
    void navigate(`/conversations/${ready.app_conversation_id}`);
  }, [ready, navigate, i18n]);
  return setFollowing;
}
