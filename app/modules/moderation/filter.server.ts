import type { Queryable } from '#app/db/database.server'
import { builtinTerms } from './terms'

/**
 * Writes the built-in word lists (./terms.ts) into the database, where the
 * text filter reads them (app_private.set_filter_terms: nothing is written
 * when they are already there). At start-up, with the owner connection: the
 * filter is SQL (supabase/schemas/moderation.sql), so a dare written through
 * the Data API meets it too; the lists are data the app ships.
 */
export async function syncFilterTerms(db: Queryable): Promise<number> {
	const terms = builtinTerms()
	await db.query('select app_private.set_filter_terms($1::jsonb)', [JSON.stringify(terms)])
	return terms.length
}
