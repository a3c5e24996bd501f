// Where forma's interop scripts find the npm packages tools/bootstrap installs (test/npm's
// lockfile): FORMA_NPM_DIR, else build/npm of this repository. Packages are loaded with a
// require() anchored there, so NODE_PATH and the global modules play no part.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const npmDir = path.resolve(process.env.FORMA_NPM_DIR || path.join(here, '..', '..', 'build', 'npm'));
const require = createRequire(path.join(npmDir, 'package.json'));

/// The package `name`; when it is missing, `who` says so on stderr and the process exits 1.
export function loadPackage(name, who) {
  try {
    return require(name);
  } catch (e) {
    process.stderr.write(`${who}: cannot load ${name} from ${npmDir}/node_modules ` +
                         `(set FORMA_NPM_DIR; run tools/bootstrap): ${String(e.message).split("\n")[0]}\n`);
    process.exit(1);
  }
}

/// The file `name` resolves to among those packages.
export function resolvePackage(name) {
  return require.resolve(name);
}
