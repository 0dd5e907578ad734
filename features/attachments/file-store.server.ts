import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";

/**
 * Where uploaded bytes live, by key (the attachment's file id). The local store below keeps them
 * under DATA_DIR/uploads; an S3-compatible store implements the same three calls (PutObject,
 * GetObject, DeleteObject) when several machines serve the site.
 */
export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are file ids: base64url only, so a key can never name a path outside the store. */
export function isValidFileKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(key);
}

function checkedKey(key: string): string {
  if (!isValidFileKey(key)) throw new Error(`invalid file key ${JSON.stringify(key)}`);
  return key;
}

/** Files on local disk, spread over 64² folders by the key's first two characters. */
export class LocalFileStore implements FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    checkedKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  /** The type is not needed on disk: the attachment row holds it. */
  async put(key: string, bytes: Buffer, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file.
    const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, bytes, { mode: 0o640 });
    await rename(temporary, target);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
