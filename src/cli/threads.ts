// What the main thread and the `check` threads (src/cli/worker.ts) say to each other. Plain data only: it is copied.
import type { CallMark, CheckOptions, ContractFile, FileResult, Finding, JsonPath, OffsetMap, Profile } from '../core';
import type { EntrySettings, FileReport } from './entry';
import type { SpoolText } from './spool';

/** A thread's settings, given once when it starts. */
export interface ThreadSettings {
  options: Omit<CheckOptions, 'contracts' | 'keepModel' | 'onSession' | 'fileName'>;
  contracts: { files: ContractFile[]; profile: Profile };
  entry: EntrySettings;
  /** V8 flags the thread sets as it starts (the CLI's `check`: heap-flags.ts); none in the editor. */
  heapFlags?: string[];
}

/** Check a whole file from disk. */
export interface FileJob {
  kind: 'file';
  file: string;
  /** The path the report shows; the path relative to the config's folder (for ignore rules). */
  shown: string;
  rel: string;
  /** The user named it: not being a trace is a warning. */
  wanted: boolean;
}

/** Check some whole lines of a JSONL file on their own. */
export interface SliceJob {
  kind: 'slice';
  /** UTF-8 bytes of whole lines, its first `length` bytes (moved to the thread, and back: SliceReply.bytes);
   *  decoded there. */
  bytes: ArrayBuffer;
  length: number;
  /** Lines of the file before the slice: its diagnostics' lines are the file's. */
  line: number;
  /** The slice starts the file (a BOM there is dropped). */
  first: boolean;
  /** The file's name (as the engine's fileName: what it holds, without `.gz`). */
  name: string;
  rel: string;
}

/** Check a text already read (Check Workspace Contracts reads through the editor): its own options, the
 *  thread's contracts. */
export interface TextJob {
  kind: 'text';
  text: string;
  options: ThreadSettings['options'] & { fileName?: string };
  /** Send the call marks too (the workspace check hands them to the traces view). */
  marks?: boolean;
}

/** Read some consecutive parts of one large document apart (src/cli/document-parts.ts). */
export interface PartsJob {
  kind: 'parts';
  parts: { text: string; map: OffsetMap; path: JsonPath; base: number }[];
  /** As SliceJob's. */
  name: string;
}

export type ThreadJob = FileJob | SliceJob | TextJob | PartsJob;

export interface PartsReply {
  kind: 'parts';
  part: {
    format?: string;
    calls: number;
    /** See FileResult.apart. */
    apart?: { reader: string; keys: string[] };
    /** Offsets of the file: the main thread has its lines. */
    findings: Finding[];
  };
}

export interface SliceReply {
  kind: 'slice';
  part: {
    format?: string;
    calls: number;
    /** See FileResult.alone: the slice read alone reads as it does in the whole file. */
    alone?: string;
    /** See FileResult.apart: the one line reader of the slice and the sessions its lines belong to. */
    apart?: { reader: string; keys: string[] };
    /** In the report's order, as the lines of an ordered spool (the main thread writes them as they are). */
    diagnostics: SpoolText;
  };
  /** The job's buffer, moved back to be filled again: a buffer a thread let go would wait for that thread's next
   *  full collection before its memory is freed (tens of MB of them on a 100 MB trace). */
  bytes?: ArrayBuffer;
}

export type ThreadReply = { kind: 'file'; entry: FileReport } | SliceReply | PartsReply | { kind: 'text'; result: Omit<FileResult, 'model'>; marks?: CallMark[] };

/** A reply, or the one line a job failed with. */
export type ThreadAnswer = (ThreadReply | { kind?: undefined; error: string }) & { id: number };
