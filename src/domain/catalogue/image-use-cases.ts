import { notFound } from '../shared/errors.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import type { ImageReader, StoredImage } from './ports.ts';

export interface ImageDeps {
  images: ImageReader;
}

/** The image behind a photo's URL (fileUrl), for anyone who has the URL. */
export async function findImage(deps: ImageDeps, id: RawId): Promise<StoredImage> {
  const image = await deps.images.find(pathId(id, 'File'));
  if (!image) throw notFound('File');
  return image;
}
