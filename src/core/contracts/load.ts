// Reading workspace contract files: Contract Guard's own format, an OpenAI `tools` array, an Anthropic tools
// array with `input_schema`, or an MCP `tools/list` result. A broken file becomes findings on that file.
import { lazyValidator } from '../lazy-validator';
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import contractFileSchema from '../../../schemas/contract.schema.json';
import type { Finding, Span } from '../model';
import { compileSchema, type Profile } from './compile';
import { emptyContracts, type ContractSet, type ToolContract } from './types';
import { behaviourOf } from './annotations';
import { describeParseError } from '../parse/reader';
import { depthExceeded } from '../parse/depth';
import { isPlainObject, type Obj } from '../objects';

/** Deeper than any real schema; deep enough to refuse what would overflow a recursive walker. */
export const MAX_CONTRACT_DEPTH = 1000;

export interface ContractFile {
  path: string;
  text: string;
}

export interface ContractFinding {
  path: string;
  /** JSON pointer of the problem in the file ('' for the whole file). */
  pointer: string;
  finding: Finding;
}

const ownFormatValidator = lazyValidator(contractFileSchema);

interface Entry {
  contract: ToolContract;
  /** JSON path of the arguments schema inside the file, for locating compile errors. */
  argsPath: (string | number)[];
  resultPath: (string | number)[];
}

/** Normalise one tools-array item of any provider's shape. */
function fromToolItem(item: unknown, at: (string | number)[]): Entry | string {
  if (!isPlainObject(item)) return 'a tool definition must be an object';
  const fn = isPlainObject(item.function) ? item.function : item;
  const base = fn === item ? at : [...at, 'function'];
  if (typeof fn.name !== 'string' || fn.name === '') return 'a tool definition needs a "name"';
  // an MCP tool's annotations say whether it changes anything
  const behaviour = behaviourOf(fn.annotations);
  const effects: Partial<ToolContract> = behaviour ? { mutates: behaviour.mutates, ...(behaviour.idempotent ? { idempotent: true } : {}) } : {};
  for (const key of ['parameters', 'input_schema', 'inputSchema']) {
    if (key in fn) {
      const hasOutput = isPlainObject(fn.outputSchema);
      return {
        contract: { name: fn.name, arguments: fn[key], result: hasOutput ? fn.outputSchema : undefined, ...effects },
        argsPath: [...base, key],
        resultPath: [...base, 'outputSchema'],
      };
    }
  }
  return { contract: { name: fn.name, ...effects }, argsPath: base, resultPath: base };
}

function listOf(v: unknown): { list: unknown[]; path: (string | number)[] } | undefined {
  if (Array.isArray(v)) return { list: v, path: [] };
  if (isPlainObject(v) && Array.isArray(v.tools)) return { list: v.tools, path: ['tools'] };
  if (isPlainObject(v) && isPlainObject(v.result) && Array.isArray(v.result.tools)) return { list: v.result.tools, path: ['result', 'tools'] };
  return undefined;
}

function pointerOf(path: (string | number)[]): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function pathOf(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export interface LoadedContracts {
  contracts: ContractSet;
  findings: ContractFinding[];
}

/** Read contract files into one set. Later files add tools; a tool defined twice keeps its first definition. */
export function loadContracts(files: ContractFile[], profile: Profile = 'strict'): LoadedContracts {
  const contracts = emptyContracts();
  const findings: ContractFinding[] = [];
  for (const file of files) readOne(file, profile, contracts, findings);
  return { contracts, findings };
}

function readOne(file: ContractFile, profile: Profile, set: ContractSet, findings: ContractFinding[]): void {
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  // jsonc-parser and the schema walkers recurse: a hostile file nested thousands deep is refused, not parsed.
  const tooDeep = depthExceeded(text, MAX_CONTRACT_DEPTH);
  if (tooDeep !== -1) {
    findings.push({ path: file.path, pointer: '', finding: { code: 'contract-invalid', severity: 'error',
      message: `nested too deeply: more than ${MAX_CONTRACT_DEPTH} levels of brackets`, span: { start: tooDeep, end: tooDeep + 1 } } });
    return;
  }
  const errors: ParseError[] = [];
  let value: unknown;
  let tree: ReturnType<typeof parseTree>;
  try {
    value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    tree = parseTree(text, undefined, { allowTrailingComma: true });
  } catch (e) {
    // the depth scan above counts brackets as JSON does; jsonc-parser's error recovery may nest deeper still
    if (!(e instanceof RangeError)) throw e;
    findings.push({ path: file.path, pointer: '', finding: { code: 'contract-invalid', severity: 'error', message: 'nested too deeply to read', span: { start: 0, end: Math.min(1, text.length) } } });
    return;
  }
  // jsonc-parser assigns keys, so a "__proto__" key becomes a prototype and disappears: plain JSON is read again
  // by JSON.parse, which keeps every key an own property.
  if (!errors.length && text.includes('"__proto__"')) {
    try {
      value = JSON.parse(text);
    } catch {
      // JSONC (comments, trailing commas): keep jsonc-parser's reading
    }
  }
  const spanAt = (path: (string | number)[], key = false): Span => {
    let node = tree && (path.length ? findNodeAtLocation(tree, path) : tree);
    if (node && key && node.parent?.type === 'property') node = node.parent.children?.[0];
    return node ? { start: node.offset, end: node.offset + node.length } : { start: 0, end: Math.min(1, text.length) };
  };
  const report = (pointer: string, message: string, span: Span) =>
    findings.push({ path: file.path, pointer, finding: { code: 'contract-invalid', severity: 'error', message, span } });

  if (errors.length) {
    const e = errors[0];
    report('', `not valid JSON: ${describeParseError(printParseErrorCode(e.error))}`, { start: e.offset, end: e.offset + Math.max(1, e.length) });
    return;
  }
  set.files.push(file.path);
  const entries: Entry[] = [];
  let partial = false;
  if (isPlainObject(value) && isPlainObject(value.tools)) {
    const validateOwnFormat = ownFormatValidator();
    if (!validateOwnFormat(value)) {
      const err = validateOwnFormat.errors![0];
      const extra = (err.params as { additionalProperty?: string }).additionalProperty;
      const path = [...pathOf(err.instancePath), ...(extra ? [extra] : [])];
      const what = extra ? `${extra} is not a contract field` : `${err.instancePath || 'the file'} ${err.message}`;
      report(pointerOf(path), `not a valid contract file: ${what}`, spanAt(path, !!extra));
      return;
    }
    partial = value.partial === true;
    for (const [name, def] of Object.entries(value.tools)) {
      const d = def as Obj;
      entries.push({
        contract: { name, arguments: d.arguments, result: d.result, volatile: d.volatile as boolean | undefined,
          mutates: d.mutates as boolean | string | undefined, envelope: d.envelope as boolean | undefined,
          okExitCodes: d.okExitCodes as number[] | undefined, argumentSources: d.argumentSources as ToolContract['argumentSources'] },
        argsPath: ['tools', name, 'arguments'],
        resultPath: ['tools', name, 'result'],
      });
    }
  } else {
    const found = listOf(value);
    if (!found) {
      report('', 'not a contract file: expected Contract Guard\'s {"tools": {...}}, a tools array (OpenAI or Anthropic), or an MCP tools/list result', spanAt([]));
      return;
    }
    found.list.forEach((item, i) => {
      const at = [...found.path, i];
      const entry = fromToolItem(item, at);
      if (typeof entry === 'string') report(pointerOf(at), entry, spanAt(at));
      else entries.push(entry);
    });
  }
  if (!partial) set.closed = true;
  for (const entry of entries) {
    const c = entry.contract;
    let broken = false;
    for (const [schema, path] of [[c.arguments, entry.argsPath], [c.result, entry.resultPath]] as const) {
      if (schema === undefined) continue;
      const { error, warnings } = compileSchema(schema, profile);
      for (const w of warnings ?? []) {
        const full = [...path, ...(w.pointer ? pathOf(w.pointer) : [])];
        findings.push({ path: file.path, pointer: pointerOf(full), finding: { code: 'contract-invalid', severity: 'warning', message: `${c.name}: ${w.message}`, span: spanAt(full) } });
      }
      if (error) {
        const inner = error.pointer ? pathOf(error.pointer) : [];
        const full = [...path, ...inner];
        report(pointerOf(full), `${c.name}: schema does not compile: ${error.message}`, spanAt(full, inner.length > 0));
        broken = true;
      }
    }
    // A tool whose schema is broken stays known (no unknown-tool storm) but unchecked until the file is fixed.
    const usable = broken ? { ...c, arguments: undefined, result: undefined } : c;
    if (!set.tools.has(c.name)) set.tools.set(c.name, { ...usable, file: file.path, pointer: pointerOf(entry.argsPath) });
  }
}
