import { List, Text } from '@mantine/core';
import type { Loc } from '../../contract/validation-detail';
import { validationWords } from '../../api/validation-words';
import { ErrorAlert } from '../error-alert';
import type { SaveProblem } from './apply-server-errors';

const dottedLoc = (loc: Loc) => loc.filter((part) => part !== 'body').join('.') || 'request';

/** A failed save's problem that has no input of its own: the sentence, then each rejected value. */
export function SaveProblemAlert({
  problem,
  title,
  describeLoc = dottedLoc,
  onClose,
}: {
  problem: SaveProblem;
  title?: string;
  /** How a `loc` reads in the list (default: dotted, without `body`). */
  describeLoc?: (loc: Loc) => string;
  onClose?: () => void;
}) {
  return (
    <ErrorAlert title={title} onClose={onClose}>
      <Text size="sm">{problem.message}</Text>
      {problem.unmatched.length > 0 && (
        <List size="sm" mt="xs">
          {problem.unmatched.map((entry, index) => (
            <List.Item key={index}>
              <Text span fw={600}>
                {describeLoc(entry.loc)}
              </Text>
              : {validationWords(entry)}
            </List.Item>
          ))}
        </List>
      )}
    </ErrorAlert>
  );
}
