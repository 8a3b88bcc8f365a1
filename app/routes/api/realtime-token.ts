import { data } from 'react-router'
import type { Route } from './+types/realtime-token'
import { servicesContext, viewerContext } from '#app/context.server'
import { mintRealtimeToken, realtimeKey } from '#app/modules/realtime/tokens.server'
import { notFound } from '#app/utils/http'

/**
 * GET /api/realtime/token: the token the page's realtime client joins with.
 * Local: a short-lived token for the app's relay, as the viewer (role
 * `authenticated` with their id and assurance level) or as a visitor
 * (`anon`). Supabase: the signed-in user's access token, or none for a
 * visitor (realtime-js then uses the project's anon key). The page asks again
 * before it expires. Same-origin only by CORS (no Access-Control headers);
 * never cached.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	const viewer = context.get(viewerContext)
	if (env.PLATFORM === 'supabase') {
		const exp = Number(viewer?.claims.exp)
		const minted = viewer?.accessToken && Number.isFinite(exp) ? { token: viewer.accessToken, expiresAt: exp * 1000 } : { token: null, expiresAt: Date.now() + 60 * 60 * 1000 }
		return data(minted, { headers: { 'Cache-Control': 'no-store' } })
	}
	if (!env.BETTER_AUTH_SECRET) notFound(request)
	const minted = await mintRealtimeToken(realtimeKey(env.BETTER_AUTH_SECRET), viewer?.claims ?? null)
	return data(minted, { headers: { 'Cache-Control': 'no-store' } })
}
