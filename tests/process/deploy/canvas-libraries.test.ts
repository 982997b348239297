import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { aptPackages, finalStage, readDockerfile } from '../../support/deploy/dockerfile.ts';
import { BASE_IMAGE_PACKAGES, IMAGES } from '../../support/deploy/images.ts';

/**
 * The Debian packages that provide the shared libraries canvas.node links against, read from the
 * addon built on this machine (Debian 12, like the images). If canvas starts to need another
 * library, the runtime stages must install it or canvas fails to load in the container.
 */
function canvasLibraryPackages(): Map<string, string> {
  const cardRequire = createRequire(join(REPO_ROOT, 'packages/card/package.json'));
  const addon = join(dirname(cardRequire.resolve('canvas/package.json')), 'build/Release/canvas.node');
  const dynamic = execFileSync('readelf', ['-d', addon], { encoding: 'utf8' });
  const sonames = [...dynamic.matchAll(/\(NEEDED\)\s+Shared library: \[(.+?)\]/g)].map((match) => match[1]!);
  const cache = execFileSync('/sbin/ldconfig', ['-p'], { encoding: 'utf8' });
  const packages = new Map<string, string>();
  for (const soname of sonames) {
    const path = new RegExp(`^\\s*${soname.replace(/[.+]/g, '\\$&')} \\(libc6[^)]*\\) => (\\S+)$`, 'm').exec(cache)?.[1];
    if (path === undefined) throw new Error(`${soname} is not in the dynamic linker cache`);
    // dpkg names the real file (or the symlink it shipped); try both, as /lib may be a symlink.
    const owner = [realpathSync(path), path, realpathSync(path).replace(/^\/usr/, '')]
      .map((candidate) => {
        try {
          return execFileSync('dpkg', ['-S', candidate], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        } catch {
          return undefined;
        }
      })
      .find((found) => found !== undefined);
    if (owner === undefined) throw new Error(`no Debian package owns ${path}`);
    packages.set(soname, owner.split(':')[0]!.trim());
  }
  return packages;
}

const needed = canvasLibraryPackages();

for (const image of IMAGES) {
  test(`${image.service}: the runtime stage installs every library canvas.node links against`, (t) => {
    t.true(needed.size >= 5, `readelf found ${needed.size} libraries`);
    const installed = new Set(aptPackages(finalStage(readDockerfile(image.dockerfile))));
    const missing = [...needed].filter(([, owner]) => !installed.has(owner) && !BASE_IMAGE_PACKAGES.has(owner));
    t.deepEqual(missing, [], `needed: ${[...needed].map(([soname, owner]) => `${soname} (${owner})`).join(', ')}`);
  });
}
