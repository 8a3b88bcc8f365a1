import { useTranslation } from '#app/i18n/translation'
import { useState } from 'react'
import { Link } from 'react-router'
import { useRootData } from '#app/root-data'
import type { LiveSessionState } from '#app/modules/realtime/session-feed'
import { useLiveTopic } from '#app/modules/realtime/use-live'
import { useFirstInteraction } from '#app/utils/use-first-interaction'
import type { Locale } from '#app/i18n/locales'
import type { LiveSession, SessionSummary } from '#app/modules/sessions/service.server'
import { formatCoins } from '#app/modules/shop/format'

/**
 * A live session in a list; with its totals (home), how many dares and coins
 * are in play, kept live: every update of the session carries its totals
 * (session-feed.ts), taken as they come, with no request (for a visitor,
 * from their first use of the page: useFirstInteraction).
 */
export function SessionCard({ session, locale }: { session: SessionSummary & Partial<Pick<LiveSession, 'dareCount' | 'potTotal'>>; locale: Locale }) {
	const { t } = useTranslation()
	const who = useRootData()?.account?.userId ?? 'anon'
	const [totals, setTotals] = useState<LiveSessionState | null>(null)
	const listed = session.dareCount !== undefined && session.potTotal !== undefined
	// A visitor's cards go live once they use the page (a signed-in viewer's header has the socket already).
	const interacted = useFirstInteraction()
	useLiveTopic(listed && (interacted || who !== 'anon') ? `session_updates_${session.id}` : null, 'update', who, (payload) => {
		// The update's checks come with the socket, not with the page.
		void import('#app/modules/realtime/session-feed').then(({ parseSessionUpdate }) => {
			const update = parseSessionUpdate(payload)
			if (update?.sessionData.session) setTotals(update.sessionData.session)
		})
	})
	const dareCount = totals?.dareCount ?? session.dareCount
	const potTotal = totals?.potTotal ?? session.potTotal
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
			{dareCount !== undefined && potTotal !== undefined ? (
				<p className="session-card__totals">
					{t('home.session-totals', { dares: dareCount, coins: formatCoins(locale, potTotal) })}
				</p>
			) : null}
		</li>
	)
}
