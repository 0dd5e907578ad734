/** Spec section 5/9: images (avatar, logo, cover) are JPG or PNG of at most 2 MB. */
export const maxImageBytes = 2 * 1024 * 1024;
export const acceptedImageTypes = "image/jpeg,image/png";

export function attachmentUrl(fileId: string): string {
  return `/attach/${fileId}`;
}
