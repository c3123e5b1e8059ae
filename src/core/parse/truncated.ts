// A JSON document cut short (a session file still being written, a copy that stopped, an excerpt): what comes
// before the break is read, so its calls are still checked, and the break stays a parse error. The text is kept up
// to the end of the last whole object in the deepest array still open at the parser's first error (a message, an
// event, a call: never the one the break is in, whose arguments would be read half), and the containers open there
// are closed, so every offset of the kept part is the file's own. With no such array (a single object, like a run
// state, cut in a member that holds no list of records), the top-level object keeps its whole members.
import { topDoc, type Doc } from './doc';

const QUOTE = 34;
const BACKSLASH = 92;

interface Open {
  closer: '}' | ']';
  /** 0 key or element, 1 colon, 2 member value, 3 comma or close */
  expecting: number;
  /** An array's: the offset just after its last whole object element, -1 before there is one. */
  lastObject: number;
  /** An object's: the offset just after its last whole member's value, -1 before there is one. */
  lastMember: number;
}

/**
 * The document read up to its last whole object before `stopAt` (the offset of the first error), its open
 * containers closed; undefined when no whole object comes before that offset, or the kept text still is not JSON.
 */
export function keptPrefix(text: string, stopAt: number): Doc | undefined {
  const open = openAt(text, Math.min(stopAt, text.length));
  if (!open) return undefined;
  let level = open.length - 1;
  while (level >= 0 && !(open[level].closer === ']' && open[level].lastObject >= 0)) level--;
  let kept: string;
  if (level >= 0) {
    kept = text.slice(0, open[level].lastObject);
    for (let k = level; k >= 0; k--) kept += open[k].closer;
  } else {
    // no open array holds a whole record: one object (a run state, an agent file) keeps its whole top-level members
    const root = open[0];
    if (!root || root.closer !== '}' || root.lastMember < 0) return undefined;
    kept = text.slice(0, root.lastMember) + '}';
  }
  try {
    return topDoc(kept, 0, JSON.parse(kept));
  } catch {
    return undefined; // the break was not where the text was cut short: nothing is read
  }
}

/** The containers open at `end` (scanning from the start), or undefined when the document closed before it. */
function openAt(text: string, end: number): Open[] | undefined {
  const open: Open[] = [];
  const valueEnded = (at: number) => {
    const top = open[open.length - 1];
    if (!top) return;
    if (top.closer === '}' && top.expecting === 2) top.lastMember = at;
    top.expecting = 3;
  };
  let i = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    const top = open[open.length - 1];
    if (c === QUOTE) {
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j === -1 || j >= end) return open;
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        j++;
      }
      if (top && top.closer === '}' && top.expecting === 0) top.expecting = 1;
      else valueEnded(j + 1);
      i = j + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      open.push({ closer: c === 123 ? '}' : ']', expecting: 0, lastObject: -1, lastMember: -1 });
    } else if (c === 125 || c === 93) {
      const closed = open.pop();
      const parent = open[open.length - 1];
      if (!parent) return undefined; // the document closed: what failed is not a cut
      if (closed?.closer === '}' && parent.closer === ']') parent.lastObject = i + 1;
      valueEnded(i + 1);
    } else if (c === 58) {
      if (top) top.expecting = 2;
    } else if (c === 44) {
      if (top) top.expecting = 0;
    } else if (c > 32) {
      // a number or a literal: skipped to the next delimiter
      let j = i + 1;
      while (j < end) {
        const d = text.charCodeAt(j);
        if (d === 44 || d === 125 || d === 93 || d <= 32) break;
        j++;
      }
      valueEnded(j);
      i = j;
      continue;
    }
    i++;
  }
  return open;
}
