// The limits a check can still meet, each said in one line (exit 2), never a V8 fatal error: a text longer than
// one V8 string can hold, a file over the 2 GiB fs.readFile reads, a thread's heap limit (see pool.ts).
const LIMITS: [RegExp, string][] = [
  [/Invalid string length|Cannot create a string longer|ERR_STRING_TOO_LONG/i, 'a text longer than the ~512 M characters one string can hold'],
  [/ERR_FS_FILE_TOO_LARGE|greater than 2 GiB|File size .* is greater/i, 'a file over the 2 GiB that can be read whole'],
  [/Array buffer allocation failed|Map maximum size exceeded|Set maximum size exceeded|Invalid array length|Invalid typed array length/i, 'more entries or bytes than one table can hold'],
  [/heap out of memory|reaching memory limit|ERR_WORKER_OUT_OF_MEMORY/i, 'more memory than a check thread may use'],
];

/** A one-line description of an error, naming the limit when it is one. */
export function describeLimit(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const text = `${(err as { code?: string }).code ?? ''} ${err.message}`;
  for (const [re, what] of LIMITS) if (re.test(text)) return `limit reached: ${what} (${err.message.split('\n')[0]})`;
  return err.message.split('\n')[0];
}

/** An error that names a limit (the run stops with exit 2 and this line). */
export class LimitError extends Error {}
