import { useTranslation } from 'react-i18next'
import type { SessionSummary } from '#app/modules/sessions/service.server'
import { PageTitle } from './page-title'

const WATCH_URL: Record<SessionSummary['platform'], (channel: string) => string> = {
	twitch: (c) => `https://www.twitch.tv/${encodeURIComponent(c)}`,
	youtube: (c) => `https://www.youtube.com/@${encodeURIComponent(c)}/live`,
	kick: (c) => `https://kick.com/${encodeURIComponent(c)}`,
}

/** The session page's header: what is live, where, and on which terms. Dares come with the Dares issue. */
export function SessionView({ session, notLive }: { session: SessionSummary; notLive: boolean }) {
	const { t } = useTranslation()
	return (
		<article className="session">
			<PageTitle title={session.title} />
			{notLive ? (
				<p className="notice" role="status">
					{t('pages.session.not-live')}
				</p>
			) : null}
			<p className="session__meta">
				<span className={`badge badge--${session.status}`}>
					{session.status === 'active' ? t('pages.session.status-active') : t('pages.session.status-ended')}
				</span>
				<span className={`platform platform--${session.platform}`}>{t(`platforms.${session.platform}`)}</span>
				<span>{session.channel}</span>
			</p>
			<h1>{session.title}</h1>
			{session.creatorName ? <p>{t('home.session-by', { creator: session.creatorName })}</p> : null}
			<ul className="session__terms">
				<li>{t('pages.session.min-boost', { amount: session.minBoost })}</li>
				<li>{t('pages.session.voting-duration', { seconds: session.votingDuration })}</li>
			</ul>
			<p>
				<a href={WATCH_URL[session.platform](session.channel)} target="_blank" rel="noreferrer">
					{t('pages.session.watch-on', { platform: t(`platforms.${session.platform}`) })}
				</a>
			</p>
		</article>
	)
}
