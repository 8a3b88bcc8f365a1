import type { Queryable } from '#app/db/database.server'

/**
 * Whether the viewer has a creator profile (docs/product.md §2.3): the
 * header then links their earnings page. Read as the viewer (RLS shows only
 * their own profile).
 */
export async function hasCreatorProfile(tx: Queryable): Promise<boolean> {
	const { rows } = await tx.query<{ creator: boolean }>('select exists (select 1 from public.creator_profiles where id = auth.uid()) as creator')
	return rows[0]?.creator === true
}
