// Where a markdown summary's `file:line` links point: relative to the repository root (a pull-request comment
// resolves them), or, on GitHub Actions, to the file at the commit being checked (a step summary resolves nothing).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { LinkTo } from '../core';

function repoRoot(): string {
  const ws = process.env.GITHUB_WORKSPACE;
  if (ws) return path.resolve(ws);
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export function markdownLinks(): LinkTo {
  const root = repoRoot();
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = process.env;
  const blob = server && repo && sha ? `${server}/${repo}/blob/${sha}/` : '';
  return (file, line) => {
    const rel = path.relative(root, path.resolve(file)).split(path.sep).join('/');
    return { text: `${rel}:${line}`, href: `${blob}${encodeURI(rel)}#L${line}` };
  };
}
