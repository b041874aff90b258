/** Stored images are served by id; every layer spells their URL through this. */
export const fileUrl = (fileId: number | null | undefined): string | null => (fileId ? `/api/files/${fileId}` : null);

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

/** The image type told by the file's first bytes, never by its name or the browser's claim. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && [0x57, 0x45, 0x42, 0x50].every((b, i) => bytes[8 + i] === b))
    return 'image/webp';
  return undefined;
}
