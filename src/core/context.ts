// The one way to build a checked session's context: the contracts that apply (workspace files, the definitions
// the trace recorded, the built-in packs of its format), the profile and the volatile tools. The engine builds it
// for the checks and hands it on with the session (`CheckedSession.context`), so the decision table, the census,
// freeze and compare read a session with exactly the contracts `check` held it to.
import { SessionContext, type PendingFinding, type Segment } from './checks/check';
import type { Profile } from './contracts/compile';
import { packContracts, type PackSelection } from './contracts/packs';
import { emptyContracts, type ContractSet } from './contracts/types';
import { adapterById } from './formats';
import type { Session } from './model';

export interface ContextSettings {
  contracts?: ContractSet;
  profile?: Profile;
  /** Tools whose repeats are expected, besides those a contract marks `volatile`. */
  volatileTools?: Iterable<string>;
  /** Which built-in packs are on (default: all). */
  packs?: PackSelection;
}

const ignore = (): void => undefined;

/** The context of one session of `format`. `packIds`: the packs it was judged with when its format no longer says
 *  (a frozen fixture records them); `report`: where the checks' findings go (ignored when only reading);
 *  `segment`: the session's place when it is checked in segments (state.ts). */
export function sessionContext(session: Session, format: string, settings: ContextSettings = {}, report: (f: PendingFinding) => void = ignore, packIds?: readonly string[], segment?: Segment): SessionContext {
  // packContracts keeps what it built per selection: a JSONL of conversations makes a context per line
  const packs = packContracts(packIds ?? adapterById(format)?.packs, settings.packs);
  const volatile = settings.volatileTools instanceof Set ? (settings.volatileTools as ReadonlySet<string>) : new Set(settings.volatileTools ?? []);
  return new SessionContext(session, format, settings.contracts ?? emptyContracts(), settings.profile ?? 'strict', report, volatile, packs, segment);
}
