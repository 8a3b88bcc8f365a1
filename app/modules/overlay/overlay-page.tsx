import { useTranslation } from '#app/i18n/translation'
import { useSecondsLeft } from '#app/modules/dares/dares-panel'
import type { DareView } from '#app/modules/dares/service.server'
import { sessionState, useSessionFeed } from '#app/modules/realtime/use-session-feed'
import { formatCoins } from '#app/modules/shop/format'
import type { SessionSummary } from '#app/modules/sessions/service.server'

/** How many running dares the overlay lists (the biggest pots). */
export const OVERLAY_TOP = 3

/**
 * The OBS overlay (docs/product.md §5.7): a transparent browser
 * source with the running vote (countdown and tallies) and the top dares by
 * pot, large enough for 1080p, with no controls. Live like the session page
 * (its updates applied without a request); without JavaScript the page
 * reloads itself (a <noscript> refresh).
 */
export function OverlayPage({ session, lang, ...data }: { session: SessionSummary; dares: DareView[]; covered: number; lang: string }) {
	const { t } = useTranslation()
	const { view } = useSessionFeed(
		{ sessionId: session.id, session: sessionState(session.status, data.dares), dares: data.dares, covered: data.covered },
		'anon',
		session.status === 'active',
	)
	const dares = view.dares
	const voting = dares.find((d) => d.status === 'voting' && d.votingEndsAt)
	const top = dares.filter((d) => d.status === 'open' || d.status === 'accepted').slice(0, OVERLAY_TOP)
	return (
		<section className="overlay" aria-label={t('pages.overlay.title')}>
			<h1 className="visually-hidden">{session.title}</h1>
			{voting ? <OverlayVote dare={voting} lang={lang} /> : null}
			{top.length > 0 ? (
				<ol className="overlay__dares">
					{top.map((dare) => (
						<li key={dare.id} className="overlay__dare">
							<span className="overlay__pot">◎ {formatCoins(lang, dare.pot)}</span>
							<span className="overlay__text">{dare.description}</span>
						</li>
					))}
				</ol>
			) : null}
			{!voting && top.length === 0 ? <p className="overlay__empty">{t('overlay.empty')}</p> : null}
		</section>
	)
}

function OverlayVote({ dare, lang }: { dare: DareView; lang: string }) {
	const { t } = useTranslation()
	const seconds = useSecondsLeft(dare.votingEndsAt!)
	const total = dare.yesVotes + dare.noVotes
	const yesShare = total === 0 ? 50 : Math.round((dare.yesVotes / total) * 100)
	return (
		<div className="overlay__vote">
			<p className="overlay__label">
				{t('overlay.vote')} · <span suppressHydrationWarning>{`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`}</span>
			</p>
			<p className="overlay__text">{dare.description}</p>
			<div className="overlay__tally" aria-hidden="true">
				<span style={{ width: `${yesShare}%` }} />
			</div>
			<p className="overlay__label">
				{t('dares.tally', { yes: dare.yesVotes, no: dare.noVotes })} · ◎ {formatCoins(lang, dare.pot)}
			</p>
		</div>
	)
}
