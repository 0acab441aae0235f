import { Trans, useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { createTwoFilesPatch } from 'diff';
import { useMemo } from 'react';
import { Diff, Hunk, parseDiff } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import './file-diff.css';

export type DiffLayout = 'unified' | 'split';

interface FileDiffProps {
  path: string;
  original: string;
  modified: string;
  layout: DiffLayout;
}

/** Lines of context kept around each change. */
const CONTEXT = 3;

/**
 * What changed in a file between two texts, as a unified or split diff (jsdiff computes it,
 * react-diff-view draws it). Loaded with the views that show one.
 */
export default function FileDiff({ path, original, modified, layout }: FileDiffProps) {
  const file = useMemo(() => {
    // react-diff-view reads git's format: the patch jsdiff writes, under git's header line.
    const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, original, modified, '', '', { context: CONTEXT });
    return parseDiff(`diff --git a/${path} b/${path}\n${patch.split('\n').slice(1).join('\n')}`)[0];
  }, [path, original, modified]);
  const { t } = useLingui();
  if (!file || file.hunks.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>No change in its text.</Trans>
      </Text>
    );
  }
  return (
    <div className="file-diff" aria-label={t`Diff of ${path}`} role="figure">
      <Diff viewType={layout} diffType={file.type} hunks={file.hunks}>
        {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
      </Diff>
    </div>
  );
}
