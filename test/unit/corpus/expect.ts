// What a corpus file must read as: written from reading the file, one module per corpus folder (corpus/<folder>.ts),
// gathered by corpus/index.ts for corpus-formats.test.ts.
import type { BytesResult, Session, ToolCall } from '../../../src/core';

export interface Expectation {
  /** Why this adapter reads the file. */
  why: string;
  format: string | undefined;
  sessions: number;
  calls: number;
  results: number;
  /** Names of the calls no result answers (by id, or by position where the format has no ids). */
  unanswered: string[];
  /** Results whose call is not in the session. */
  stray?: number;
  /** Embedded tool definitions (distinct names over all sessions). */
  tools?: number;
  /** `<tool> <signal>=<value>` for each result that carries transport signals, in order. */
  transport?: string[];
  /** `[code line:column tool, reason]`: every finding, in order. */
  findings: [string, string][];
  /** Further facts about this file. */
  extra?: (r: BytesResult, sessions: Session[], pos: (s: number) => string) => void;
}

export function callOf(s: Session, r: Session['results'][number]): ToolCall | undefined {
  if (r.callId !== undefined) return s.calls.find((c) => c.id === r.callId);
  return r.callIndex !== undefined ? s.calls[r.callIndex] : undefined;
}

export const NO_CONTRACT = 'no contract file is given and the trace records no definition for it: reported once per tool';

