import { createHash } from 'node:crypto';
import type { OpenApiDocument } from './openapi-document.ts';

/**
 * A self-contained HTML reference rendered from the OpenAPI document: no scripts, no external
 * assets, one inline stylesheet allowed by its hash, so the page can run under a strict CSP.
 */
const STYLE = `
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:60rem;margin:0 auto;padding:2rem 1.25rem;color:#1d2330;background:#fbfbfd}
h1{font-size:1.9rem;margin:.2rem 0}h2{margin-top:2.2rem;border-bottom:1px solid #dde1ea;padding-bottom:.3rem}
h3{margin:0;font-size:1.1rem}code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#eef0f5;padding:.1rem .3rem;border-radius:4px}
pre{background:#1d2330;color:#e9ecf3;padding:.8rem 1rem;border-radius:8px;overflow:auto}pre code{background:none;color:inherit;padding:0}
section.op{background:#fff;border:1px solid #dde1ea;border-radius:10px;padding:1rem 1.2rem;margin:1.2rem 0}
.method{display:inline-block;font:600 12px ui-monospace,monospace;color:#fff;background:#4460d8;border-radius:4px;padding:.15rem .45rem;margin-right:.3rem}
table{border-collapse:collapse;width:100%;margin:.6rem 0}th,td{text-align:left;border-bottom:1px solid #eceef3;padding:.35rem .5rem;vertical-align:top}
th{font-weight:600;color:#4a5268}nav a{margin-right:.8rem}
`;

const DOCS_STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

export const DOCS_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src '${DOCS_STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Just enough Markdown for our own descriptions: paragraphs, `## headings` and `code`. */
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const heading = /^## (.*)$/m.exec(block);
      const inline = (line: string) => escapeHtml(line).replace(/`([^`]+)`/g, '<code>$1</code>');
      if (heading && block.startsWith('## ')) {
        const rest = block.slice(block.indexOf('\n') + 1);
        return `<h2>${inline(heading[1] ?? '')}</h2>${block.includes('\n') ? `<p>${inline(rest)}</p>` : ''}`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  security?: unknown[];
  parameters?: { name: string; required: boolean; description?: string; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { description?: string }>;
}

function schemaType(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'value';
}

function renderOperation(path: string, methods: string[], operation: Operation, serverUrl: string): string {
  const rows = (operation.parameters ?? [])
    .map((parameter) => `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(schemaType(parameter.schema))}</td>` +
      `<td>${parameter.required ? 'yes' : 'no'}</td><td>${markdown(parameter.description ?? '')}</td></tr>`)
    .join('');
  const example = operation.requestBody?.content['application/json']?.example;
  const method = methods[0] ?? 'GET';
  const authHeader = operation.security ? '' : " -H 'Authorization: YOUR_KEY'";
  const curlBody = example === undefined ? '' : ` -H 'Content-Type: application/json' -d '${JSON.stringify(example)}'`;
  const curl = `curl${method === 'GET' ? '' : ` -X ${method}`}${authHeader}${curlBody} '${serverUrl}${path}'`;
  const statuses = Object.entries(operation.responses)
    .map(([status, response]) => `<tr><td><code>${status}</code></td><td>${markdown(response.description ?? "")}</td></tr>`)
    .join('');
  return `<section class="op" id="${escapeHtml(operation.operationId)}">
<h3>${methods.map((name) => `<span class="method">${name}</span>`).join('')}<code>${escapeHtml(path)}</code> — ${escapeHtml(operation.summary)}</h3>
${markdown(operation.description)}
${rows ? `<table><tr><th>Parameter</th><th>Type</th><th>Required</th><th>Meaning</th></tr>${rows}</table>` : ''}
${example === undefined ? '' : `<p>Example body:</p><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`}
<pre><code>${escapeHtml(curl)}</code></pre>
<table><tr><th>Status</th><th>When</th></tr>${statuses}</table>
</section>`;
}

export function renderDocsPage(document: OpenApiDocument): string {
  const serverUrl = document.servers[0]?.url ?? '';
  const sections: string[] = [];
  const links: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const operations = item as Record<string, Operation>;
    const methods = Object.keys(operations).map((method) => method.toUpperCase());
    const first = Object.values(operations)[0];
    if (!first) continue;
    links.push(`<a href="#${escapeHtml(first.operationId)}"><code>${escapeHtml(path)}</code></a>`);
    sections.push(renderOperation(path, methods, first, serverUrl));
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(document.info.title)} — reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(document.info.title)}</h1><p>Version ${escapeHtml(document.info.version)} · machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a></p>
<nav>${links.join(' ')}</nav>
${markdown(document.info.description)}
<h2>Endpoints</h2>
${sections.join('\n')}
</body></html>`;
}
