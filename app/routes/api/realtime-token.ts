import { data } from 'react-router'
import type { Route } from './+types/realtime-token'
import { servicesContext, viewerContext } from '#app/context.server'
import { mintRealtimeToken, realtimeKey } from '#app/modules/realtime/tokens.server'
import { notFound } from '#app/utils/http'

/**
 * GET /api/realtime/token: a short-lived token for the local relay, as the
 * viewer (role `authenticated` with their id and assurance level) or as a
 * visitor (`anon`). The page asks again before it expires. Same-origin only
 * by CORS (no Access-Control headers); never cached.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	if (env.PLATFORM !== 'local' || !env.BETTER_AUTH_SECRET) notFound(request)
	const viewer = context.get(viewerContext)
	const minted = await mintRealtimeToken(realtimeKey(env.BETTER_AUTH_SECRET), viewer?.claims ?? null)
	return data(minted, { headers: { 'Cache-Control': 'no-store' } })
}
