import { useTranslation } from '#app/i18n/translation'
import { Link } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import type { LiveSession, SessionSummary } from '#app/modules/sessions/service.server'
import { formatCoins } from '#app/modules/shop/format'

/** A live session in a list; with its totals (home), how many dares and coins are in play. */
export function SessionCard({ session, locale }: { session: SessionSummary & Partial<Pick<LiveSession, 'dareCount' | 'potTotal'>>; locale: Locale }) {
	const { t } = useTranslation()
	return (
		<li className="session-card">
			<p className="session-card__meta">
				<span className={`platform platform--${session.platform}`}>{t(`platforms.${session.platform}`)}</span>
				<span className="live-dot" aria-hidden="true" />
				<span>{session.channel}</span>
			</p>
			<h3 className="session-card__title">
				<Link to={`/${locale}/${session.platform}/${encodeURIComponent(session.channel)}`}>{session.title}</Link>
			</h3>
			{session.creatorName ? (
				<p className="session-card__creator">{t('home.session-by', { creator: session.creatorName })}</p>
			) : null}
			{session.dareCount !== undefined && session.potTotal !== undefined ? (
				<p className="session-card__totals">
					{t('home.session-totals', { dares: session.dareCount, coins: formatCoins(locale, session.potTotal) })}
				</p>
			) : null}
		</li>
	)
}
