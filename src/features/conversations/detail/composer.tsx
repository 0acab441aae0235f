import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Box, Button, FileButton, Group, Image, Stack, Text, Textarea } from '@mantine/core';
import { IconPhoto, IconSend, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { OutgoingMessage } from '../../../api/agent';
import { describeError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/error-alert';
import { MAX_MESSAGE_IMAGE_BYTES } from '../../../contract/conversations';

/** The images a model can be given, as the API takes them. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

interface Attachment {
  name: string;
  /** A data URL: what is sent. */
  url: string;
}

/** A file's content as a data URL; `failure` says why not when the browser does not. */
const readAsDataUrl = (file: File, failure: string) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(failure));
    reader.readAsDataURL(file);
  });

const megabytes = (bytes: number, i18n: I18n) => {
  const digits = bytes < 1024 * 1024 ? 2 : 1;
  const amount = i18n.number(bytes / 1024 / 1024, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return i18n._(msg`${amount} MiB`);
};

function tooLargeText(bytes: number, i18n: I18n) {
  const taken = megabytes(bytes, i18n);
  const allowed = megabytes(MAX_MESSAGE_IMAGE_BYTES, i18n);
  return i18n._(msg`The images take ${taken}; a message may carry ${allowed} of them. Remove one to send.`);
}

export interface ComposerProps {
  /** Resolves once the message is sent (the composer then empties); rejects when it is not. */
  onSend: (message: OutgoingMessage) => Promise<unknown>;
  sending: boolean;
  sendError: unknown;
}

/**
 * What a person writes to the agent: text, and images pasted, dropped or chosen (sent as the SDK's
 * ImageContent, for models that take images). Nothing is lost when a send fails.
 */
export function Composer({ onSend, sending, sendError }: ComposerProps) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState('');
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const bytes = attachments.reduce((sum, attachment) => sum + attachment.url.length, 0);
  const tooLarge = bytes > MAX_MESSAGE_IMAGE_BYTES;

  const attach = async (files: readonly File[]) => {
    const images = files.filter((file) => IMAGE_TYPES.includes(file.type));
    setProblem(images.length < files.length ? t`Only PNG, JPEG, GIF and WebP images can be attached.` : null);
    try {
      const added = await Promise.all(
        images.map(async (file) => {
          const name = file.name || t`pasted image`;
          return { name, url: await readAsDataUrl(file, t`Could not read ${name}`) };
        }),
      );
      setAttachments((current) => [...current, ...added]);
    } catch (error) {
      setProblem(describeError(error));
    }
  };

  const send = () => {
    const text = draft.trim();
    if ((!text && attachments.length === 0) || sending || tooLarge) return;
    // The text and images stay until the server has them: a failed send loses nothing, and what
    // was written or attached meanwhile stays.
    const sent = new Set(attachments);
    onSend({ text, images: attachments.map((attachment) => attachment.url) }).then(
      () => {
        setDraft((current) => (current.trim() === text ? '' : current));
        setAttachments((current) => current.filter((attachment) => !sent.has(attachment)));
        setProblem(null);
      },
      () => {},
    );
  };

  return (
    <Stack
      gap="xs"
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) event.preventDefault();
      }}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        void attach([...event.dataTransfer.files]);
      }}
    >
      {Boolean(sendError) && <ErrorAlert title={t`Not sent`}>{describeError(sendError)}</ErrorAlert>}
      <Textarea
        aria-label={t`Message to the agent`}
        placeholder={t`Tell the agent what to do next (Ctrl+Enter or ⌘+Enter sends); paste or drop images`}
        autosize
        minRows={2}
        maxRows={10}
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onPaste={(event) => {
          const files = [...event.clipboardData.files];
          if (files.length === 0) return;
          event.preventDefault();
          void attach(files);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            send();
          }
        }}
      />
      {attachments.length > 0 && (
        <Group gap="xs" role="list" aria-label={t`Attached images`}>
          {attachments.map(({ name, url }, index) => (
            <Box key={`${index}-${name}`} pos="relative" role="listitem">
              <Image src={url} alt={name} h={64} w={64} fit="cover" radius="sm" />
              <ActionIcon
                size="xs"
                radius="xl"
                variant="filled"
                color="dark"
                pos="absolute"
                top={2}
                right={2}
                aria-label={t`Remove ${name}`}
                onClick={() => setAttachments((current) => current.filter((_, i) => i !== index))}
              >
                <IconX size={12} />
              </ActionIcon>
            </Box>
          ))}
        </Group>
      )}
      {(problem || tooLarge) && (
        <Text size="sm" c="red" role="alert">
          {tooLarge ? tooLargeText(bytes, i18n) : problem}
        </Text>
      )}
      <Group justify="space-between">
        <FileButton onChange={(files) => void attach(files)} accept={IMAGE_TYPES.join(',')} multiple>
          {(props) => (
            <Button {...props} variant="subtle" size="xs" leftSection={<IconPhoto size={16} />}>
              <Trans>Attach images</Trans>
            </Button>
          )}
        </FileButton>
        <Button
          leftSection={<IconSend size={16} />}
          onClick={send}
          loading={sending}
          disabled={(!draft.trim() && attachments.length === 0) || tooLarge}
        >
          <Trans>Send</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
