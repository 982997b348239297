import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/processes.ts';

interface WorkspacePackage {
  name: string;
  /** Folder relative to the repository root, e.g. `services/renderer`. */
  folder: string;
  workspaceDependencies: string[];
}

function readWorkspacePackages(): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  for (const parent of ['packages', 'services']) {
    for (const entry of readdirSync(join(REPO_ROOT, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = `${parent}/${entry.name}`;
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      const workspaceDependencies = Object.entries(manifest.dependencies ?? {})
        .filter(([, range]) => range.startsWith('workspace:'))
        .map(([name]) => name);
      packages.set(manifest.name, { name: manifest.name, folder, workspaceDependencies });
    }
  }
  return packages;
}

/** The package and every workspace package its production dependencies reach, as pnpm's `name...` selects. */
export function workspaceClosure(name: string): WorkspacePackage[] {
  const packages = readWorkspacePackages();
  const seen = new Map<string, WorkspacePackage>();
  const visit = (current: string) => {
    const found = packages.get(current);
    if (!found) throw new Error(`${current} is not a workspace package`);
    if (seen.has(current)) return;
    seen.set(current, found);
    found.workspaceDependencies.forEach(visit);
  };
  visit(name);
  return [...seen.values()];
}
