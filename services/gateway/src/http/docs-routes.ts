import type { Router } from '@koa/router';
import type { GatewayState } from './gateway-state.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../openapi/docs-page.ts';

export interface PublishedDocs {
  openApiJson: string;
  html: string;
}

/** The reference is public and rendered once at boot; it only changes with a deploy. */
export function mountDocsRoutes(router: Router<GatewayState>, docs: PublishedDocs): void {
  router.get('/v1/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/json';
    ctx.body = docs.openApiJson;
  });
  router.get('/docs', (ctx) => {
    ctx.set({ 'Cache-Control': 'public, max-age=300', 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY });
    ctx.type = 'text/html';
    ctx.body = docs.html;
  });
}
