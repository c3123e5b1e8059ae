// Credentials never reach a recording: request headers and the query string are kept (they say which API version
// and beta a client used) with every value that names or looks like a secret replaced. One home for the rule, so
// every live recorder (the model proxy, the MCP HTTP wrapper) redacts the same way.

export const REDACTED = '[redacted]';

/** Header or query names that carry credentials (or session state that works like one). */
const SECRET_NAME = /(^|[-_.])(authorization|auth|api[-_]?key|key|token|secret|password|passwd|cookie|session|signature|sig|credential|bearer)s?($|[-_.])|^x-(api|amz|goog)-|apikey|access[-_]?token/i;

/** Values that look like a key whatever their name: `Bearer …`, `Basic …`, provider key prefixes, long random runs. */
const SECRET_VALUE = /^(bearer|basic|token)\s+\S|^(sk|pk|rk|ak|xox[abpr]|ghp|gho|ghs|glpat|hf|AIza|AKIA|ASIA)[-_A-Za-z0-9]{8,}|^[A-Za-z0-9_-]{32,}$|^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/i;

export function isSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim());
}

/** Headers as Node gives them, with secret values replaced; names are kept lower-cased, in their order. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name.toLowerCase()] = isSecret(name, value) ? REDACTED : value;
  }
  return out;
}

/** A request path with its query's secret values replaced (`/v1/x?key=…` → `/v1/x?key=[redacted]`). */
export function redactPath(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return pathAndQuery;
  const parts = pathAndQuery.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    let value = pair.slice(eq + 1);
    try {
      value = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      // a malformed escape is judged as it stands
    }
    return isSecret(decodeSafe(name), value) ? `${name}=${encodeURIComponent(REDACTED)}` : pair;
  });
  return pathAndQuery.slice(0, q + 1) + parts.join('&');
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
