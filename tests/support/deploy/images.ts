/** The two images, with what each runtime stage must agree on. */
export interface ImageSpec {
  service: 'gateway' | 'renderer';
  dockerfile: string;
  /** The workspace package the image runs (`pnpm install --filter <package>...`). */
  workspacePackage: string;
  port: number;
  /** Variables the service reads for its listening port and interface. */
  portVariable: string;
  hostVariable: string;
}

export const IMAGES: readonly ImageSpec[] = [
  {
    service: 'gateway',
    dockerfile: 'docker/gateway.Dockerfile',
    workspacePackage: '@utility-api/gateway',
    port: 3000,
    portVariable: 'PORT',
    hostVariable: 'HOST',
  },
  {
    service: 'renderer',
    dockerfile: 'docker/renderer.Dockerfile',
    workspacePackage: '@utility-api/renderer',
    port: 3001,
    portVariable: 'HEALTH_PORT',
    hostVariable: 'HEALTH_HOST',
  },
];

/** The Node base every stage builds on; the tag pins Node 24 LTS on Debian 12. */
export const NODE_BASE = /^node:24-bookworm-slim(@sha256:[0-9a-f]{64})?$/;

/** Packages of node:*-slim itself (Node links against them), so runtime stages need not list them. */
export const BASE_IMAGE_PACKAGES = new Set(['libc6', 'libstdc++6', 'libgcc-s1']);
