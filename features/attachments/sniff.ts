/** Image types we accept (spec section 5: JPG or PNG), told by their first bytes, never by a name or a header. */
export type ImageType = "image/jpeg" | "image/png";

const signatures: { type: ImageType; bytes: number[] }[] = [
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  for (const signature of signatures) {
    if (bytes.length >= signature.bytes.length && signature.bytes.every((byte, index) => bytes[index] === byte)) return signature.type;
  }
  return null;
}
