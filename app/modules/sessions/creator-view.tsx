import { useEffect, useRef, type ReactNode } from 'react'
import { useFetcher } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import { SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import { RESPOND_FIELD } from '#app/modules/dares/answer'
import type { DareActionResult } from '#app/modules/dares/actions.server'
import { useSecondsLeft } from '#app/modules/dares/dares-panel'
import type { DareView } from '#app/modules/dares/service.server'
import { formatCoins } from '#app/modules/shop/format'
import { useHydrated } from '#app/utils/use-hydrated'
import { CREATOR_VIEW_ID, FROM_FIELD, VOTE_EXTENSION } from './creator-view-limits'

/** What the creator's view shows of their live session's dares: the running vote, the queue (most coins first), and what waits for review. */
export function creatorQueue(dares: DareView[]) {
	const queue = dares
		.filter((d) => d.status === 'open' || d.status === 'accepted')
		.sort((a, b) => b.pot - a.pot || Date.parse(a.createdAt) - Date.parse(b.createdAt))
	return {
		vote: dares.find((d) => d.status === 'voting') ?? null,
		queue,
		coins: queue.reduce((sum, d) => sum + d.pot, 0),
		held: dares.filter((d) => d.status === 'held').length,
	}
}

/** "2:05": minutes and seconds, for a countdown read from across the room. */
export function clock(seconds: number): string {
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

export type CreatorViewProps = {
	sessionId: string
	dares: DareView[]
	formKey: string
	lang: Locale
	/** Takes an action's answer (sent by the page's script): the page shows its toast and reads itself again. */
	onAnswer: (result: DareActionResult) => void
}

/**
 * The creator's view of their live session, for a second screen while
 * streaming (docs/product.md §5.9, §6.7): the running vote with its countdown,
 * tallies, more time and cancel, and the queue of running dares, most coins
 * first, each with its next step in one tap. Large type, one state per
 * block. Every button is a form post that comes back here with a toast;
 * with JavaScript it is sent by a fetcher and answered with data, and the
 * page reads itself again (the live updates bring everyone else's changes).
 */
export function CreatorView({ sessionId, dares, formKey, lang, onAnswer }: CreatorViewProps) {
	const { t } = useTranslation()
	const { vote, queue, coins, held } = creatorQueue(dares)
	useCreatorAnswers(onAnswer)
	return (
		<section id={CREATOR_VIEW_ID} className="creator-view" aria-labelledby="creator-view-title">
			<h2 id="creator-view-title">{t('sessions.creator-view-title')}</h2>
			<div className="creator-view__grid">
				<section className={`creator-view__vote${vote ? ' creator-view__vote--running' : ''}`} aria-labelledby="creator-vote-title">
					<h3 id="creator-vote-title">{t('sessions.vote-title')}</h3>
					{vote ? <RunningVote dare={vote} sessionId={sessionId} /> : <p className="creator-view__none">{t('sessions.vote-none')}</p>}
				</section>
				<section className="creator-view__queue" aria-labelledby="creator-queue-title">
					<div className="creator-view__queue-head">
						<h3 id="creator-queue-title">{t('sessions.queue-title')}</h3>
						<p className="creator-view__count">{t('sessions.queue-summary', { count: queue.length, coins: formatCoins(lang, coins) })}</p>
					</div>
					{held > 0 ? (
						<p className="creator-view__held">
							<a href="#dares-title">{t('sessions.queue-held', { count: held })}</a>
						</p>
					) : null}
					{queue.length === 0 ? (
						<p className="creator-view__none">{t('sessions.queue-empty')}</p>
					) : (
						// Rows, not list items: the dares panel's cards are the page's list of dares (and what its tests find by a dare's text).
						<div className="creator-view__list">
							{queue.map((dare) => (
								<QueueRow key={dare.id} dare={dare} sessionId={sessionId} formKey={formKey} lang={lang} voteRunning={vote !== null} />
							))}
						</div>
					)}
				</section>
			</div>
		</section>
	)
}

/**
 * One form of the view: the view's fetcher's form, which the browser posts
 * itself without JavaScript (its answer then a redirect back to the view,
 * with a toast); with JavaScript it asks for data instead (`respond=data`).
 * Busy while the view's fetcher sends this form's dare (and intent or
 * seconds, when given).
 */
function CreatorForm({ children, className, dareId, intent, seconds }: { children: (pending: boolean) => ReactNode; className?: string; dareId: string; intent?: string; seconds?: number }) {
	const fetcher = useFetcher<DareActionResult>({ key: CREATOR_VIEW_ID })
	const hydrated = useHydrated()
	const sent = fetcher.state !== 'idle' ? fetcher.formData : undefined
	const pending =
		sent !== undefined &&
		sent.get('dareId') === dareId &&
		(intent === undefined || sent.get('intent') === intent) &&
		(seconds === undefined || sent.get('seconds') === String(seconds))
	return (
		<fetcher.Form method="post" className={className} preventScrollReset>
			<input type="hidden" name={FROM_FIELD} value={CREATOR_VIEW_ID} />
			{hydrated ? <input type="hidden" name={RESPOND_FIELD} value="data" /> : null}
			{children(pending)}
		</fetcher.Form>
	)
}

/**
 * The view's forms share one fetcher, whose answers the view takes: a form's
 * dare often leaves its place before the answer is in (accepted, its vote
 * started, rejected: the live update can come first), and its form with it.
 * A second tap while one is under way is sent, and only its answer shown.
 */
function useCreatorAnswers(onAnswer: (result: DareActionResult) => void) {
	const fetcher = useFetcher<DareActionResult>({ key: CREATOR_VIEW_ID })
	// Each answer once (the effect runs again when the page gives a new onAnswer), and none from before this view was shown.
	const taken = useRef<DareActionResult | null>(fetcher.data ?? null)
	useEffect(() => {
		if (fetcher.state !== 'idle' || !fetcher.data || taken.current === fetcher.data) return
		taken.current = fetcher.data
		onAnswer(fetcher.data)
	}, [fetcher.state, fetcher.data, onAnswer])
}

function RunningVote({ dare, sessionId }: { dare: DareView; sessionId: string }) {
	const { t } = useTranslation()
	const seconds = useSecondsLeft(dare.votingEndsAt!)
	const total = dare.yesVotes + dare.noVotes
	const yesShare = total === 0 ? 50 : Math.round((dare.yesVotes / total) * 100)
	const hidden = (
		<>
			<input type="hidden" name="sessionId" value={sessionId} />
			<input type="hidden" name="dareId" value={dare.id} />
		</>
	)
	return (
		<div className="creator-view__running">
			<p className="creator-view__clock" role="timer" aria-live="off" suppressHydrationWarning>
				<span className="creator-view__clock-label">{t('sessions.vote-time-left')}</span>{' '}
				<time className="creator-view__clock-time" dateTime={dare.votingEndsAt!} suppressHydrationWarning>
					{seconds > 0 ? clock(seconds) : t('dares.vote-ending')}
				</time>
			</p>
			<p className="creator-view__dare">{dare.description}</p>
			<p className="creator-view__tally">
				<span className="creator-view__yes">
					<strong>{dare.yesVotes}</strong> {t('dares.vote-yes')}
				</span>
				<span className="creator-view__no">
					<strong>{dare.noVotes}</strong> {t('dares.vote-no')}
				</span>
			</p>
			{/* The bar draws the tally the line above says in words. */}
			<div className="dare__tally creator-view__bar" aria-hidden="true">
				<span className="dare__tally-yes" style={{ width: `${yesShare}%` }} />
			</div>
			<div className="creator-view__vote-actions" role="group" aria-labelledby={`extend-${dare.id}`}>
				<span id={`extend-${dare.id}`} className="creator-view__extend-label">
					{t('sessions.extend-title')}
				</span>
				{VOTE_EXTENSION.buttons.map((more) => (
					<CreatorForm key={more} dareId={dare.id} intent="extend-vote" seconds={more}>
						{(pending) => (
							<>
								{hidden}
								<input type="hidden" name="seconds" value={more} />
								<SubmitButton intent="extend-vote" className="button creator-view__button" pending={pending}>
									{t('sessions.extend-by', { seconds: more })}
								</SubmitButton>
							</>
						)}
					</CreatorForm>
				))}
				<CreatorForm dareId={dare.id} intent="cancel-vote" className="creator-view__cancel">
					{(pending) => (
						<>
							{hidden}
							<SubmitButton intent="cancel-vote" className="button button--ghost creator-view__button" pending={pending}>
								{t('sessions.cancel-vote')}
							</SubmitButton>
						</>
					)}
				</CreatorForm>
			</div>
		</div>
	)
}

function QueueRow({
	dare,
	sessionId,
	formKey,
	lang,
	voteRunning,
}: {
	dare: DareView
	sessionId: string
	formKey: string
	lang: Locale
	voteRunning: boolean
}) {
	const { t } = useTranslation()
	return (
		<article className={`creator-view__row creator-view__row--${dare.status}`} aria-labelledby={`queue-${dare.id}`}>
			<p className="creator-view__pot">{t('dares.pot-label', { coins: formatCoins(lang, dare.pot) })}</p>
			<p className="creator-view__description" id={`queue-${dare.id}`}>
				{dare.description}
			</p>
			<span className={`dare__status dare__status--${dare.status}`}>{t(`dares.status-${dare.status}`)}</span>
			<CreatorForm dareId={dare.id} className="creator-view__actions">
				{(pending) => (
					<>
						<input type="hidden" name="sessionId" value={sessionId} />
						<input type="hidden" name="dareId" value={dare.id} />
						{/* Rejecting refunds the boosts: its key (the dare card's too: a second rejection answers as the first). */}
						<input type="hidden" name="key" value={`reject:${formKey}:${dare.id}`} />
						{dare.status === 'open' ? (
							<SubmitButton intent="accept" className="button button--primary creator-view__button" pending={pending}>
								{t('dares.accept')}
							</SubmitButton>
						) : (
							// While a vote runs the next one waits (the database refuses it, and the toast says why).
							<SubmitButton intent="start-voting" className={`button creator-view__button${voteRunning ? '' : ' button--primary'}`} pending={pending}>
								{t('dares.start-voting')}
							</SubmitButton>
						)}
						<SubmitButton intent="reject" className="button button--ghost creator-view__button" pending={pending}>
							{t('dares.reject')}
						</SubmitButton>
					</>
				)}
			</CreatorForm>
		</article>
	)
}
