import { memo, useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, useFetcher, useNavigate } from 'react-router'
import { toast } from '#app/components/toast'
import { SubmitButton } from '#app/components/forms'
import { useGatedAction } from '#app/modules/account/gated-action'
import { usePageReading } from '#app/components/wallet-balance'
import type { GatedReason } from '#app/modules/account/gate'
import { NumberField } from '#app/modules/sessions/number-field'
import type { Locale } from '#app/i18n/locales'
import { useRootData } from '#app/root-data'
import { formatCoins } from '#app/modules/shop/format'
import { useLiveBalance } from '#app/modules/wallet/live-balance'
import { RESPOND_FIELD } from './answer'
import { DARE_LIMITS } from './limits'
import type { DareActionResult } from './actions.server'
import type { DareView } from './service.server'

type Session = { id: string; status: 'active' | 'ended'; minBoost: number; maxDaresPerUser: number; maxFreeDaresPerUser: number }

/** An action's answer to the page's script, and when its form was sent. */
export type DareAnswer = { result: DareActionResult; sentAt: number }

export type DaresPanelProps = {
	session: Session
	dares: DareView[]
	lang: Locale
	isCreator: boolean
	signedIn: boolean
	viewerId: string | null
	formKey: string
	/** Takes what a boost, a vote or a new dare answered (the viewer's own reading), sent by the page's script; the same function from one render to the next (the rows are memoised). */
	onAnswer?: (answer: DareAnswer) => void
}

/**
 * The session page's main column: the dares, most coins first, with what the
 * viewer may do to each, and the form to write one. Every action is a plain
 * form post that comes back to this page with a toast; with JavaScript a
 * boost, a vote and a new dare are sent by a fetcher and answered with data
 * (the toast, the viewer's reading of the dare and their balance), and the
 * page is not read again: the live updates bring everyone else's changes.
 * The database decides every rule. Rows are memoised: a live update draws
 * again only the dares it changed.
 */
export function DaresPanel(props: DaresPanelProps) {
	const { t } = useTranslation()
	const { session, dares, isCreator, viewerId } = props
	const live = session.status === 'active'
	const voting = dares.some((d) => d.status === 'voting')
	const onAnswer = props.onAnswer ?? ignoreAnswer
	// Read once for the panel, not once per row.
	const balance = useShownBalance(viewerId)
	return (
		<section className="dares" aria-labelledby="dares-title">
			<div className="dares__head">
				<h2 id="dares-title">{t('dares.title')}</h2>
				<span className="muted">{t('dares.count', { count: dares.length })}</span>
			</div>
			{live && !isCreator ? <CreateDare {...props} onAnswer={onAnswer} /> : null}
			{dares.length === 0 ? (
				<p className="dares__empty">{live ? t('dares.empty-live') : t('dares.empty')}</p>
			) : (
				<ol className="dares__list">
					{dares.map((dare) => (
						<DareCard
							key={dare.id}
							dare={dare}
							sessionId={session.id}
							isCreator={isCreator}
							signedIn={props.signedIn}
							own={viewerId !== null && dare.authorId === viewerId}
							formKey={props.formKey}
							lang={props.lang}
							live={live}
							voteRunning={voting}
							balance={balance}
							onAnswer={onAnswer}
						/>
					))}
				</ol>
			)}
		</section>
	)
}

/**
 * A dare form sent by the page's script: through a fetcher, answered with
 * data (`respond=data`), after the gated-action rule
 * (docs/decisions/010-gated-actions.md): a visitor, or a viewer who still
 * owes the username or the terms, gets the dialog first and the action
 * continues once they are ready. Without JavaScript the form posts and the
 * server answers with a redirect and a toast (and sends a visitor to sign
 * in and back).
 */
function useDareForm(reason: GatedReason, onAnswer: (answer: DareAnswer) => void) {
	const gated = useGatedAction()
	const fetcher = useFetcher<DareActionResult>()
	const sentAt = useRef(0)
	// Each sending is an action of its own: its idempotency key gets a random
	// suffix, kept until it is answered (sent again meanwhile, it is the same action).
	const attempt = useRef<string | null>(null)
	const taken = useRef<DareActionResult | null>(null)
	useEffect(() => {
		// Each answer once (the effect runs again when the page gives a new onAnswer).
		if (fetcher.state !== 'idle' || !fetcher.data || taken.current === fetcher.data) return
		taken.current = fetcher.data
		attempt.current = null
		onAnswer({ result: fetcher.data, sentAt: sentAt.current })
	}, [fetcher.state, fetcher.data, onAnswer])
	const onSubmit = (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault()
		const form = event.currentTarget
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		const formData = new FormData(form, submitter instanceof HTMLButtonElement ? submitter : null)
		formData.set(RESPOND_FIELD, 'data')
		const key = formData.get('key')
		attempt.current ??= crypto.randomUUID()
		if (typeof key === 'string') formData.set('key', `${key}:${attempt.current}`)
		gated(reason, () => {
			sentAt.current = Date.now()
			void fetcher.submit(formData, { method: 'post' })
		})
	}
	return { onSubmit, pending: fetcher.state !== 'idle', result: fetcher.state === 'idle' ? fetcher.data : undefined }
}

/** The balance the header shows, for the client's own check of a boost. */
function useShownBalance(viewerId: string | null): number | null {
	const account = useRootData()?.account ?? null
	const userId = account?.userId ?? viewerId ?? ''
	const base = usePageReading(account?.balance ?? 0, userId)
	const shown = useLiveBalance(userId, base)
	return account && account.userId === viewerId ? shown : null
}

function CreateDare({ session, dares, viewerId, formKey, lang, onAnswer }: DaresPanelProps & { onAnswer: (answer: DareAnswer) => void }) {
	const { t } = useTranslation()
	const mine = dares.filter((d) => d.authorId === viewerId).length
	const freeLeft = Math.max(0, session.maxFreeDaresPerUser - mine)
	const left = Math.max(0, session.maxDaresPerUser - mine)
	const minBoost = formatCoins(lang, session.minBoost)
	const { onSubmit, pending, result } = useDareForm('create-dare', onAnswer)
	const formRef = useRef<HTMLFormElement>(null)
	// A dare written: the form is empty again for the next one.
	useEffect(() => {
		if (result?.ok) formRef.current?.reset()
	}, [result])
	if (left === 0) return <p className="notice">{t('dares.limit-reached', { count: session.maxDaresPerUser })}</p>
	return (
		<Form method="post" className="card dare-form stack" preventScrollReset onSubmit={onSubmit} ref={formRef}>
			<h3>{t('dares.create-title')}</h3>
			<input type="hidden" name="sessionId" value={session.id} />
			<input type="hidden" name="key" value={`create:${formKey}`} />
			<div className="field">
				<label htmlFor="dare-description">{t('dares.description')}</label>
				<textarea
					id="dare-description"
					name="description"
					required
					minLength={DARE_LIMITS.description.min}
					maxLength={DARE_LIMITS.description.max}
					rows={2}
					aria-describedby="dare-description-hint"
				/>
				<p id="dare-description-hint" className="field__hint">
					{t('dares.description-hint', { min: DARE_LIMITS.description.min, max: DARE_LIMITS.description.max })}
				</p>
			</div>
			<div className="field">
				<label htmlFor="dare-reward">{t('dares.reward')}</label>
				<input
					id="dare-reward"
					name="reward"
					type="number"
					inputMode="numeric"
					required
					min={freeLeft > 0 ? 0 : session.minBoost}
					step={DARE_LIMITS.reward.step}
					defaultValue={freeLeft > 0 ? 0 : session.minBoost}
					aria-describedby="dare-reward-hint"
				/>
				<p id="dare-reward-hint" className="field__hint">
					{freeLeft > 0 ? t('dares.reward-hint-free', { count: freeLeft, min: minBoost }) : t('dares.reward-hint-paid', { min: minBoost })}
				</p>
			</div>
			<div>
				<SubmitButton intent="create" pending={pending}>
					{t('dares.create')}
				</SubmitButton>
			</div>
		</Form>
	)
}

const ignoreAnswer = () => {}

type DareCardProps = {
	dare: DareView
	sessionId: string
	isCreator: boolean
	signedIn: boolean
	own: boolean
	formKey: string
	lang: Locale
	live: boolean
	voteRunning: boolean
	/** The balance the header shows (null: not the signed-in viewer's page), for the client's own check of a boost. */
	balance: number | null
	onAnswer: (answer: DareAnswer) => void
}

const DareCard = memo(function DareCard({ dare, sessionId, isCreator, signedIn, own, formKey, lang, live, voteRunning, balance, onAnswer }: DareCardProps) {
	const { t } = useTranslation()
	const boost = useDareForm('boost', onAnswer)
	const vote = useDareForm('vote', onAnswer)
	const navigate = useNavigate()
	const shop = `/${lang}/shop?returnPath=${encodeURIComponent(`/${lang}/session/${sessionId}#dare-${dare.id}`)}`
	// The client refuses a boost the wallet cannot pay (docs/product.md §6.4) and offers the shop, which comes back here.
	const onBoost = (event: FormEvent<HTMLFormElement>) => {
		const amount = Number(new FormData(event.currentTarget).get('amount'))
		if (signedIn && balance !== null && amount > balance) {
			event.preventDefault()
			toast.error(t('errors.error-insufficient-funds'), { action: { label: t('dares.get-coins'), onClick: () => void navigate(shop) } })
			return
		}
		boost.onSubmit(event)
	}
	const boostable = live && (dare.status === 'open' || dare.status === 'accepted')
	return (
		<li id={`dare-${dare.id}`} className={`dare dare--${dare.status}${own ? ' dare--mine' : ''}`}>
			<div className="dare__top">
				<span className={`dare__status dare__status--${dare.status}`}>{t(`dares.status-${dare.status}`)}</span>
				<strong className="dare__pot">
					<span className="visually-hidden">{t('dares.pot-label', { coins: formatCoins(lang, dare.pot) })}</span>
					<span aria-hidden="true">◎ {formatCoins(lang, dare.pot)}</span>
				</strong>
			</div>
			<p className="dare__description">{dare.description}</p>
			<p className="dare__meta muted">
				{t('dares.by', { author: dare.authorName ?? t('dares.deleted-author') })}
				{' · '}
				{t('dares.boosters', { count: dare.boosters })}
				{own ? ` · ${t('dares.yours')}` : ''}
				{dare.myBoost > 0 ? ` · ${t('dares.my-boost', { coins: formatCoins(lang, dare.myBoost) })}` : ''}
			</p>
			{dare.status === 'voting' && dare.votingEndsAt ? <VoteState dare={dare} /> : null}
			{dare.status === 'completed' || dare.status === 'failed' ? (
				<p className="dare__result">{t('dares.result', { yes: dare.yesVotes, no: dare.noVotes })}</p>
			) : null}
			<div className="dare__actions">
				{isCreator && live ? <CreatorButtons dare={dare} sessionId={sessionId} formKey={formKey} voteRunning={voteRunning} /> : null}
				{!isCreator && boostable ? (
					<Form method="post" className="dare__boost" preventScrollReset onSubmit={onBoost}>
						<input type="hidden" name="sessionId" value={sessionId} />
						<input type="hidden" name="dareId" value={dare.id} />
						<input type="hidden" name="key" value={`boost:${formKey}:${dare.id}`} />
						<NumberField
							name="amount"
							label={t('dares.boost-amount')}
							limit={DARE_LIMITS.boost}
							defaultValue={DARE_LIMITS.boost.default}
							locale={lang}
						/>
						<SubmitButton intent="boost" className="button" pending={boost.pending}>
							{t('dares.boost')}
						</SubmitButton>
						{signedIn && balance !== null && balance < DARE_LIMITS.boost.min ? (
							<a className="dare__shop" href={shop}>
								{t('dares.get-coins')}
							</a>
						) : null}
					</Form>
				) : null}
				{!isCreator && dare.status === 'voting' ? (
					<Form method="post" className="dare__vote" preventScrollReset onSubmit={vote.onSubmit}>
						<input type="hidden" name="sessionId" value={sessionId} />
						<input type="hidden" name="dareId" value={dare.id} />
						<input type="hidden" name="intent" value="vote" />
						<button type="submit" name="vote" value="yes" className={`button${dare.myVote === true ? ' button--primary' : ''}`} aria-pressed={dare.myVote === true}>
							{t('dares.vote-yes')}
						</button>
						<button type="submit" name="vote" value="no" className={`button${dare.myVote === false ? ' button--primary' : ''}`} aria-pressed={dare.myVote === false}>
							{t('dares.vote-no')}
						</button>
					</Form>
				) : null}
			</div>
		</li>
	)
})

function CreatorButtons({ dare, sessionId, formKey, voteRunning }: { dare: DareView; sessionId: string; formKey: string; voteRunning: boolean }) {
	const { t } = useTranslation()
	if (dare.status !== 'open' && dare.status !== 'accepted') return null
	return (
		<Form method="post" className="dare__creator" preventScrollReset>
			<input type="hidden" name="sessionId" value={sessionId} />
			<input type="hidden" name="dareId" value={dare.id} />
			{/* Rejecting refunds the boosts: its key (a second click, a resent form, answer as the first). */}
			<input type="hidden" name="key" value={`reject:${formKey}:${dare.id}`} />
			{dare.status === 'open' ? (
				<SubmitButton intent="accept" className="button button--primary">
					{t('dares.accept')}
				</SubmitButton>
			) : (
				<SubmitButton intent="start-voting" className={voteRunning ? 'button' : 'button button--primary'}>
					{t('dares.start-voting')}
				</SubmitButton>
			)}
			<SubmitButton intent="reject" className="button button--ghost">
				{t('dares.reject')}
			</SubmitButton>
		</Form>
	)
}

/**
 * The running vote: the tallies and a countdown (rendered by the server,
 * ticking with JavaScript). At the end the sweeper resolves the vote within
 * a second and the live update brings the result.
 */
function VoteState({ dare }: { dare: DareView }) {
	const { t } = useTranslation()
	const seconds = useSecondsLeft(dare.votingEndsAt!)
	const total = dare.yesVotes + dare.noVotes
	const yesShare = total === 0 ? 50 : Math.round((dare.yesVotes / total) * 100)
	return (
		<div className="dare__vote-state">
			<p role="timer" aria-live="off" suppressHydrationWarning>
				{seconds > 0 ? t('dares.ends-in', { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}` }) : t('dares.vote-ending')}
			</p>
			{/* The bar draws the tally the line below says in words. */}
			<div className="dare__tally" aria-hidden="true">
				<span className="dare__tally-yes" style={{ width: `${yesShare}%` }} />
			</div>
			<p className="muted">{t('dares.tally', { yes: dare.yesVotes, no: dare.noVotes })}</p>
		</div>
	)
}

export function useSecondsLeft(endsAt: string) {
	const left = () => Math.max(0, Math.ceil((new Date(endsAt).getTime() - Date.now()) / 1000))
	const [seconds, setSeconds] = useState(left)
	useEffect(() => {
		const timer = setInterval(() => setSeconds(left()), 1000)
		return () => clearInterval(timer)
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [endsAt])
	return seconds
}
