import fs from 'node:fs';
import path from 'node:path';
import { type Observation, text, type ToolContext } from './observation';

export interface FileEditorAction {
  kind: 'FileEditorAction';
  command: 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit';
  path: string;
  file_text: string | null;
  old_str: string | null;
  new_str: string | null;
  insert_line: number | null;
  view_range: number[] | null;
}

const MAX_VIEW_CHARS = 30_000;

/** A failure the editor reports as an error observation. */
class EditorError extends Error {}

/** `given` inside the workspace (relative to it, or absolute within it). */
function resolveInside(workingDir: string, given: string): string {
  const root = path.resolve(workingDir);
  const resolved = path.resolve(root, given);
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) throw new EditorError(`${given} is outside the workspace ${root}.`);
  return resolved;
}

const numbered = (content: string, first = 1) =>
  content
    .split('\n')
    .map((line, i) => `${String(i + first).padStart(6)}\t${line}`)
    .join('\n');

function listDirectory(root: string): string {
  const lines: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      lines.push(`${path.relative(root, full)}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory() && depth < 2) walk(full, depth + 1);
    }
  };
  walk(root, 1);
  return `Files and directories up to 2 levels deep in ${root}, hidden ones left out:\n${lines.join('\n')}`;
}

/** The file editor: view, create, replace a unique string, insert, undo the last edit. */
export class FileEditor {
  /** Earlier contents by path, for `undo_edit` (this run of the agent server only). */
  readonly #history = new Map<string, string[]>();

  run(action: FileEditorAction, context: ToolContext): Observation {
    const base = { kind: 'FileEditorObservation', command: action.command, path: action.path };
    try {
      const file = resolveInside(context.workingDir, action.path);
      const result = this.#run(action, file, context.mask);
      return {
        ...base,
        content: text(result.output),
        is_error: false,
        prev_exist: result.prevExist,
        old_content: result.old,
        new_content: result.new,
      };
    } catch (error) {
      const message = error instanceof EditorError ? error.message : `The file editor failed: ${(error as Error).message}`;
      return { ...base, content: text(message), is_error: true, prev_exist: false, old_content: null, new_content: null };
    }
  }

  #run(
    action: FileEditorAction,
    file: string,
    mask: ToolContext['mask'],
  ): { output: string; prevExist: boolean; old: string | null; new: string | null } {
    const exists = fs.existsSync(file);
    const read = () => {
      if (!exists) throw new EditorError(`${file} does not exist.`);
      if (fs.statSync(file).isDirectory()) throw new EditorError(`${file} is a directory.`);
      return fs.readFileSync(file, 'utf8');
    };
    const write = (old: string | null, content: string) => {
      if (old !== null) this.#history.set(file, [...(this.#history.get(file) ?? []), old]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    };
    switch (action.command) {
      case 'view': {
        if (exists && fs.statSync(file).isDirectory()) return { output: listDirectory(file), prevExist: true, old: null, new: null };
        const content = read();
        const [start = 1, end = -1] = action.view_range ?? [];
        const lines = content.split('\n');
        const shown = lines.slice(start - 1, end === -1 ? undefined : end).join('\n');
        // Masked before the cut: a secret cut in two would no longer be found.
        const output = mask(numbered(shown, start));
        return {
          output:
            output.length > MAX_VIEW_CHARS ? `${output.slice(0, MAX_VIEW_CHARS)}\n[… cut: view a range of lines to see more …]` : output,
          prevExist: true,
          old: null,
          new: null,
        };
      }
      case 'create': {
        if (exists) throw new EditorError(`${file} already exists: create makes new files only; use str_replace to change it.`);
        if (action.file_text === null) throw new EditorError('create needs file_text.');
        write(null, action.file_text);
        return { output: `File created successfully at: ${file}`, prevExist: false, old: null, new: action.file_text };
      }
      case 'str_replace': {
        const content = read();
        if (!action.old_str) throw new EditorError('str_replace needs old_str.');
        const count = content.split(action.old_str).length - 1;
        if (count === 0) throw new EditorError(`No replacement was performed: old_str did not appear verbatim in ${file}.`);
        if (count > 1) throw new EditorError(`No replacement was performed: old_str appears ${count} times in ${file}; make it unique.`);
        const updated = content.replace(action.old_str, () => action.new_str ?? '');
        write(content, updated);
        return { output: `The file ${file} has been edited.`, prevExist: true, old: content, new: updated };
      }
      case 'insert': {
        const content = read();
        const lines = content.split('\n');
        const at = action.insert_line;
        if (at === null || at < 0 || at > lines.length) throw new EditorError(`insert_line must be between 0 and ${lines.length}.`);
        if (action.new_str === null) throw new EditorError('insert needs new_str.');
        const updated = [...lines.slice(0, at), ...action.new_str.split('\n'), ...lines.slice(at)].join('\n');
        write(content, updated);
        return { output: `The file ${file} has been edited (inserted after line ${at}).`, prevExist: true, old: content, new: updated };
      }
      case 'undo_edit': {
        const earlier = this.#history.get(file)?.pop();
        if (earlier === undefined) throw new EditorError(`No edit of ${file} to undo.`);
        const content = read();
        fs.writeFileSync(file, earlier);
        return { output: `The last edit of ${file} was undone.`, prevExist: true, old: content, new: earlier };
      }
    }
  }
}
