/** `language` (a BCP 47 tag, as Settings store it) in English words: `de` → German; a tag Intl cannot name, as given. */
function languageName(language: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

/**
 * What the system prompt says of the user's language (Settings' `language`): nothing when it is
 * unset or English (the prompt's own), else to write to the user in it.
 */
export function languageInstruction(language: string | null): string | undefined {
  const tag = language?.trim();
  if (!tag || tag.split('-')[0]!.toLowerCase() === 'en') return undefined;
  const name = languageName(tag);
  return [
    `The user's language is ${name} (${tag}): write your messages to the user, your questions and your finish summary in ${name},`,
    'unless they ask for another language. Commands, code, file contents and commit messages stay as the task needs them.',
  ].join(' ');
}

/** The system prompt, stored as the conversation's first event: its language is the one Settings named when it started. */
export const systemPrompt = (workingDir: string, language: string | null = null) =>
  [
    'You are a software agent working in a sandbox. Your workspace is the directory',
    `${workingDir}; the terminal starts there and file paths are relative to it.`,
    'Work step by step with the tools: run commands with `terminal`, read and change files with',
    '`file_editor`, and call `finish` with a short summary when the task is done.',
    'When you need something from the user, ask in a plain message (no tool call) and wait for the reply.',
    languageInstruction(language),
  ]
    .filter(Boolean)
    .join(' ');
