// The documentation of the built-in contract packs, as markdown: `contract-guard packs` prints it, and the
// README's packs section is this text. One row per pack (what it describes, its version and source), then the
// tools of each with their required arguments.
import { PACKS } from '../contracts/packs';
import { ADAPTERS } from '../formats';

export function packsMarkdown(): string {
  const out: string[] = ['| pack | applies to traces read as | describes | version | written from |', '|---|---|---|---|---|'];
  for (const p of PACKS) {
    const formats = ADAPTERS.filter((a) => a.packs?.includes(p.id)).map((a) => `\`${a.id}\``).join(', ');
    const src = p.describes.commit ? `${p.describes.source} @ \`${p.describes.commit.slice(0, 12)}\`` : p.describes.source;
    out.push(`| \`${p.id}\` | ${formats || '-'} | ${p.describes.project} | ${p.describes.version} | ${src} |`);
  }
  for (const p of PACKS) {
    out.push('', `#### ${p.title} (\`${p.id}\`)`, '');
    const tools = Object.entries(p.tools).map(([name, t]) => {
      const req = ((t.arguments as { required?: string[] }).required ?? []).join(', ');
      const flags = [t.mutates === true ? 'mutating' : typeof t.mutates === 'string' ? `mutates \`${t.mutates}\`` : '', t.volatile ? 'volatile' : ''].filter(Boolean).join(', ');
      return `\`${name}\`${req ? ` (${req})` : ''}${flags ? ` — ${flags}` : ''}`;
    });
    out.push(tools.join('; ') + '.');
    if (p.commandFallback) out.push('', 'Text-action command lines that name no tool of the pack are shell commands (mutating, not parsed).');
    if (p.mcpServer) {
      const agents = PACKS.filter((a) => a.mcpPrefix).map((a) => a.title).join(' and ');
      out.push('', `In ${agents} traces these tools are also checked as \`mcp__${p.mcpServer}__<tool>\` (the server under its usual name).`);
    }
  }
  return out.join('\n') + '\n';
}
