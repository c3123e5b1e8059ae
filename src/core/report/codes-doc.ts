// The documentation of every diagnostic code, as markdown: the README's section is this text (a test keeps the
// two equal), and `contract-guard codes` prints it.
import { CODES } from '../checks';

export function codesMarkdown(): string {
  const out: string[] = ['| code | default | meaning |', '|---|---|---|'];
  for (const c of Object.values(CODES)) out.push(`| [\`${c.code}\`](#${c.code}) | ${c.severity} | ${c.title} |`);
  for (const c of Object.values(CODES)) {
    out.push('', `### ${c.code}`, '', `Default severity: **${c.severity}**. ${c.description}`);
    if (c.example) out.push('', '```jsonc', `// ${c.example.message}`, c.example.input, '```');
  }
  return out.join('\n') + '\n';
}
