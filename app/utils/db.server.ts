import type { RouterContextProvider } from 'react-router'
import { asUser } from '#app/db/as-user.server'
import type { Queryable } from '#app/db/database.server'
import { servicesContext, viewerContext } from '#app/context.server'

/**
 * Run queries as the request's viewer (role `authenticated` with their
 * claims, or `anon`), in one transaction: the same RLS and functions decide
 * here as on Supabase's Data API. The only way routes reach product data.
 */
export function queryAsViewer<T>(context: Readonly<RouterContextProvider>, fn: (tx: Queryable) => Promise<T>): Promise<T> {
	const { db } = context.get(servicesContext)
	const viewer = context.get(viewerContext)
	return asUser(db, viewer?.claims ?? null, fn)
}
