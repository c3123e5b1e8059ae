// A checked trace's findings grouped by the call they concern, after the severity settings (a code switched off
// counts for nothing): what the outline's marker, the lenses and the traces view say about one call.
import * as vscode from 'vscode';
import type { Finding } from '../core';
import { severityOf, type SeverityMap } from './convert';

export interface CallVerdict {
  /** The most severe level among the call's shown findings. */
  worst: vscode.DiagnosticSeverity;
  codes: string[];
  count: number;
}

export const callKey = (session: number, index: number) => `${session}:${index}`;

export function verdictsByCall(findings: readonly Finding[], map: SeverityMap): Map<string, CallVerdict> {
  const out = new Map<string, CallVerdict>();
  for (const f of findings) {
    if (f.callIndex === undefined) continue;
    const s = severityOf(f, map);
    if (s === undefined) continue;
    const key = callKey(f.session ?? 0, f.callIndex);
    const v = out.get(key);
    if (!v) out.set(key, { worst: s, codes: [f.code], count: 1 });
    else {
      v.count++;
      if (s < v.worst) v.worst = s;
      if (!v.codes.includes(f.code)) v.codes.push(f.code);
    }
  }
  return out;
}

/** The marker the outline and the traces view put before a call's codes. */
export function marker(v: CallVerdict | undefined): string {
  if (!v) return '✓';
  return v.worst === vscode.DiagnosticSeverity.Error ? '✗' : v.worst === vscode.DiagnosticSeverity.Warning ? '⚠' : 'ℹ';
}
