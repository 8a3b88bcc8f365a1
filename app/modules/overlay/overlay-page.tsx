import { Fragment, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { useSecondsLeft } from '#app/modules/dares/dares-panel'
import type { DareView } from '#app/modules/dares/service.server'
import { sessionState, useSessionFeed } from '#app/modules/realtime/use-session-feed'
import { formatCoins } from '#app/modules/shop/format'
import type { SessionSummary } from '#app/modules/sessions/service.server'
import { alertDuration, alertsBetween, enqueue, marksOf, type DareMark, type OverlayAlert } from './alerts'
import type { OverlayOptions } from './options'
import type { TopBooster } from './service.server'

/** How many running dares the overlay lists (the biggest pots). */
export const OVERLAY_TOP = 3

/** The top boosters are read again at most this often while coins move (they travel on no topic). */
export const TOP_REREAD_EVERY_MS = 15_000
/** …and this long after the first change, so that a burst of boosts costs one read. */
export const TOP_REREAD_AFTER_MS = 3_000

/** Where viewers join, as the loader drew it: the address's text and its QR code, each null when turned off. */
export interface OverlayJoin {
	label: string | null
	qr: { size: number; path: string } | null
}

export interface OverlayPageProps {
	session: SessionSummary
	dares: DareView[]
	covered: number
	lang: string
	options: OverlayOptions
	/** Null: turned off, or a database without the function (nothing shown). */
	topBoosters: TopBooster[] | null
	join: OverlayJoin | null
	/** The channel page's address as the empty state names it (also when the join card is off). */
	address: string
}

/**
 * The OBS overlay (docs/product.md §5.7): a transparent browser source,
 * large enough for 1080p, with no controls. At the bottom left the running
 * vote (with a large countdown) and the top dares by pot; at the bottom
 * right the session's top boosters and where to join (address and QR code);
 * at the top, one alert at a time for a new dare, a boost, a result. Each
 * part can be turned off in the address (options.ts). Live like the session
 * page (its updates applied without a request); without JavaScript the page
 * reloads itself (a <noscript> refresh) and shows no alerts.
 */
export function OverlayPage({ session, lang, options, topBoosters, join, address, ...data }: OverlayPageProps) {
	const { t } = useTranslation()
	const { view, reread } = useSessionFeed(
		{ sessionId: session.id, session: sessionState(session.status, data.dares), dares: data.dares, covered: data.covered },
		'anon',
		session.status === 'active',
	)
	const dares = view.dares
	const alert = useOverlayAlerts(dares, options.alerts)
	useTopBoostersReread(dares, options.top && topBoosters !== null, reread)
	const voting = dares.find((d) => d.status === 'voting' && d.votingEndsAt)
	const top = options.dares ? dares.filter((d) => d.status === 'open' || d.status === 'accepted').slice(0, OVERLAY_TOP) : []
	const boosters = options.top && topBoosters && topBoosters.length > 0 ? topBoosters : null
	const shownVote = voting && (options.vote || options.countdown) ? voting : null
	return (
		<section className="overlay" aria-label={t('pages.overlay.title')}>
			<h1 className="visually-hidden">{session.title}</h1>
			{options.alerts ? (
				<div className="overlay__alerts" role="status" aria-label={t('overlay-show.alerts-label')}>
					{alert ? <OverlayAlertCard key={alert.id} alert={alert} lang={lang} /> : null}
				</div>
			) : null}
			<div className="overlay__main">
				{shownVote ? <OverlayVote dare={shownVote} lang={lang} card={options.vote} countdown={options.countdown} /> : null}
				{top.length > 0 ? (
					<ol className="overlay__dares" aria-label={t('overlay-show.dares-label')}>
						{top.map((dare) => (
							<li key={dare.id} className="overlay__dare">
								<span className="overlay__pot">◎ {formatCoins(lang, dare.pot)}</span>
								<span className="overlay__text">{dare.description}</span>
							</li>
						))}
					</ol>
				) : null}
				{/* Nothing running yet: say where to dare (the join card says it too, when shown). */}
				{!voting && top.length === 0 && options.dares ? (
					<p className="overlay__empty">{t('overlay.empty', { address })}</p>
				) : null}
			</div>
			{boosters || join ? (
				<div className="overlay__side">
					{boosters ? <OverlayTopBoosters boosters={boosters} lang={lang} /> : null}
					{join ? <OverlayJoinCard join={join} /> : null}
				</div>
			) : null}
		</section>
	)
}

/**
 * The alert on screen, from the changes of the shown dares since the first
 * render (the loader's data announces nothing). Compared during render, as
 * the feed's data changes; each alert stays alertDuration, then the next.
 */
function useOverlayAlerts(dares: DareView[], enabled: boolean): OverlayAlert | null {
	const [seen, setSeen] = useState<{ dares: DareView[]; marks: Map<string, DareMark>; serial: number }>(() => ({ dares, marks: marksOf(dares), serial: 0 }))
	const [queue, setQueue] = useState<OverlayAlert[]>([])
	if (seen.dares !== dares) {
		const found = enabled ? alertsBetween(seen.marks, dares) : []
		const numbered = found.map((a, i) => ({ ...a, id: `${seen.serial + i}` }) as OverlayAlert)
		setSeen({ dares, marks: marksOf(dares), serial: seen.serial + found.length })
		if (numbered.length > 0) setQueue((q) => enqueue(q, numbered))
	}
	const head = queue[0] ?? null
	const waiting = queue.length
	useEffect(() => {
		if (!head) return
		const timer = setTimeout(() => setQueue((q) => (q[0]?.id === head.id ? q.slice(1) : q)), alertDuration(waiting))
		return () => clearTimeout(timer)
		// A boost added to the alert on screen (same id) keeps its time; a longer queue does not restart it either.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [head?.id])
	return head
}

/**
 * Who boosted how much travels on no topic (docs/product.md §11.7), so the
 * overlay reads its data again when coins moved in its dares: once a few
 * seconds after the first change, then at most every TOP_REREAD_EVERY_MS.
 * The data read back leaves the dares as they were (nothing more to do).
 */
function useTopBoostersReread(dares: DareView[], enabled: boolean, reread: () => void) {
	const signature = useMemo(() => dares.map((d) => `${d.id}:${d.status}:${d.pot}`).join(','), [dares])
	const last = useRef(signature)
	const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
	const lastRead = useRef(0)
	useEffect(() => {
		if (signature === last.current) return
		last.current = signature
		if (!enabled || timer.current) return
		const wait = Math.max(TOP_REREAD_AFTER_MS, lastRead.current + TOP_REREAD_EVERY_MS - Date.now())
		timer.current = setTimeout(() => {
			timer.current = null
			lastRead.current = Date.now()
			reread()
		}, wait)
	}, [signature, enabled, reread])
	useEffect(
		() => () => {
			if (timer.current) clearTimeout(timer.current)
		},
		[],
	)
}

function OverlayAlertCard({ alert, lang }: { alert: OverlayAlert; lang: string }) {
	const { t } = useTranslation()
	const coins = (n: number) => `◎ ${formatCoins(lang, n)}`
	return (
		<div className={`overlay__alert overlay__alert--${alert.kind}`}>
			<p className="overlay__alert-kicker">{t(`overlay-show.alert-${alert.kind}`)}</p>
			{alert.kind === 'boost' ? (
				// Keyed by the amount: a boost added to the alert on screen plays its pop again.
				<p key={alert.amount} className="overlay__alert-amount">
					+{formatCoins(lang, alert.amount)}
				</p>
			) : null}
			<p className="overlay__alert-text">{alert.description}</p>
			<p className="overlay__alert-meta">
				{alert.kind === 'dare' ? coins(alert.pot) : null}
				{alert.kind === 'boost' ? t('overlay-show.alert-pot', { coins: coins(alert.pot) }) : null}
				{alert.kind === 'completed' ? t('overlay-show.alert-completed-text', { coins: coins(alert.pot) }) : null}
				{alert.kind === 'failed' ? t('overlay-show.alert-failed-text') : null}
				{alert.kind === 'completed' || alert.kind === 'failed' ? <> · {t('dares.tally', { yes: alert.yes, no: alert.no })}</> : null}
			</p>
		</div>
	)
}

function formatSeconds(seconds: number) {
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/** The running vote: its card (`card`), its large countdown (`countdown`), or both; the countdown alone is a card of its own. */
function OverlayVote({ dare, lang, card, countdown }: { dare: DareView; lang: string; card: boolean; countdown: boolean }) {
	const { t } = useTranslation()
	const seconds = useSecondsLeft(dare.votingEndsAt!)
	const clock = formatSeconds(seconds)
	const big = countdown ? (
		<p
			role="timer"
			className={`overlay__countdown${seconds <= 10 ? ' overlay__countdown--last' : ''}`}
			aria-label={t('overlay-show.countdown-label')}
		>
			<span suppressHydrationWarning>{clock}</span>
		</p>
	) : null
	if (!card) {
		return (
			<div className="overlay__vote overlay__vote--countdown">
				<p className="overlay__label">{t('overlay.vote')}</p>
				{big}
			</div>
		)
	}
	const total = dare.yesVotes + dare.noVotes
	const yesShare = total === 0 ? 50 : Math.round((dare.yesVotes / total) * 100)
	return (
		<div className="overlay__vote">
			<div className="overlay__vote-head">
				<p className="overlay__label">
					{t('overlay.vote')}
					{countdown ? null : (
						<>
							{' · '}
							<span suppressHydrationWarning>{clock}</span>
						</>
					)}
				</p>
				{big}
			</div>
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

function OverlayTopBoosters({ boosters, lang }: { boosters: TopBooster[]; lang: string }) {
	const { t } = useTranslation()
	return (
		<div className="overlay__card overlay__boosters">
			<h2 className="overlay__label" id="overlay-boosters">
				{t('overlay-show.top-title')}
			</h2>
			<ol aria-labelledby="overlay-boosters">
				{boosters.map((b, i) => (
					<li key={b.username}>
						<span className="overlay__rank" aria-hidden="true">
							{i + 1}
						</span>
						<span className="overlay__name">{b.username}</span>
						<span className="overlay__pot">◎ {formatCoins(lang, b.coins)}</span>
					</li>
				))}
			</ol>
		</div>
	)
}

/** The address with a line break allowed after each slash: it wraps between its parts, not inside the channel's name. */
function withBreaks(label: string) {
	return label.split('/').map((part, i, parts) => (
		<Fragment key={i}>
			{part}
			{i < parts.length - 1 ? (
				<>
					/<wbr />
				</>
			) : null}
		</Fragment>
	))
}

function OverlayJoinCard({ join }: { join: OverlayJoin }) {
	const { t } = useTranslation()
	return (
		<div className="overlay__card overlay__join">
			{join.qr ? (
				<svg
					className="overlay__qr"
					viewBox={`0 0 ${join.qr.size} ${join.qr.size}`}
					role="img"
					aria-label={t('overlay-show.qr-label')}
					shapeRendering="crispEdges"
				>
					<rect width={join.qr.size} height={join.qr.size} fill="#fff" />
					<path d={join.qr.path} fill="#000" />
				</svg>
			) : null}
			<div className="overlay__join-text">
				<p className="overlay__label">{t('overlay-show.join-title')}</p>
				{join.label ? <p className="overlay__address">{withBreaks(join.label)}</p> : null}
			</div>
		</div>
	)
}
