import type { Route } from './+types/sitemap'
import { servicesContext } from '#app/context.server'
import { sitemapXml } from '#app/modules/seo/sitemap.server'

export async function loader({ context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	// The live session pages join here as a SitemapSource once the sessions module offers one.
	return new Response(await sitemapXml(env.APP_URL), {
		headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	})
}
