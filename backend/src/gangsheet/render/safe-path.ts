import * as fs from 'fs';
import * as path from 'path';

/** A design path that resolves (directly or through a symlink) outside the storage root. */
export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Resolves `p` (absolute, or relative to `root`) and returns its real path, refusing
 * anything that ends up outside `root`. Both the lexical path and the real path (after
 * symlinks) are checked, so `../x` and a symlink pointing out of storage are both refused.
 */
export async function resolveInsideRoot(root: string, p: string): Promise<string> {
  if (typeof p !== 'string' || p.length === 0 || p.includes('\0')) throw new UnsafePathError('invalid design path');
  const realRoot = await fs.promises.realpath(path.resolve(root));
  const abs = path.resolve(realRoot, p);
  if (!inside(realRoot, abs)) throw new UnsafePathError(`path "${p}" is outside the storage root`);
  let real: string;
  try {
    real = await fs.promises.realpath(abs);
  } catch {
    throw new Error(`design file not found: ${path.relative(realRoot, abs)}`);
  }
  if (!inside(realRoot, real)) throw new UnsafePathError(`path "${p}" is outside the storage root`);
  return real;
}
