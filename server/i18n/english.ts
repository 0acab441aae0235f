import { i18n, type MessageDescriptor } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';

/*
 * The server's words in English, for `Error.message`, logs and clients that ask for no language.
 * They come from each message's own source text (the server's build keeps it), compiled as used.
 * Lingui's shared instance speaks English here (the contract's checks render through it); the
 * other languages have instances of their own (`server/i18n/server-i18n.ts`).
 */
i18n.setMessagesCompiler(compileMessage);
if (!i18n.locale) i18n.loadAndActivate({ locale: 'en', messages: {} });

export const english = i18n;

export const inEnglish = (description: MessageDescriptor): string => english._(description);
