import type { Logger } from '@utility-api/infra';
import type { ParameterizedContext } from 'koa';
import type { ApiKeyIdentity } from '../auth/api-key-store.ts';

/** What middleware leaves on `ctx.state` for later middleware and handlers. */
export interface GatewayState {
  requestId: string;
  log: Logger;
  /** `performance.now()` at arrival. */
  receivedAt: number;
  apiKey?: ApiKeyIdentity;
}

export type GatewayContext = ParameterizedContext<GatewayState>;
