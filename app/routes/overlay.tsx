import { useTranslation } from 'react-i18next'
import type { Route } from './+types/overlay'
import { PageTitle } from '#app/components/page-title'
import { getSessionById } from '#app/modules/sessions/service.server'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const session = await queryAsViewer(context, (tx) => getSessionById(tx, params.sessionId))
	if (!session) notFound(request)
	return { session }
}

/** The OBS browser-source page; its live dares and vote arrive with the Live updates issue. */
export default function OverlayPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<section className="overlay" aria-label={t('pages.overlay.title')}>
			<PageTitle title={t('pages.overlay.title')} />
			<h1 className="overlay__title">{loaderData.session.title}</h1>
		</section>
	)
}
