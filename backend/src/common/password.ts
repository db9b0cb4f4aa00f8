import { compare, hash } from 'bcryptjs';
import { createHash } from 'node:crypto';

/**
 * bcrypt reads only the first 72 bytes of its input, so a long passphrase is first
 * reduced to a fixed-length SHA-256 digest: every character of it counts.
 */
const prehash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

export const hashPassword = (password: string) => hash(prehash(password), 11);
export const checkPassword = (password: string, passwordHash: string) => compare(prehash(password), passwordHash);
