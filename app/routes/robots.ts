import type { Route } from './+types/robots'
import { servicesContext } from '#app/context.server'
import { robotsTxt } from '#app/modules/seo/sitemap.server'

export function loader({ context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	return new Response(robotsTxt(env.APP_URL), {
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	})
}
