import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/creator-agreement'
import { SubmitButton, translateError } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import { requireViewer } from '#app/modules/auth/require-viewer.server'
import { acceptCreatorAgreement, hasCreatorAgreement } from '#app/modules/sessions/service.server'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import { queryAsViewer } from '#app/utils/db.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: sessionsStylesHref }]

export async function loader({ context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	const viewer = context.get(viewerContext)
	const accepted = viewer ? await queryAsViewer(context, (tx) => hasCreatorAgreement(tx, env.CREATOR_AGREEMENT_VERSION)) : false
	return { version: env.CREATOR_AGREEMENT_VERSION, signedIn: viewer !== null, accepted }
}

/** Accept (recorded through give_consent) or decline the current version. */
export async function action({ request, context, params }: Route.ActionArgs) {
	requireViewer(request, context)
	const { env } = context.get(servicesContext)
	const { t } = getInstance(context)
	const back = `/${params.lang}/creator-agreement`
	const intent = (await request.formData()).get('intent')
	if (intent === 'decline') return redirectWithError(back, t('errors.error-creator-agreement-declined'))
	try {
		await queryAsViewer(context, (tx) => acceptCreatorAgreement(tx, env.CREATOR_AGREEMENT_VERSION))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return redirectWithError(back, translateError(t, appError.code))
	}
	return redirectWithSuccess(back, t('pages.creator-agreement.accepted-toast'))
}

const SECTIONS = ['p1', 'p2', 'p3', 'p4'] as const

export default function CreatorAgreementPage({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { version, signedIn, accepted } = loaderData
	return (
		<article className="page narrow-page agreement">
			<PageTitle title={t('pages.creator-agreement.title')} />
			<h1>{t('pages.creator-agreement.title')}</h1>
			<p className="muted">{t('pages.creator-agreement.version', { version })}</p>
			<p className="page__lead">{t('pages.creator-agreement.intro')}</p>
			{SECTIONS.map((s) => (
				<section key={s}>
					<h2>{t(`pages.creator-agreement.${s}-title`)}</h2>
					<p>{t(`pages.creator-agreement.${s}`)}</p>
				</section>
			))}
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
		</article>
	)
}
