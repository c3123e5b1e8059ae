// The messages between the decision table panel (extension host) and its page (webview). Types only: both
// sides import them, neither imports the other. Everything from a trace travels as data, never as markup.
import type { CellStatus, CensusTool, GateCell, GateId, TableRow } from '../core';

export interface TurnItem {
  kind: 'turn';
  /** `t:<session>:<turn>` */
  key: string;
  session: number;
  sessionId?: string;
  turn: number;
  text: string;
  calls: number;
  /** How many of its calls fail a gate. */
  failing: number;
}

/** A gate cell on the page: `pending` while the first screens come from the last check and the table is built. */
export interface PageGateCell extends Omit<GateCell, 'status'> {
  status: CellStatus | 'pending';
}

/** A table row as the page needs it: the core's row without its source spans (the host keeps those). */
export interface RowItem extends Omit<TableRow, 'span' | 'nameSpan' | 'gates'> {
  kind: 'row';
  /** `<session>:<index>` */
  key: string;
  gates: Record<GateId, PageGateCell>;
  /** From the last check, before the table was built: the gates that did not fail are pending. */
  provisional?: boolean;
}

export type Item = TurnItem | RowItem;

export interface TableMeta {
  /** The trace's URI (kept in the page state, so the serializer can restore the panel). */
  uri: string;
  /** The trace's workspace-relative name. */
  name: string;
  format?: string;
  calls: number;
  sessions: number;
  fixtures: number;
  fixturesPending: boolean;
  codes: string[];
  tools: string[];
  gates: { id: GateId; title: string; question: string }[];
  census: CensusTool[];
  other: { code: string; message: string }[];
  /** Items in all, across the chunks that follow. */
  total: number;
  /** Increases with every rebuild (edits, contract changes): the page keeps its scroll and selection across. */
  generation: number;
  /** The rows come from the last check while the table is built (gates that did not fail are pending). */
  provisional?: boolean;
  /** Milliseconds: page ready after the command, the check, the table (kept on the page for measurements). */
  timings: Record<string, number>;
}

export type ToPage =
  | { type: 'table'; meta: TableMeta; items: Item[]; done: boolean }
  | { type: 'rows'; generation: number; items: Item[]; done: boolean }
  | { type: 'highlight'; key: string | undefined }
  | { type: 'scrollTo'; key: string }
  | { type: 'error'; message: string };

export type FromPage =
  | { type: 'ready' }
  | { type: 'reveal'; session: number; index: number }
  | { type: 'copyMarkdown' }
  | { type: 'rendered'; generation: number; rows: number };

/** What the page keeps with `setState` (and the serializer gets back after a reload). */
export interface PageState {
  uri: string;
  scrollTop?: number;
  selected?: string;
  filters?: { code: string; tool: string; failing: boolean; text?: string };
  censusOpen?: boolean;
}
