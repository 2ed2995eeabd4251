import { eq } from 'drizzle-orm'
import { getDb } from '#db/client'
import { brands } from '#db/schema/index'
import type { BrandLook } from '#app/components/brand-look'

/**
 * The brand columns a page's own query selects (joined through scheme → company → brand), so the
 * brand comes with the data the page reads anyway rather than in a query of its own.
 */
export const BRAND_LOOK_COLUMNS = {
  brandName: brands.name,
  brandLogoFileId: brands.logoFileId,
  brandPrimaryColor: brands.primaryColor,
  brandAccentColor: brands.accentColor,
  brandCallbackUrl: brands.callbackUrl,
  brandContactEmail: brands.contactEmail,
  brandProfileUrl: brands.profileUrl,
}

export type BrandLookRow = {
  brandName: string | null
  brandLogoFileId: string | null
  brandPrimaryColor: string | null
  brandAccentColor: string | null
  brandCallbackUrl: string | null
  brandContactEmail: string | null
  brandProfileUrl: string | null
}

/** A row carrying {@link BRAND_LOOK_COLUMNS} as a BrandLook (null when the join found no brand). */
export function brandLookOf(row: BrandLookRow | null | undefined): BrandLook | null {
  if (!row?.brandName) return null
  return {
    name: row.brandName,
    logoFileId: row.brandLogoFileId,
    primaryColor: row.brandPrimaryColor ?? '',
    accentColor: row.brandAccentColor ?? '',
    contact: {
      callbackUrl: row.brandCallbackUrl,
      email: row.brandContactEmail,
      profileUrl: row.brandProfileUrl,
    },
  }
}

/** One brand by id, for a page that is given one (the sign-in step of an invitation): null when unknown. */
export async function getBrandLook(id: string): Promise<BrandLook | null> {
  const [row] = await getDb().select(BRAND_LOOK_COLUMNS).from(brands).where(eq(brands.id, id)).limit(1)
  return brandLookOf(row)
}
