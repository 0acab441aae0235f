/**
 * Splits the text of a JSON array of objects, as it arrives, into each object's text the moment
 * its closing brace does: a streamed array (`[\n{…},\n{…}]`) gives its latest element without
 * waiting for the separator or the element after it.
 */
export class JsonArraySplitter {
  #text = '';
  #scanned = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #start = -1;

  /** The elements that `chunk` completed, as text, in order. */
  push(chunk: string): string[] {
    this.#text += chunk;
    const elements: string[] = [];
    for (let i = this.#scanned; i < this.#text.length; i++) {
      const char = this.#text[i];
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (char === '\\') this.#escaped = true;
        else if (char === '"') this.#inString = false;
      } else if (char === '"') {
        this.#inString = true;
      } else if (char === '{' || char === '[') {
        this.#depth++;
        if (this.#depth === 2) this.#start = i;
      } else if (char === '}' || char === ']') {
        this.#depth--;
        if (this.#depth === 1 && this.#start >= 0) {
          elements.push(this.#text.slice(this.#start, i + 1));
          this.#start = -1;
        }
      }
    }
    // Only an element under way is kept: what came before it has been read.
    const keepFrom = this.#start >= 0 ? this.#start : this.#text.length;
    this.#text = this.#text.slice(keepFrom);
    if (this.#start >= 0) this.#start = 0;
    this.#scanned = this.#text.length;
    return elements;
  }
}
