import { data } from 'react-router'
import type { Route } from './+types/session'
import { loadSessionPage, type SessionLookup } from '#app/modules/sessions/page.server'
import { isPlatform } from '#app/modules/sessions/schemas'

/**
 * GET /api/session?id= or ?platform=&channel= (docs/product.md §3.2): part of
 * the session page's data as JSON, `{ session, otherSessions, isCreator,
 * viewerHasLiveSession, shareUrl }`, read as the page's loader reads them
 * (not its dares). 400 without a usable query, 404 when
 * there is no such session.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const query = new URL(request.url).searchParams
	const id = query.get('id')
	const platform = query.get('platform')
	const channel = query.get('channel')
	let lookup: SessionLookup
	if (id) lookup = { id }
	else if (isPlatform(platform) && channel) lookup = { platform, channel }
	else return data({ error: 'error-invalid-session-query' }, { status: 400, headers: { 'Cache-Control': 'no-store' } })
	const page = await loadSessionPage(request, context, lookup)
	if (!page) return data({ error: 'error-live-session-not-found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
	const { session, otherSessions, isCreator, viewerHasLiveSession, shareUrl } = page
	return data({ session, otherSessions, isCreator, viewerHasLiveSession, shareUrl }, { headers: { 'Cache-Control': 'no-store' } })
}
