import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { files } from '#db/schema/index'

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]

/** The type an image really is, from its first bytes (the browser's claim is not trusted). */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], offset = 0) => sig.every((b, i) => bytes[offset + i] === b)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return null
}

export type ImageCheck = { ok: true; bytes: Uint8Array; mime: ImageType } | { ok: false; message: string }

/** Size and content checks shared by every upload form. An empty file input means "no upload". */
export async function readImageUpload(value: FormDataEntryValue | null): Promise<ImageCheck | null> {
  if (!value || typeof value === 'string' || value.size === 0) return null
  if (value.size > MAX_IMAGE_BYTES) return { ok: false, message: 'The image must be 2 MB or smaller.' }
  const bytes = new Uint8Array(await value.arrayBuffer())
  const mime = detectImageType(bytes)
  if (!mime) return { ok: false, message: 'Upload a PNG, JPEG or WebP image.' }
  return { ok: true, bytes, mime }
}

export async function storeImage(
  tx: Tx,
  image: { bytes: Uint8Array; mime: ImageType },
  ownerId: string | null,
) {
  const [row] = await tx
    .insert(files)
    .values({
      mime: image.mime,
      size: image.bytes.byteLength,
      sha256: crypto.createHash('sha256').update(image.bytes).digest('hex'),
      bytes: image.bytes,
      ownerId,
    })
    .returning({ id: files.id })
  return row!.id
}

export async function deleteFile(tx: Tx, id: string) {
  await tx.delete(files).where(eq(files.id, id))
}

export async function getFile(id: string) {
  const [row] = await getDb()
    .select({ mime: files.mime, size: files.size, sha256: files.sha256, bytes: files.bytes })
    .from(files)
    .where(eq(files.id, id))
    .limit(1)
  return row ?? null
}
