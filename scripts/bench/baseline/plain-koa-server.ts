import type { RequestListener, Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../../local-stack/service-process.ts';
import { cannedRoutesFromEnv, portFromEnv } from './canned-routes.ts';

/**
 * The comparison the gateway is held to: Koa + @koa/router + koa-body, the same libraries the
 * gateway is built on, with no auth, logging, ids, headers or metrics. The libraries are the
 * gateway's own copies, loaded through its package (the workspace root does not depend on them).
 */
interface KoaContext {
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;
interface KoaApp {
  use(middleware: KoaMiddleware): KoaApp;
  callback(): RequestListener;
  listen(port: number, host: string, listening: () => void): Server;
}
interface KoaRouter {
  get(path: string, ...middleware: KoaMiddleware[]): KoaRouter;
  post(path: string, ...middleware: KoaMiddleware[]): KoaRouter;
  routes(): KoaMiddleware;
  allowedMethods(): KoaMiddleware;
}

const gatewayRequire = createRequire(join(REPO_ROOT, 'services/gateway/package.json'));
const Koa = gatewayRequire('koa') as new () => KoaApp;
const { Router } = gatewayRequire('@koa/router') as { Router: new () => KoaRouter };
const { koaBody } = gatewayRequire('koa-body') as { koaBody: (options: { jsonLimit: string }) => KoaMiddleware };

const router = new Router();
for (const route of cannedRoutesFromEnv()) {
  const answer = JSON.parse(route.body) as unknown;
  const respond: KoaMiddleware = (ctx) => {
    ctx.body = answer;
  };
  if (route.method === 'GET') router.get(route.path, respond);
  else router.post(route.path, koaBody({ jsonLimit: '1mb' }), respond);
}

const app = new Koa();
app.use(router.routes());
app.use(router.allowedMethods());
const server = app.listen(portFromEnv(), '127.0.0.1', () => console.log('plain koa server listening'));
server.keepAliveTimeout = 5_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
