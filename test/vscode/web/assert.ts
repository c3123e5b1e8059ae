// The slice of node:assert the suites use, for the web worker (no Node built-ins there). esbuild aliases
// `assert` to this file in the web bundle only.
export class AssertionError extends Error {
  override name = 'AssertionError';
}

const show = (v: unknown) => {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

function fail(message: string | undefined, fallback: string): never {
  throw new AssertionError(message ? `${message}: ${fallback}` : fallback);
}

export function ok(value: unknown, message?: string): asserts value {
  if (!value) fail(message, `expected a truthy value, got ${show(value)}`);
}

export function strictEqual<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  if (!Object.is(actual, expected)) fail(message, `expected ${show(expected)}, got ${show(actual)}`);
}

export function notStrictEqual(actual: unknown, expected: unknown, message?: string): void {
  if (Object.is(actual, expected)) fail(message, `expected anything but ${show(expected)}`);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function deepStrictEqual<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  if (!deepEqual(actual, expected)) fail(message, `expected ${show(expected)}, got ${show(actual)}`);
}

export function match(value: string, re: RegExp, message?: string): void {
  if (!re.test(value)) fail(message, `${show(value)} does not match ${re}`);
}

export function doesNotMatch(value: string, re: RegExp, message?: string): void {
  if (re.test(value)) fail(message, `${show(value)} matches ${re}`);
}
