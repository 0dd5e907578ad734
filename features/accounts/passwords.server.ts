import { hash, verify, type Options } from "@node-rs/argon2";

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). */
// 2 is Algorithm.Argon2id; the enum is a `const enum`, which type stripping cannot inline.
const options = { algorithm: 2 as Options["algorithm"], memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified against when an account does not exist, so a miss costs as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hash("decoy-password-0", options);
  return decoyHash;
}
