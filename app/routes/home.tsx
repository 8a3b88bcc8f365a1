import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/home'
import { PageTitle } from '#app/components/page-title'
import { SessionCard } from '#app/components/session-card'
import type { Locale } from '#app/i18n/locales'
import { listLiveSessions } from '#app/modules/sessions/service.server'
import { queryAsViewer } from '#app/utils/db.server'

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const q = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 64)
	const sessions = await queryAsViewer(context, (tx) => listLiveSessions(tx, { channel: q }))
	return { sessions, q, locale: params.lang as Locale }
}

export default function Home({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { sessions, q, locale } = loaderData
	return (
		<div className="home">
			<PageTitle title={t('home.title')} />
			<section className="hero">
				<h1>{t('home.heading')}</h1>
				<p className="hero__lead">{t('home.lead')}</p>
			</section>
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
				) : (
					<p className="empty">{q ? t('home.no-results', { query: q }) : t('home.no-live')}</p>
				)}
			</section>
		</div>
	)
}
