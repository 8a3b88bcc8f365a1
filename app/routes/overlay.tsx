import { useTranslation } from '#app/i18n/translation'
import type { Route } from './+types/overlay'
import { PageTitle } from '#app/components/page-title'
import { readSessionDares } from '#app/modules/dares/service.server'
import { readCovered } from '#app/modules/realtime/broadcaster.server'
import { OverlayPage } from '#app/modules/overlay/overlay-page'
import { overlayKeyValid } from '#app/modules/overlay/service.server'
import { getSessionById } from '#app/modules/sessions/service.server'
import overlayStylesHref from '#app/styles/overlay.css?url'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: overlayStylesHref }]

/** The OBS overlay: only with the session's key (copied by its creator from the session page); 404 otherwise. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const key = new URL(request.url).searchParams.get('key')
	const found = await queryAsViewer(context, async (tx) => {
		// No such session (nor an id that is not one) before the key is checked: 404 either way.
		const covered = await readCovered(tx)
		const session = await getSessionById(tx, params.sessionId)
		if (!session || !(await overlayKeyValid(tx, session.id, key))) return null
		return { session, dares: await readSessionDares(tx, session.id), covered }
	})
	if (!found) notFound(request)
	return found
}

export default function OverlayRoute({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<>
			<PageTitle title={t('pages.overlay.title')} noindex />
			{/* Without JavaScript the overlay reloads itself. */}
			<noscript>
				<meta httpEquiv="refresh" content="10" />
			</noscript>
			<OverlayPage key={loaderData.session.id} session={loaderData.session} dares={loaderData.dares} covered={loaderData.covered} lang={params.lang} />
		</>
	)
}
