import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import type { Route } from './+types/home'
import { PageTitle } from '#app/components/page-title'
import { SessionCard } from '#app/components/session-card'
import { viewerContext } from '#app/context.server'
import type { Locale } from '#app/i18n/locales'
import { getLinkedChannels, listLiveSessions } from '#app/modules/sessions/service.server'
import { StartSessionButton } from '#app/modules/sessions/start-session-button'
import { offerToVisitors } from '#app/modules/shared-pages/shared-render.server'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 64)
	const viewer = context.get(viewerContext)
	const { sessions, channels } = await queryAsViewer(context, async (tx) => ({
		sessions: await listLiveSessions(tx, { channel: q }),
		channels: viewer ? await getLinkedChannels(tx) : [],
	}))
	const ownLive = viewer ? (sessions.find((s) => s.creatorId === viewer.userId) ?? null) : null
	// A visitor's home is every visitor's: shared for SHARED_PAGE_MAX_AGE_MS (a second by default), the live totals that late at most.
	offerToVisitors(context)
	return { sessions, q, locale: params.lang as Locale, signedIn: viewer !== null, channels, ownLive }
}

const HOW = ['how-1', 'how-2', 'how-3'] as const

export default function Home({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { sessions, q, locale, signedIn, channels, ownLive } = loaderData
	const isCreator = channels.length > 0
	return (
		<div className="home">
			<PageTitle title={t('home.title')} />
			<section className="hero">
				<h1>{t('home.heading')}</h1>
				<p className="hero__lead">{t('home.lead')}</p>
			</section>
			{!signedIn ? (
				<section className="how" aria-labelledby="how-title">
					<h2 id="how-title">{t('home.how-title')}</h2>
					<ol className="how__steps">
						{HOW.map((k) => (
							<li key={k}>{t(`home.${k}`)}</li>
						))}
					</ol>
				</section>
			) : null}
			{!ownLive ? (
				<section className="cta" aria-labelledby="cta-title">
					<div>
						<h2 id="cta-title">{t('home.cta-title')}</h2>
						<p>{isCreator || !signedIn ? t('home.cta-text') : t('sessions.not-creator')}</p>
					</div>
					<StartSessionButton channels={channels} lang={locale} signedIn={signedIn} />
				</section>
			) : null}
			<section aria-labelledby="live-now" className="live">
				<div className="live__header">
					<h2 id="live-now">{t('home.live-now')}</h2>
					<Form method="get" role="search" className="search">
						<label htmlFor="channel-search" className="visually-hidden">
							{t('home.search-label')}
						</label>
						<input
							id="channel-search"
							type="search"
							name="q"
							defaultValue={q}
							maxLength={64}
							placeholder={t('home.search-placeholder')}
						/>
						<button type="submit" className="button">
							{t('home.search-submit')}
						</button>
					</Form>
				</div>
				{sessions.length > 0 ? (
					<ul className="session-grid">
						{sessions.map((s) => (
							<SessionCard key={s.id} session={s} locale={locale} />
						))}
					</ul>
				) : q ? (
					<p className="empty">{t('home.no-results', { query: q })}</p>
				) : (
					<div className="empty">
						<h3>{t('home.empty-title')}</h3>
						<p>{t('home.empty-text')}</p>
					</div>
				)}
			</section>
		</div>
	)
}
