import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { translateError } from '#app/i18n/errors'
import type { Locale } from '#app/i18n/locales'
import { useTranslation } from '#app/i18n/translation'
import { PAYOUT_DECISIONS, type PayoutDecision } from '#app/modules/payouts/schemas'
import { formatCoins, formatPrice } from '#app/modules/shop/format'
import { ACTIONS_BY_KIND, GROUNDS, MODERATION_LIMITS, NO_MEASURE, type DecisionAction, type DecisionFormError, type ItemKind } from './decision-schemas'
import type { DecisionActionData, OpenAppeal, PayoutAwaitingReview, QueueItem } from './operator.server'
import { formatWhen } from './when'

/**
 * The operators' console (/{lang}/operator, docs/product.md §13.3): open
 * reports and held dares, the payouts waiting for review (§14), then open
 * appeals, oldest first, each with what an operator needs to judge it and a
 * decision form. The forms are plain posts
 * (the page reads itself again after each decision, with a toast); with
 * JavaScript, choosing a decision that breaks no rule picks "No rule broken"
 * for the operator.
 */
export function OperatorConsole({
	queue,
	appeals,
	payouts,
	lang,
	failed,
}: {
	queue: QueueItem[]
	appeals: OpenAppeal[]
	payouts: PayoutAwaitingReview[]
	lang: Locale
	failed: DecisionActionData | null
}) {
	const { t } = useTranslation()
	return (
		<div className="moderation">
			<PageTitle title={t('operator.title')} noindex />
			<header>
				<h1>{t('operator.title')}</h1>
				<p className="moderation__lead">{t('operator.lead')}</p>
			</header>
			<section className="moderation__section" aria-labelledby="moderation-queue">
				<h2 id="moderation-queue">{t('operator.queue-title', { count: queue.length })}</h2>
				{queue.length === 0 ? (
					<p className="empty">{t('operator.queue-empty')}</p>
				) : (
					<ol className="moderation__list">
						{queue.map((item) => (
							<li key={`${item.kind}-${item.id}`}>
								<QueueCard item={item} lang={lang} failed={failed?.target === item.id ? failed : null} />
							</li>
						))}
					</ol>
				)}
			</section>
			<section className="moderation__section" aria-labelledby="moderation-payouts">
				<h2 id="moderation-payouts">{t('operator.payouts-title', { count: payouts.length })}</h2>
				{payouts.length === 0 ? (
					<p className="empty">{t('operator.payouts-empty')}</p>
				) : (
					<ol className="moderation__list">
						{payouts.map((payout) => (
							<li key={payout.id}>
								<PayoutCard payout={payout} lang={lang} failed={failed?.target === payout.id ? failed : null} />
							</li>
						))}
					</ol>
				)}
			</section>
			<section className="moderation__section" aria-labelledby="moderation-appeals">
				<h2 id="moderation-appeals">{t('operator.appeals-title', { count: appeals.length })}</h2>
				{appeals.length === 0 ? (
					<p className="empty">{t('operator.appeals-empty')}</p>
				) : (
					<ol className="moderation__list">
						{appeals.map((appeal) => (
							<li key={appeal.appealId}>
								<AppealCard appeal={appeal} lang={lang} failed={failed?.target === appeal.decisionId ? failed : null} />
							</li>
						))}
					</ol>
				)}
			</section>
		</div>
	)
}

function QueueCard({ item, lang, failed }: { item: QueueItem; lang: Locale; failed: DecisionActionData | null }) {
	const { t } = useTranslation()
	const titleId = `item-${item.id}`
	const title = item.kind === 'report' && item.reason ? t('operator.report-title', { reason: t(`operator.grounds.${item.reason}`) }) : t('operator.held-title')
	const sessionHref = item.sessionId ? `/${lang}/session/${item.sessionId}${item.dareId ? `#dare-${item.dareId}` : ''}` : null
	return (
		<article className="card moderation-item" aria-labelledby={titleId}>
			<header className="moderation-item__header">
				<span className={`moderation-item__kind moderation-item__kind--${item.kind}`}>{t(`operator.kind-${item.kind}`)}</span>
				<h3 id={titleId}>{title}</h3>
				<time className="moderation-item__when" dateTime={item.createdAt}>
					{formatWhen(lang, item.createdAt)}
				</time>
			</header>
			<blockquote className="moderation__quote" aria-label={t('operator.dare')}>
				{item.dareDescription}
			</blockquote>
			<dl className="moderation__facts">
				{item.kind === 'report' ? (
					<>
						<dt>{t('operator.details')}</dt>
						<dd className="moderation__text">{item.details}</dd>
						<dt>{t('operator.reporter')}</dt>
						<dd>{item.reporter ?? t('operator.unknown-person')}</dd>
					</>
				) : (
					<>
						<dt>{t('operator.held-by')}</dt>
						<dd>{item.automated ? t('operator.held-filter') : t('operator.held-session')}</dd>
					</>
				)}
				<dt>{t('operator.author')}</dt>
				<dd>{item.authorUsername ?? t('operator.unknown-person')}</dd>
				<dt>{t('operator.dare-status')}</dt>
				<dd>{item.dareStatus ? t(`operator.statuses.${item.dareStatus}`) : t('operator.dare-gone')}</dd>
				{sessionHref ? (
					<>
						<dt>{t('operator.session')}</dt>
						<dd>
							<Link to={sessionHref}>{item.sessionTitle ?? t('operator.session')}</Link>
							{item.platform && item.channel ? (
								<span className="muted">
									{' · '}
									{t(`platforms.${item.platform}`)} / {item.channel}
								</span>
							) : null}
						</dd>
					</>
				) : null}
			</dl>
			<DecisionForm kind={item.kind} target={item.id} titleId={titleId} failed={failed} />
		</article>
	)
}

function AppealCard({ appeal, lang, failed }: { appeal: OpenAppeal; lang: Locale; failed: DecisionActionData | null }) {
	const { t } = useTranslation()
	const titleId = `item-${appeal.decisionId}`
	return (
		<article className="card moderation-item" aria-labelledby={titleId}>
			<header className="moderation-item__header">
				<span className="moderation-item__kind moderation-item__kind--appeal">{t('operator.kind-appeal')}</span>
				<h3 id={titleId}>{t('operator.appeal-title', { decision: t(`operator.measures.${appeal.action}`), user: appeal.subjectUsername ?? t('operator.unknown-person') })}</h3>
				<time className="moderation-item__when" dateTime={appeal.createdAt}>
					{formatWhen(lang, appeal.createdAt)}
				</time>
			</header>
			<dl className="moderation__facts">
				<dt>{t('operator.statement')}</dt>
				<dd className="moderation__text">{appeal.statement}</dd>
				<dt>{t('operator.decision-ground')}</dt>
				<dd>{t(`operator.grounds.${appeal.ground}`)}</dd>
				<dt>{t('operator.decision-explanation')}</dt>
				<dd className="moderation__text">{appeal.explanation}</dd>
				{appeal.dareDescription ? (
					<>
						<dt>{t('operator.dare')}</dt>
						<dd>
							<blockquote className="moderation__quote">{appeal.dareDescription}</blockquote>
						</dd>
					</>
				) : null}
			</dl>
			<DecisionForm kind="appeal" target={appeal.decisionId} titleId={titleId} failed={failed} />
		</article>
	)
}

/** A creator's payout waiting for review: who, how much, their history with payouts, and approve or reject. */
function PayoutCard({ payout, lang, failed }: { payout: PayoutAwaitingReview; lang: Locale; failed: DecisionActionData | null }) {
	const { t } = useTranslation()
	const titleId = `item-${payout.id}`
	const money = formatPrice(lang, payout.amountMinor, payout.currency)
	return (
		<article className="card moderation-item" aria-labelledby={titleId}>
			<header className="moderation-item__header">
				<span className="moderation-item__kind moderation-item__kind--payout">{t('operator.kind-payout')}</span>
				<h3 id={titleId}>{t('operator.payout-title', { user: payout.username ?? t('operator.unknown-person'), money })}</h3>
				<time className="moderation-item__when" dateTime={payout.createdAt}>
					{formatWhen(lang, payout.createdAt)}
				</time>
			</header>
			<dl className="moderation__facts">
				<dt>{t('operator.payout-coins')}</dt>
				<dd>{formatCoins(lang, payout.coins)}</dd>
				<dt>{t('operator.payout-history')}</dt>
				<dd>{payout.firstPayout ? t('operator.payout-history-first') : t('operator.payout-history-paid')}</dd>
				<dt>{t('operator.payout-earned')}</dt>
				<dd>{formatCoins(lang, payout.earned)}</dd>
				<dt>{t('operator.payout-country')}</dt>
				<dd>{payout.accountCountry ?? t('operator.payout-country-none')}</dd>
			</dl>
			<DecisionForm kind="payout" target={payout.id} titleId={titleId} failed={failed} />
		</article>
	)
}

function formError(t: (key: string, options?: Record<string, unknown>) => string, error: DecisionFormError, language: string): string {
	return error.startsWith('error-') ? translateError(t, error, language) : t(error)
}

/**
 * One decision: the action, the rule it rests on, an explanation. A measure
 * needs a rule; dismissing, approving and granting break none, and with
 * JavaScript choosing one of them picks "No rule broken" (the server takes
 * their ground as that in any case). A payout's rejection is read by the
 * creator in the statement of reasons, so its hints say so.
 */
function DecisionForm({ kind, target, titleId, failed }: { kind: ItemKind | 'payout'; target: string; titleId: string; failed: DecisionActionData | null }) {
	const { t, i18n } = useTranslation()
	const navigation = useNavigation()
	const [action, setAction] = useState(failed?.values.action ?? '')
	const [ground, setGround] = useState(failed?.values.ground ?? '')
	const id = `decide-${target}`
	const { actions, labels, hints, breaksNoRule } = decisionChoices(kind)
	const choose = (next: string) => {
		setAction(next)
		if (breaksNoRule(next)) setGround('none')
		else if (ground === 'none') setGround('')
	}
	const pending = navigation.state === 'submitting' && navigation.formData?.get('target') === target
	const errorId = failed ? `${id}-error` : undefined
	const groundInvalid = failed?.error === 'operator.ground-needed' || failed?.error === 'operator.ground-none'
	const explanationInvalid = failed?.error === 'error-decision-explanation-required'
	return (
		// Named "Your decision" and the item's title: one form landmark per item, told apart.
		<Form method="post" className="decision stack" aria-labelledby={`${id}-name ${titleId}`} preventScrollReset>
			<span id={`${id}-name`} hidden>
				{t('operator.decide-title')}
			</span>
			<input type="hidden" name="kind" value={kind} />
			<input type="hidden" name="target" value={target} />
			<fieldset className="decision__actions" aria-describedby={failed?.error === 'error-invalid-decision' ? errorId : undefined}>
				<legend>{t('operator.action')}</legend>
				{actions.map((choice) => (
					<label key={choice} className="decision__choice">
						<input type="radio" name="action" value={choice} required checked={action === choice} onChange={() => choose(choice)} />
						<span>{t(`${labels}.${choice}`)}</span>
					</label>
				))}
			</fieldset>
			<div className="field">
				<label htmlFor={`${id}-ground`}>{t('operator.ground')}</label>
				<select
					id={`${id}-ground`}
					name="ground"
					required
					value={ground}
					onChange={(event) => setGround(event.currentTarget.value)}
					aria-invalid={groundInvalid || undefined}
					aria-describedby={[groundInvalid ? errorId : null, `${id}-ground-hint`].filter(Boolean).join(' ')}
				>
					<option value="">{t('operator.ground-choose')}</option>
					{GROUNDS.map((g) => (
						<option key={g} value={g}>
							{t(`operator.grounds.${g}`)}
						</option>
					))}
					<option value="none">{t('operator.grounds.none')}</option>
				</select>
				<p id={`${id}-ground-hint`} className="field__hint">
					{t(`${hints}ground-hint`)}
				</p>
			</div>
			<div className="field">
				<label htmlFor={`${id}-explanation`}>{t('operator.explanation')}</label>
				<textarea
					id={`${id}-explanation`}
					name="explanation"
					required
					maxLength={MODERATION_LIMITS.explanation}
					rows={4}
					defaultValue={failed?.values.explanation}
					aria-invalid={explanationInvalid || undefined}
					aria-describedby={[explanationInvalid ? errorId : null, `${id}-explanation-hint`].filter(Boolean).join(' ')}
				/>
				<p id={`${id}-explanation-hint`} className="field__hint">
					{t(`${hints}explanation-hint`, { max: new Intl.NumberFormat(i18n.language).format(MODERATION_LIMITS.explanation) })}
				</p>
			</div>
			{failed ? (
				<p id={errorId} className="form-errors" role="alert">
					{formError(t, failed.error, i18n.language)}
				</p>
			) : null}
			<div>
				<SubmitButton pending={pending}>{t('operator.submit')}</SubmitButton>
			</div>
		</Form>
	)
}

/** What differs between a report's, an appeal's and a payout's decision: the actions, their labels and hints, which break no rule. */
function decisionChoices(kind: ItemKind | 'payout'): { actions: readonly string[]; labels: string; hints: string; breaksNoRule(action: string): boolean } {
	if (kind === 'payout') {
		return { actions: PAYOUT_DECISIONS, labels: 'operator.payout-actions', hints: 'operator.payout-', breaksNoRule: (action) => action === ('approve_payout' satisfies PayoutDecision) }
	}
	return { actions: ACTIONS_BY_KIND[kind], labels: 'operator.actions', hints: 'operator.', breaksNoRule: (action) => NO_MEASURE.includes(action as DecisionAction) }
}
