import { Form, Link, useNavigation } from 'react-router'
import { ErrorList, SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import type { Locale } from '#app/i18n/locales'
import { useTranslation } from '#app/i18n/translation'
import { NumberField } from '#app/modules/sessions/number-field'
import { formatCoins, formatPrice } from '#app/modules/shop/format'
import type { Country, EarningsActionData, EarningsPageData, EarningsSummary, PayoutQuote, PayoutView, PendingPart, SessionEarnings } from './earnings.server'
import { minorUnitsFor, requirementKinds } from './money'
import { PAYOUT_INTENTS } from './schemas'

type T = (key: string, options?: Record<string, unknown>) => string
type CreatorData = Extract<EarningsPageData, { creator: true }>

/**
 * The creator's earnings page (/{lang}/earnings, docs/product.md §14): every
 * coin's state (available, pending with the date each part matures, in a
 * payout, paid out), what stops a payout right now and what fixes it, the
 * payout account and what the payment provider still needs, the request
 * with its confirmation step (the conversion and the fee before anything
 * moves), the payouts with their status, and the earnings per session.
 * Every form is a plain post, with or without JavaScript.
 */
export function EarningsPage({ data, actionData, lang }: { data: EarningsPageData; actionData: EarningsActionData | null; lang: Locale }) {
	const { t } = useTranslation()
	if (!data.creator) return <NotACreator reason={data.reason} lang={lang} />
	return (
		<div className="earnings">
			<PageTitle title={t('earnings.title')} noindex />
			<header className="earnings__header">
				<h1>{t('earnings.title')}</h1>
				<p className="page__lead">{data.summary.holdDays > 0 ? t('earnings.lead', { days: data.summary.holdDays }) : t('earnings.lead-no-hold')}</p>
			</header>
			{data.mode === 'test' ? (
				<p className="earnings-notice earnings-notice--test" role="note">
					<strong>{t('earnings.test-title')}</strong> {t('earnings.test-body')}
				</p>
			) : data.mode === 'closed' ? (
				<p className="earnings-notice" role="note">
					{t('earnings.closed-body')}
				</p>
			) : null}
			<Figures summary={data.summary} pending={data.pending} lang={lang} />
			<RequestSection data={data} actionData={actionData} lang={lang} />
			<AccountSection summary={data.summary} countries={data.countries} lang={lang} />
			<PendingSection pending={data.pending} lang={lang} />
			<PayoutsSection payouts={data.payouts} lang={lang} />
			<SessionsSection sessions={data.sessions} lang={lang} />
		</div>
	)
}

/**
 * A signed-in user who is not a creator: what the page is for and how to
 * become one, none of the figures. (Or one who still has to prove their
 * second factor, whom the database shows nothing until then.)
 */
function NotACreator({ reason, lang }: { reason: 'error-not-a-creator' | 'error-aal2-required'; lang: Locale }) {
	const { t } = useTranslation()
	return (
		<div className="narrow-page">
			<PageTitle title={t('earnings.title')} noindex />
			<h1>{t('earnings.title')}</h1>
			<div className="panel card stack" role="alert">
				<h2>{t(`errors.${reason}`)}</h2>
				{reason === 'error-not-a-creator' ? (
					<>
						<p>{t('earnings.not-creator')}</p>
						<p>
							<Link className="button button--primary" to={`/${lang}/settings/channels`}>
								{t('sessions.link-channels')}
							</Link>
						</p>
					</>
				) : null}
			</div>
		</div>
	)
}

function useDates(lang: Locale) {
	// UTC, said: the server's and the browser's rendering agree, and the reader knows which clock.
	const dateTime = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' })
	const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' })
	return { dateTime: (iso: string) => dateTime.format(new Date(iso)), date: (iso: string) => date.format(new Date(iso)) }
}

/** The fee of the operator's configuration as a percentage in the page's language ("2.5 %", "%2,5"). */
function formatPercent(lang: Locale, basisPoints: number): string {
	return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000)
}

function Figures({ summary, pending, lang }: { summary: EarningsSummary; pending: PendingPart[]; lang: Locale }) {
	const { t } = useTranslation()
	const { dateTime } = useDates(lang)
	const coins = (n: number) => t('earnings.coins', { coins: formatCoins(lang, n) })
	const worth = formatPrice(lang, minorUnitsFor(summary.available, summary.centsPerCoin), summary.currency)
	const next = pending[0]
	return (
		<section className="earnings-figures" aria-labelledby="earnings-figures-title">
			<h2 id="earnings-figures-title" className="visually-hidden">
				{t('earnings.figures-title')}
			</h2>
			<dl className="earnings-figures__list">
				<div className="earnings-figure earnings-figure--available">
					<dt>{t('earnings.available')}</dt>
					<dd className="earnings-figure__coins">{coins(summary.available)}</dd>
					<dd className="earnings-figure__note">
						{summary.feeBasisPoints > 0 ? t('earnings.worth-before-fee', { money: worth }) : t('earnings.worth', { money: worth })}
					</dd>
				</div>
				<div className="earnings-figure">
					<dt>{t('earnings.pending')}</dt>
					<dd className="earnings-figure__coins">{coins(summary.pending)}</dd>
					<dd className="earnings-figure__note">
						{next ? t('earnings.pending-next', { coins: formatCoins(lang, next.coins), date: dateTime(next.maturesAt) }) : t('earnings.pending-none')}
					</dd>
				</div>
				<div className="earnings-figure">
					<dt>{t('earnings.in-payout')}</dt>
					<dd className="earnings-figure__coins">{coins(summary.inPayout)}</dd>
					<dd className="earnings-figure__note">{t('earnings.in-payout-note')}</dd>
				</div>
				<div className="earnings-figure">
					<dt>{t('earnings.paid-out')}</dt>
					<dd className="earnings-figure__coins">{coins(summary.paidOut)}</dd>
					<dd className="earnings-figure__note">{t('earnings.earned-total', { coins: formatCoins(lang, summary.earned) })}</dd>
				</div>
			</dl>
			<p className="earnings-figures__rate">
				{t('earnings.rate', {
					coins: formatCoins(lang, 1000),
					money: formatPrice(lang, minorUnitsFor(1000, summary.centsPerCoin), summary.currency),
				})}{' '}
				{summary.feeBasisPoints > 0 ? t('earnings.fee', { percent: formatPercent(lang, summary.feeBasisPoints) }) : t('earnings.no-fee')}
			</p>
			{summary.debt > 0 ? (
				<p className="notice" role="note">
					{t('earnings.debt', { coins: formatCoins(lang, summary.debt) })}
				</p>
			) : null}
		</section>
	)
}

/** What stops a payout now: each blocker in plain words, with what fixes it. */
function Blockers({ summary, lang }: { summary: EarningsSummary; lang: Locale }) {
	const { t, i18n } = useTranslation()
	return (
		<div className="earnings-blockers">
			<h3>{t('earnings.blocked-title')}</h3>
			<ul>
				{summary.blockers.map((code) => (
					<li key={code}>
						<p>{blockerText(t, code, summary, lang, i18n.language)}</p>
						<BlockerFix code={code} summary={summary} lang={lang} />
					</li>
				))}
			</ul>
		</div>
	)
}

function blockerText(t: T, code: string, summary: EarningsSummary, lang: Locale, language: string): string {
	switch (code) {
		case 'error-payout-account-missing':
		case 'error-payout-account-not-ready':
		case 'error-payouts-restricted':
		case 'error-spending-restricted':
			return t(`earnings.blockers.${code}`)
		case 'error-payout-below-minimum':
			return t('earnings.blockers.error-payout-below-minimum', { available: formatCoins(lang, summary.available), min: formatCoins(lang, summary.minCoins) })
		default:
			return t(`errors.${code}`, { defaultValue: t('errors.unknown-error', { lng: language }) })
	}
}

function BlockerFix({ code, summary, lang }: { code: string; summary: EarningsSummary; lang: Locale }) {
	const { t } = useTranslation()
	if (code === 'error-payout-account-missing') {
		return (
			<p className="earnings-blockers__fix">
				<a href="#earnings-account-title">{t('earnings.account-set-up')}</a>
			</p>
		)
	}
	if (code === 'error-payout-account-not-ready') return <OnboardButton label={t('earnings.account-finish')} />
	if (code === 'error-payouts-restricted') {
		return (
			<p className="earnings-blockers__fix">
				<Link to={`/${lang}/settings`}>{t('earnings.blockers.restricted-fix')}</Link>
			</p>
		)
	}
	if (code === 'error-spending-restricted' && summary.debt > 0) {
		return (
			<p className="earnings-blockers__fix">
				<Link to={`/${lang}/shop`}>{t('earnings.blockers.debt-fix')}</Link>
			</p>
		)
	}
	return null
}

function OnboardButton({ label, primary = true }: { label: string; primary?: boolean }) {
	return (
		<Form method="post" className="earnings-blockers__fix">
			<SubmitButton intent={PAYOUT_INTENTS.onboard} className={primary ? 'button button--primary' : 'button'}>
				{label}
			</SubmitButton>
		</Form>
	)
}

function RequestSection({ data, actionData, lang }: { data: CreatorData; actionData: EarningsActionData | null; lang: Locale }) {
	const { t } = useTranslation()
	const { summary } = data
	const confirming = actionData?.step === 'confirm' ? actionData : null
	return (
		<section className="card earnings-section" aria-labelledby="earnings-request-title">
			<h2 id="earnings-request-title">{t('earnings.request-title')}</h2>
			{confirming ? (
				<Confirmation
					quote={confirming.quote}
					idempotencyKey={confirming.idempotencyKey}
					summary={summary}
					// As request_payout decides: a creator's first payout waits for review until one was approved.
					first={!data.payouts.some((p) => p.status === 'approved' || p.status === 'sent' || p.status === 'paid')}
					lang={lang}
				/>
			) : summary.blockers.length > 0 ? (
				<Blockers summary={summary} lang={lang} />
			) : (
				<RequestForm summary={summary} formKey={data.formKey} refused={actionData?.step === 'refused' ? actionData : null} lang={lang} />
			)}
			{/* A refusal of the confirmed request, or of a form the page no longer shows (the blockers changed meanwhile). */}
			{actionData?.step === 'refused' && summary.blockers.length > 0 ? <ErrorList errors={[actionData.error]} /> : null}
		</section>
	)
}

function RequestForm({ summary, formKey, refused, lang }: { summary: EarningsSummary; formKey: string; refused: { error: string; coins: string } | null; lang: Locale }) {
	const { t } = useTranslation()
	const typed = refused && /^\d+$/.test(refused.coins) ? Number(refused.coins) : undefined
	return (
		<Form method="post" className="stack earnings-request" preventScrollReset>
			<p className="earnings-section__lead">
				{t('earnings.request-lead', { min: formatCoins(lang, summary.minCoins), available: formatCoins(lang, summary.available) })}
			</p>
			<input type="hidden" name="idempotencyKey" value={formKey} />
			<NumberField
				name="coins"
				label={t('earnings.request-coins')}
				hint={t('earnings.request-hint', { min: formatCoins(lang, summary.minCoins), max: formatCoins(lang, summary.available) })}
				limit={{ min: summary.minCoins, max: Math.max(summary.available, summary.minCoins), step: 1 }}
				defaultValue={typed ?? summary.available}
				errors={refused ? [refused.error] : undefined}
				locale={lang}
			/>
			<div>
				<SubmitButton intent={PAYOUT_INTENTS.quote}>{t('earnings.request-continue')}</SubmitButton>
			</div>
		</Form>
	)
}

/** The confirmation step: what leaves, the fee, what arrives; the request goes only from here. */
function Confirmation({
	quote,
	idempotencyKey,
	summary,
	first,
	lang,
}: {
	quote: PayoutQuote
	idempotencyKey: string
	summary: EarningsSummary
	first: boolean
	lang: Locale
}) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const large = quote.coins > summary.reviewCoins
	return (
		<Form method="post" className="stack earnings-confirm" aria-labelledby="earnings-confirm-title" preventScrollReset>
			<h3 id="earnings-confirm-title">{t('earnings.confirm-title')}</h3>
			<dl className="earnings-confirm__facts">
				<div>
					<dt>{t('earnings.confirm-coins')}</dt>
					<dd>{t('earnings.coins', { coins: formatCoins(lang, quote.coins) })}</dd>
				</div>
				<div>
					<dt>{t('earnings.confirm-fee')}</dt>
					<dd>{quote.feeCoins > 0 ? t('earnings.coins', { coins: formatCoins(lang, quote.feeCoins) }) : t('earnings.confirm-no-fee')}</dd>
				</div>
				<div className="earnings-confirm__amount">
					<dt>{t('earnings.confirm-amount')}</dt>
					<dd>{formatPrice(lang, quote.amountMinor, quote.currency)}</dd>
				</div>
			</dl>
			<p className="field__hint">
				{large
					? t('earnings.confirm-review-large', { coins: formatCoins(lang, summary.reviewCoins) })
					: first
						? t('earnings.confirm-review')
						: t('earnings.confirm-direct')}
			</p>
			<input type="hidden" name="coins" value={quote.coins} />
			<input type="hidden" name="idempotencyKey" value={idempotencyKey} />
			<div className="actions">
				<SubmitButton intent={PAYOUT_INTENTS.request} pending={navigation.state === 'submitting' && navigation.formData?.get('intent') === PAYOUT_INTENTS.request}>
					{t('earnings.confirm-submit', { money: formatPrice(lang, quote.amountMinor, quote.currency) })}
				</SubmitButton>
				<Link className="button button--ghost" to={`/${lang}/earnings`} preventScrollReset>
					{t('earnings.confirm-change')}
				</Link>
			</div>
		</Form>
	)
}

function AccountSection({ summary, countries, lang }: { summary: EarningsSummary; countries: Country[]; lang: Locale }) {
	const { t } = useTranslation()
	const { account } = summary
	const country = account.country ? (countries.find((c) => c.code === account.country)?.name ?? account.country) : null
	const kinds = requirementKinds(account.requirements)
	const status = account.status ?? 'none'
	return (
		<section className="card earnings-section" aria-labelledby="earnings-account-title">
			<h2 id="earnings-account-title">{t('earnings.account-title')}</h2>
			<p className="earnings-account__status">
				<span className={`earnings-status earnings-status--${status}`}>{t(`earnings.account-status.${status}`)}</span>
				{country ? <span className="muted"> · {country}</span> : null}
			</p>
			<p className="earnings-section__lead">{t(`earnings.account-explain.${status}`)}</p>
			{account.status === 'restricted' && account.disabledReason ? (
				<p className="notice">{t(`earnings.account-disabled.${disabledKind(account.disabledReason)}`)}</p>
			) : null}
			{kinds.length > 0 ? (
				<div>
					<h3 className="earnings-account__due">{t('earnings.requirements-title')}</h3>
					<ul className="earnings-requirements">
						{kinds.map((kind) => (
							<li key={kind}>{t(`earnings.requirements.${kind}`)}</li>
						))}
					</ul>
				</div>
			) : null}
			{account.status === null ? (
				<NewAccountForm countries={countries} lang={lang} />
			) : (
				<OnboardButton label={account.status === 'ready' ? t('earnings.account-manage') : t('earnings.account-finish')} primary={account.status !== 'ready'} />
			)}
		</section>
	)
}

/** The language's own country first where the platform pays there (a guess the creator corrects). */
const LIKELY_COUNTRY: Record<Locale, string> = { en: 'GB', de: 'DE', es: 'ES', tr: 'TR' }

/** A new payout account: the country it is in, from those the platform can pay to; then on to the provider. */
function NewAccountForm({ countries, lang }: { countries: Country[]; lang: Locale }) {
	const { t } = useTranslation()
	const likely = countries.some((c) => c.code === LIKELY_COUNTRY[lang]) ? LIKELY_COUNTRY[lang] : countries[0]?.code
	return (
		<Form method="post" className="stack earnings-account__form">
			<div className="field">
				<label htmlFor="earnings-country">{t('earnings.account-country-label')}</label>
				<select id="earnings-country" name="country" defaultValue={likely} aria-describedby="earnings-country-hint" required>
					{countries.map(({ code, name }) => (
						<option key={code} value={code}>
							{name}
						</option>
					))}
				</select>
				<p id="earnings-country-hint" className="field__hint">
					{t('earnings.account-country-hint')}
				</p>
			</div>
			<div>
				<SubmitButton intent={PAYOUT_INTENTS.onboard}>{t('earnings.account-set-up')}</SubmitButton>
			</div>
		</Form>
	)
}

/** The provider's reason an account cannot be paid, in one of a few plain words (Stripe's requirements.disabled_reason). */
/**
 * Stripe's reason a payout account cannot receive money (Accounts v2's
 * status_details codes, app/modules/payouts/stripe-connect.server.ts), in
 * the words the page has for it.
 */
function disabledKind(reason: string): 'requirements' | 'review' | 'rejected' | 'other' {
	if (reason.startsWith('requirements_past_due')) return 'requirements'
	if (reason.includes('pending_verification') || reason.includes('review')) return 'review'
	if (reason.startsWith('rejected_')) return 'rejected'
	return 'other'
}

function PendingSection({ pending, lang }: { pending: PendingPart[]; lang: Locale }) {
	const { t } = useTranslation()
	const { dateTime } = useDates(lang)
	return (
		<section className="card earnings-section" aria-labelledby="earnings-pending-title">
			<h2 id="earnings-pending-title">{t('earnings.pending-title')}</h2>
			{pending.length === 0 ? (
				<p className="muted">{t('earnings.pending-empty')}</p>
			) : (
				<ul className="earnings-rows">
					{pending.map((part, i) => (
						<li key={`${part.maturesAt}-${i}`}>
							<span className="earnings-rows__main">{t('earnings.coins', { coins: formatCoins(lang, part.coins) })}</span>
							<time className="earnings-rows__side" dateTime={part.maturesAt}>
								{t('earnings.matures', { date: dateTime(part.maturesAt) })}
							</time>
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

function PayoutsSection({ payouts, lang }: { payouts: PayoutView[]; lang: Locale }) {
	const { t } = useTranslation()
	const { date } = useDates(lang)
	return (
		<section className="card earnings-section earnings-table" aria-labelledby="earnings-payouts-title">
			<h2 id="earnings-payouts-title">{t('earnings.payouts-title')}</h2>
			{payouts.length === 0 ? (
				<p className="muted">{t('earnings.payouts-empty')}</p>
			) : (
				<table>
					<thead>
						<tr>
							<th scope="col">{t('earnings.payouts-date')}</th>
							<th scope="col">{t('earnings.payouts-coins')}</th>
							<th scope="col">{t('earnings.payouts-amount')}</th>
							<th scope="col">{t('earnings.payouts-status')}</th>
						</tr>
					</thead>
					<tbody>
						{payouts.map((p) => (
							<tr key={p.id}>
								<td>
									<time dateTime={p.createdAt}>{date(p.createdAt)}</time>
								</td>
								<td>
									{t('earnings.coins', { coins: formatCoins(lang, p.coins) })}
									{p.feeCoins > 0 ? <span className="muted"> {t('earnings.payouts-fee', { coins: formatCoins(lang, p.feeCoins) })}</span> : null}
								</td>
								<td>{formatPrice(lang, p.amountMinor, p.currency)}</td>
								<td className="earnings-table__state">
									<div className="earnings-table__status">
										<span className={`earnings-status earnings-status--${p.status}`}>{t(`earnings.status.${p.status}`)}</span>
										<span className="earnings-table__why">{statusNote(t, p, date)}</span>
									</div>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}

const FAILURES = ['account_not_ready', 'platform_balance', 'transfer_refused', 'reversed']

function statusNote(t: T, p: PayoutView, date: (iso: string) => string): string {
	switch (p.status) {
		case 'review':
		case 'approved':
		case 'sent':
			return t(`earnings.status-note.${p.status}`)
		case 'paid':
			return p.paidAt ? t('earnings.status-note.paid', { date: date(p.paidAt) }) : ''
		case 'failed':
			// The provider's reason, as one of the codes provider.server.ts records.
			return t(`earnings.failure.${p.failureReason && FAILURES.includes(p.failureReason) ? p.failureReason : 'other'}`)
		case 'rejected':
			// The operator's explanation, which the statement of reasons also carries.
			return p.failureReason ? t('earnings.status-note.rejected-why', { reason: p.failureReason }) : t('earnings.status-note.rejected')
	}
}

function SessionsSection({ sessions, lang }: { sessions: SessionEarnings[]; lang: Locale }) {
	const { t } = useTranslation()
	const { date } = useDates(lang)
	return (
		<section className="card earnings-section earnings-table" aria-labelledby="earnings-sessions-title">
			<h2 id="earnings-sessions-title">{t('earnings.sessions-title')}</h2>
			{sessions.length === 0 ? (
				<p className="muted">{t('earnings.sessions-empty')}</p>
			) : (
				<table>
					<thead>
						<tr>
							<th scope="col">{t('earnings.sessions-session')}</th>
							<th scope="col">{t('earnings.sessions-date')}</th>
							<th scope="col">{t('earnings.sessions-dares')}</th>
							<th scope="col">{t('earnings.sessions-coins')}</th>
						</tr>
					</thead>
					<tbody>
						{sessions.map((s) => (
							<tr key={s.sessionId}>
								<td className="earnings-table__title">
									<Link to={`/${lang}/session/${s.sessionId}`}>{s.title}</Link>
								</td>
								<td>
									<time dateTime={s.startedAt}>{date(s.startedAt)}</time>
								</td>
								<td data-label={t('earnings.sessions-dares')}>{formatCoins(lang, s.dares)}</td>
								<td>{t('earnings.coins', { coins: formatCoins(lang, s.coins) })}</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}

