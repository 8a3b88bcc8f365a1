import { useTranslation } from '#app/i18n/translation'
import { Form, Link } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/creator-agreement'
import { SubmitButton } from '#app/components/forms'
import { translateError } from '#app/i18n/errors'
import { LegalDocument } from '#app/components/legal-document'
import { viewerContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { currentDocumentVersions, legalPage } from '#app/modules/legal/documents.server'
import { acceptCreatorAgreement, hasCreatorAgreement } from '#app/modules/sessions/service.server'
import { offerToVisitors } from '#app/modules/shared-pages/shared-render.server'
import legalStylesHref from '#app/styles/legal.css?url'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'

export const handle: StylesheetsHandle = { stylesheets: [legalStylesHref, sessionsStylesHref] }

export async function loader({ context, params }: Route.LoaderArgs) {
	const viewer = context.get(viewerContext)
	const version = currentDocumentVersions().creator_agreement
	const accepted = viewer ? await queryAsViewer(context, (tx) => hasCreatorAgreement(tx, version)) : false
	offerToVisitors(context)
	// The language prefix is checked by the :lang layout's middleware.
	return { document: legalPage('creator-agreement', params.lang as Locale), signedIn: viewer !== null, accepted }
}

/** Accept (recorded through give_consent) or decline the current version. */
export async function action({ request, context, params }: Route.ActionArgs) {
	requireViewer(request, context)
	const { t } = getInstance(context)
	const back = `/${params.lang}/creator-agreement`
	const intent = (await request.formData()).get('intent')
	if (intent === 'decline') return redirectWithError(back, t('errors.error-creator-agreement-declined'))
	try {
		await queryAsViewer(context, (tx) => acceptCreatorAgreement(tx, currentDocumentVersions().creator_agreement))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return redirectWithError(back, translateError(t, appError.code))
	}
	return redirectWithSuccess(back, t('pages.creator-agreement.accepted-toast'))
}

export default function CreatorAgreementPage({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { document, signedIn, accepted } = loaderData
	return (
		<LegalDocument
			title={t('pages.creator-agreement.title')}
			description={t('pages.creator-agreement.lead')}
			document={document}
			after={
				<div className="panel agreement__answer">
					{!signedIn ? (
						<Link to={`/${params.lang}/login?redirectTo=${encodeURIComponent(`/${params.lang}/creator-agreement`)}`}>
							{t('pages.creator-agreement.sign-in')}
						</Link>
					) : accepted ? (
						<p role="status">{t('pages.creator-agreement.accepted')}</p>
					) : (
						<Form method="post" className="actions">
							<SubmitButton intent="decline" className="button button--ghost">
								{t('pages.creator-agreement.decline')}
							</SubmitButton>
							<SubmitButton intent="accept">{t('pages.creator-agreement.accept')}</SubmitButton>
						</Form>
					)}
				</div>
			}
		/>
	)
}
