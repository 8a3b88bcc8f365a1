import type { RouterContextProvider } from 'react-router'
import { asUser, statementsAsUser } from '#app/db/as-user.server'
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

/**
 * The viewer's one-statement calls (the money calls of the dares), each its
 * own transaction in one round trip: see statementsAsUser.
 */
export function statementsAsViewer(context: Readonly<RouterContextProvider>): Queryable {
	const { db } = context.get(servicesContext)
	return statementsAsUser(db, context.get(viewerContext)?.claims ?? null)
}
