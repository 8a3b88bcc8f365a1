import { memo, useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, useFetcher, useNavigate, useSearchParams, type FetcherWithComponents } from 'react-router'
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
import { BoostChips } from './boost-chips'
import { formatCountdown, useSecondsLeft } from './countdown'
import { DarePot } from './dare-pot'
import { DARE_LIMITS, REPORT_LIMITS, REPORT_REASONS } from './limits'
import { REPORT_PARAM, reportFormHref } from './report-link'
import type { DareActionResult } from './actions.server'
import type { ModerationResult } from './moderation.server'
import type { DareView } from './service.server'
import { VoteBar } from './vote-bar'

// Where the overlay takes it from (app/modules/overlay/overlay-page.tsx).
export { useSecondsLeft }

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
	// The vote bar: for everyone who may vote (not the creator), while a vote runs.
	const running = isCreator ? undefined : dares.find((d) => d.status === 'voting' && d.votingEndsAt)
	const onAnswer = props.onAnswer ?? ignoreAnswer
	// Read once for the panel, not once per row.
	const balance = useShownBalance(viewerId)
	const [searchParams] = useSearchParams()
	const reporting = searchParams.get(REPORT_PARAM)
	// Held dares (their author's, or the creator's to review) first: they wait for a decision.
	const shown = dares.some((d) => d.status === 'held') ? [...dares.filter((d) => d.status === 'held'), ...dares.filter((d) => d.status !== 'held')] : dares
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
					{shown.map((dare) => (
						<DareCard
							key={dare.id}
							dare={dare}
							sessionId={session.id}
							isCreator={isCreator}
							viewerId={viewerId}
							signedIn={props.signedIn}
							own={viewerId !== null && dare.authorId === viewerId}
							formKey={props.formKey}
							lang={props.lang}
							live={live}
							minBoost={session.minBoost}
							voteRunning={voting}
							balance={balance}
							reportOpen={reporting === dare.id}
							onAnswer={onAnswer}
						/>
					))}
				</ol>
			)}
			{running ? <RunningVote dare={running} sessionId={session.id} lang={props.lang} onAnswer={onAnswer} /> : null}
		</section>
	)
}

/** The vote bar with the panel's vote form handling (the gate, the fetcher, the answer). */
function RunningVote({ dare, sessionId, lang, onAnswer }: { dare: DareView; sessionId: string; lang: Locale; onAnswer: (answer: DareAnswer) => void }) {
	const vote = useDareForm('vote', onAnswer)
	return <VoteBar dare={dare} sessionId={sessionId} lang={lang} onSubmit={vote.onSubmit} />
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
	viewerId: string | null
	signedIn: boolean
	own: boolean
	formKey: string
	lang: Locale
	live: boolean
	/** The session's minimum reward, one of the quick boosts. */
	minBoost: number
	voteRunning: boolean
	/** The balance the header shows (null: not the signed-in viewer's page), for the client's own check of a boost. */
	balance: number | null
	/** The page was asked with this dare's report form open (`?report=`). */
	reportOpen: boolean
	onAnswer: (answer: DareAnswer) => void
}

const DareCard = memo(function DareCard({ dare, sessionId, isCreator, viewerId, signedIn, own, formKey, lang, live, minBoost, voteRunning, balance, reportOpen, onAnswer }: DareCardProps) {
	const { t } = useTranslation()
	const boost = useDareForm('boost', onAnswer)
	const vote = useDareForm('vote', onAnswer)
	const navigate = useNavigate()
	const shop = `/${lang}/shop?returnPath=${encodeURIComponent(`/${lang}/session/${sessionId}#dare-${dare.id}`)}`
	// The client refuses a boost the wallet cannot pay (docs/product.md §6.4) and offers the shop, which comes back here.
	// The amount field's form and the quick boosts' (whose tapped chip carries the amount).
	const onBoost = (event: FormEvent<HTMLFormElement>) => {
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		const amount = Number(new FormData(event.currentTarget, submitter instanceof HTMLButtonElement ? submitter : null).get('amount'))
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
				<span className={`dare__status dare__status--${dare.status}`}>
					{dare.status === 'held' ? t('moderation.status-held') : t(`dares.status-${dare.status}`)}
				</span>
				<DarePot status={dare.status} pot={dare.pot} lang={lang} />
			</div>
			<p className="dare__description">{dare.description}</p>
			<p className="dare__meta muted">
				{t('dares.by', { author: dare.authorName ?? t('dares.deleted-author') })}
				{' · '}
				{t('dares.boosters', { count: dare.boosters })}
				{own ? ` · ${t('dares.yours')}` : ''}
				{dare.myBoost > 0 ? ` · ${t('dares.my-boost', { coins: formatCoins(lang, dare.myBoost) })}` : ''}
			</p>
			{dare.status === 'held' && (isCreator || own) ? (
				<p className="dare__held">{isCreator ? t('moderation.held-note-creator') : t('moderation.held-note-author')}</p>
			) : null}
			{dare.status === 'voting' && dare.votingEndsAt ? <VoteState dare={dare} /> : null}
			{dare.status === 'completed' || dare.status === 'failed' ? (
				<p className="dare__result">{t('dares.result', { yes: dare.yesVotes, no: dare.noVotes })}</p>
			) : null}
			<div className="dare__actions">
				{isCreator && live ? <CreatorButtons dare={dare} sessionId={sessionId} formKey={formKey} voteRunning={voteRunning} /> : null}
				{!isCreator && boostable ? (
					<div className="dare__boosting">
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
								refusals="boost"
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
						<BoostChips sessionId={sessionId} dareId={dare.id} formKey={formKey} minBoost={minBoost} lang={lang} pending={boost.pending} onSubmit={onBoost} />
					</div>
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
			{/* Secondary tools in a quiet row (disclosures, and the report link that opens one), so they never crowd the dare's own actions. */}
			{isCreator || !own ? (
				<div className="dare__tools">
					{isCreator ? <ModerateTools dare={dare} live={live} viewerId={viewerId} /> : null}
					{!own ? <Report dare={dare} signedIn={signedIn} lang={lang} initiallyOpen={reportOpen} /> : null}
				</div>
			) : null}
		</li>
	)
})

function CreatorButtons({ dare, sessionId, formKey, voteRunning }: { dare: DareView; sessionId: string; formKey: string; voteRunning: boolean }) {
	const { t } = useTranslation()
	if (dare.status !== 'open' && dare.status !== 'accepted' && dare.status !== 'held') return null
	return (
		<Form method="post" className="dare__creator" preventScrollReset>
			<input type="hidden" name="sessionId" value={sessionId} />
			<input type="hidden" name="dareId" value={dare.id} />
			{/* Rejecting refunds the boosts: its key (a second click, a resent form, answer as the first). */}
			<input type="hidden" name="key" value={`reject:${formKey}:${dare.id}`} />
			{dare.status === 'held' ? (
				<SubmitButton intent="approve" className="button button--primary">
					{t('moderation.approve')}
				</SubmitButton>
			) : dare.status === 'open' ? (
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
 * The creator's "Moderate" disclosure on a dare: hide it (a running dare's
 * boosts refunded; not a held one, which Reject removes) while the session
 * is live, and ban its author from all their sessions. Plain form posts that
 * come back with a toast, the page read again.
 */
function ModerateTools({ dare, live, viewerId }: { dare: DareView; live: boolean; viewerId: string | null }) {
	const { t } = useTranslation()
	const hideable = live && dare.status !== 'held'
	const bannable = dare.authorId !== null && dare.authorId !== viewerId
	if (!hideable && !bannable) return null
	const running = dare.status === 'open' || dare.status === 'accepted' || dare.status === 'voting'
	const author = dare.authorName ?? t('dares.deleted-author')
	return (
		<details className="dare__disclosure">
			<summary>{t('moderation.moderate')}</summary>
			<div className="dare__moderate">
				{hideable ? (
					<Form method="post" preventScrollReset>
						<input type="hidden" name="dareId" value={dare.id} />
						<SubmitButton intent="hide" className="button button--ghost">
							{running ? t('moderation.hide-refund') : t('moderation.hide')}
						</SubmitButton>
					</Form>
				) : null}
				{bannable ? (
					<Form method="post" preventScrollReset>
						<input type="hidden" name="dareId" value={dare.id} />
						<input type="hidden" name="userId" value={dare.authorId!} />
						<SubmitButton intent="ban" className="button button--danger">
							{t('moderation.ban', { author })}
						</SubmitButton>
					</Form>
				) : null}
				<p className="field__hint">{[hideable ? t('moderation.hide-hint') : null, bannable ? t('moderation.ban-hint') : null].filter(Boolean).join(' ')}</p>
			</div>
		</details>
	)
}

/**
 * Anyone's report of a dare they did not write (docs/product.md §13.3).
 * A page carries the report form of at most one dare, not of each (on a
 * session of 200 dares those forms were half the page's HTML and a third of
 * its render: docs/decisions/055-hot-dare.md): "Report" is a link that,
 * without JavaScript, loads the page with this dare's form open (`?report=`,
 * back at the dare), a post that comes back with the toast (refused, to the
 * form open again). With JavaScript the link opens the form in place, its
 * first field focused; the form is sent by a fetcher and answered with data
 * (the toast, and the form closed). Closed or sent, the form is the link
 * again, which takes the focus back, and an address that opened it drops
 * `?report=`. The fetcher lives here, so an answer that comes after the form
 * was closed still shows its toast.
 */
function Report({ dare, signedIn, lang, initiallyOpen }: { dare: DareView; signedIn: boolean; lang: Locale; initiallyOpen: boolean }) {
	const { t } = useTranslation()
	// null: as the page was asked; true: opened here; false: closed here.
	const [opened, setOpened] = useState<boolean | null>(null)
	const link = useRef<HTMLAnchorElement>(null)
	useEffect(() => {
		if (opened === false) link.current?.focus()
	}, [opened])
	// Closed or sent, a form the address opened (`?report=`) leaves it: a reload, or a
	// sign-in that comes back here, does not open it again. Nothing on the page
	// changed, so no loader runs for this navigation.
	const [, setSearchParams] = useSearchParams()
	const close = useCallback(() => {
		setOpened(false)
		if (initiallyOpen)
			setSearchParams(
				(params) => {
					params.delete(REPORT_PARAM)
					return params
				},
				{ replace: true, preventScrollReset: true, defaultShouldRevalidate: false },
			)
	}, [initiallyOpen, setSearchParams])
	const fetcher = useFetcher<ModerationResult>()
	const taken = useRef<ModerationResult | null>(null)
	useEffect(() => {
		if (fetcher.state !== 'idle' || !fetcher.data || taken.current === fetcher.data) return
		const result = (taken.current = fetcher.data)
		if (!result.ok) {
			toast.error(result.error)
			return
		}
		toast[result.tone](result.message)
		close()
	}, [fetcher.state, fetcher.data, close])
	if (!(opened ?? initiallyOpen)) {
		return (
			<a
				ref={link}
				className="dare__report"
				href={reportFormHref(dare.id)}
				rel="nofollow"
				aria-expanded={false}
				onClick={(event) => {
					// A new tab or window, as any link.
					if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
					event.preventDefault()
					setOpened(true)
				}}
			>
				{t('moderation.report')}
			</a>
		)
	}
	return (
		<ReportForm
			dare={dare}
			signedIn={signedIn}
			lang={lang}
			focus={opened === true}
			fetcher={fetcher}
			onClose={close}
		/>
	)
}

/** The report form in its disclosure (open); visitors also give a name and an e-mail address (the receipt goes there). */
function ReportForm({
	dare,
	signedIn,
	lang,
	focus,
	fetcher,
	onClose,
}: {
	dare: DareView
	signedIn: boolean
	lang: Locale
	focus: boolean
	fetcher: FetcherWithComponents<ModerationResult>
	onClose: () => void
}) {
	const { t } = useTranslation()
	const reason = useRef<HTMLSelectElement>(null)
	useEffect(() => {
		if (focus) reason.current?.focus()
	}, [focus])
	const onSubmit = (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault()
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		const formData = new FormData(event.currentTarget, submitter instanceof HTMLButtonElement ? submitter : null)
		formData.set(RESPOND_FIELD, 'data')
		void fetcher.submit(formData, { method: 'post' })
	}
	const id = `report-${dare.id}`
	return (
		<details className="dare__disclosure" open onToggle={(event) => (event.currentTarget.open ? null : onClose())}>
			<summary>{t('moderation.report')}</summary>
			<Form method="post" className="report-form stack" preventScrollReset onSubmit={onSubmit}>
				<input type="hidden" name="dareId" value={dare.id} />
				<p className="field__hint">{t('moderation.report-intro')}</p>
				<div className="field">
					<label htmlFor={`${id}-reason`}>{t('moderation.report-reason')}</label>
					<select id={`${id}-reason`} name="reason" required defaultValue="" ref={reason}>
						<option value="" disabled>
							{t('moderation.report-reason-choose')}
						</option>
						{REPORT_REASONS.map((reason) => (
							<option key={reason} value={reason}>
								{t(`moderation.reason-${reason}`)}
							</option>
						))}
					</select>
				</div>
				<div className="field">
					<label htmlFor={`${id}-details`}>{t('moderation.report-details')}</label>
					<textarea id={`${id}-details`} name="details" required maxLength={REPORT_LIMITS.details} rows={3} aria-describedby={`${id}-details-hint`} />
					<p id={`${id}-details-hint`} className="field__hint">
						{t('moderation.report-details-hint', { max: REPORT_LIMITS.details.toLocaleString(lang) })}
					</p>
				</div>
				{signedIn ? null : (
					<>
						<div className="field">
							<label htmlFor={`${id}-name`}>{t('moderation.report-name')}</label>
							<input id={`${id}-name`} name="name" type="text" autoComplete="name" required maxLength={REPORT_LIMITS.name} />
						</div>
						<div className="field">
							<label htmlFor={`${id}-email`}>{t('moderation.report-email')}</label>
							<input
								id={`${id}-email`}
								name="email"
								type="email"
								autoComplete="email"
								required
								maxLength={REPORT_LIMITS.email}
								aria-describedby={`${id}-email-hint`}
							/>
							<p id={`${id}-email-hint`} className="field__hint">
								{t('moderation.report-email-hint')}
							</p>
						</div>
					</>
				)}
				<label className="checkbox">
					<input type="checkbox" name="goodFaith" value="yes" required />
					<span>{t('moderation.report-good-faith')}</span>
				</label>
				<div>
					<SubmitButton intent="report" className="button" pending={fetcher.state !== 'idle'}>
						{t('moderation.report-send')}
					</SubmitButton>
				</div>
			</Form>
		</details>
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
				{seconds > 0 ? t('dares.ends-in', { time: formatCountdown(seconds) }) : t('dares.vote-ending')}
			</p>
			{/* The bar draws the tally the line below says in words. */}
			<div className="dare__tally" aria-hidden="true">
				<span className="dare__tally-yes" style={{ width: `${yesShare}%` }} />
			</div>
			<p className="muted">{t('dares.tally', { yes: dare.yesVotes, no: dare.noVotes })}</p>
		</div>
	)
}

