import type { Route } from './+types/session-card'
import { getInstance } from '#app/i18n/i18next.server'
import { sessionCardPng } from '#app/modules/seo/session-card.server'
import { getSessionById } from '#app/modules/sessions/service.server'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'

/** The session page's share card (PNG), in the page's language. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const session = await queryAsViewer(context, (tx) => getSessionById(tx, params.id))
	if (!session) notFound(request)
	const { t } = getInstance(context)
	const png = sessionCardPng({
		status: session.status,
		badge: session.status === 'active' ? t('sessions.live') : t('sessions.ended'),
		platform: t(`platforms.${session.platform}`),
		title: session.title,
		byline: t('sessions.by', { creator: session.creatorName ?? session.channel }),
		tagline: t('sessions.card-tagline'),
	})
	return new Response(new Uint8Array(png), {
		headers: {
			'Content-Type': 'image/png',
			'Content-Length': String(png.length),
			// Crawlers fetch it once per share; it changes only when the session ends.
			'Cache-Control': `public, max-age=${session.status === 'active' ? 300 : 86_400}`,
		},
	})
}
