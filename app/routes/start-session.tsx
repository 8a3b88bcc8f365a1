import { useTranslation } from '#app/i18n/translation'
import { Link } from 'react-router'
import type { Route } from './+types/start-session'
import { PageTitle } from '#app/components/page-title'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { startSessionAction } from '#app/modules/sessions/actions.server'
import { getLinkedChannels } from '#app/modules/sessions/service.server'
import { StartSessionPageForm } from '#app/modules/sessions/start-session-form'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import { queryAsViewer } from '#app/utils/db.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: sessionsStylesHref }]

/** /{lang}/start-session: the start-session dialog as a page (without JavaScript, and the dialog's action). */
export async function loader({ request, context }: Route.LoaderArgs) {
	requireViewer(request, context)
	const channels = await queryAsViewer(context, (tx) => getLinkedChannels(tx))
	return { channels }
}

export function action({ request, context, params }: Route.ActionArgs) {
	return startSessionAction(request, context, params.lang as Locale)
}

export default function StartSessionRoute({ loaderData, actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const lang = params.lang as Locale
	return (
		<div className="narrow-page">
			<PageTitle title={t('sessions.start-title')} />
			<h1>{t('sessions.start-title')}</h1>
			{loaderData.channels.length === 0 ? (
				<div className="panel" role="alert">
					<h2>{t('errors.error-not-a-creator')}</h2>
					<p>{t('sessions.not-creator')}</p>
					<Link className="button button--primary" to={`/${lang}/settings/channels`}>
						{t('sessions.link-channels')}
					</Link>
				</div>
			) : (
				<>
					<p className="muted">{t('sessions.start-description')}</p>
					<StartSessionPageForm channels={loaderData.channels} actionData={actionData} lang={lang} />
				</>
			)}
		</div>
	)
}
