import { useTranslation } from '#app/i18n/translation'
import { Link, type ShouldRevalidateFunction } from 'react-router'
import type { Route } from './+types/start-session'
import { PageTitle } from '#app/components/page-title'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { startSessionAction } from '#app/modules/sessions/actions.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { getLinkedChannels, hasCreatorAgreement } from '#app/modules/sessions/service.server'
import type { StartSessionStatus } from '#app/modules/sessions/start-session-button'
import { StartSessionPageForm } from '#app/modules/sessions/start-session-form'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }

/**
 * /{lang}/start-session: the start-session dialog as a page (without
 * JavaScript), the dialog's action, and what the dialog reads when it opens
 * (StartSessionStatus): the channels, and whether the creator still owes the
 * current creator agreement (a failed lookup counts as owed, docs/product.md §10.5).
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<StartSessionStatus> {
	requireViewer(request, context)
	return queryAsViewer(context, async (tx) => {
		const channels = await getLinkedChannels(tx)
		const needsAgreement = channels.length > 0 && !(await hasCreatorAgreement(tx, currentDocumentVersions().creator_agreement))
		return { channels, needsAgreement }
	})
}

/** Read again after this route's own action only (the dialog's reading would otherwise follow every boost and vote of the page). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
	formAction && !/\/start-session(\?|$)/.test(formAction) ? false : defaultShouldRevalidate

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
					<StartSessionPageForm channels={loaderData.channels} needsAgreement={loaderData.needsAgreement} actionData={actionData} lang={lang} />
				</>
			)}
		</div>
	)
}
