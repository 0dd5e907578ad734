import sharp from "sharp";

/** Test images made on the fly: a landscape photo-like gradient so crops and sizes can be checked. */
export async function testPng(width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 144, b: 255 } } })
    .png()
    .toBuffer();
}

/** A JPEG carrying EXIF (camera, copyright, GPS-like text) that the store must strip. */
export async function testJpegWithExif(width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .withExif({ IFD0: { Copyright: "Secret Owner", Make: "TestCam", ImageDescription: "home address 39.9N 116.4E" } })
    .jpeg()
    .toBuffer();
}

/** More than 2 MB that starts like a JPEG (the size check comes before any decoding). */
export function oversizedJpeg(bytes = 3 * 1024 * 1024): Buffer {
  const buffer = Buffer.alloc(bytes, 0x55);
  buffer.set([0xff, 0xd8, 0xff, 0xe0]);
  return buffer;
}

export const htmlFile = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
