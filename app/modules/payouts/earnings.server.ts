import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { servicesContext } from '#app/context.server'
import { toAppError, type Queryable } from '#app/db/database.server'
import { translateError } from '#app/i18n/errors'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { dataWithFlash } from '#app/modules/flash/flash.server'
import { formatCoins } from '#app/modules/shop/format'
import { queryAsViewer } from '#app/utils/db.server'
import type { AppServices } from '#app/context.server'
import { notFound } from '#app/utils/http'
import { payoutCountries } from './countries'
import { checkPayoutCountry, completeTestOnboarding, payoutMode, payoutProvider, sendApprovedPayouts, type PayoutMode } from './provider.server'
import { PAYOUT_INTENTS, PayoutOnboardSchema, PayoutQuoteSchema, PayoutRequestSchema, TestOnboardingSchema } from './schemas'

type Ctx = Readonly<RouterContextProvider>

/** What stops a payout request right now: public.my_earnings().blockers, error codes of public.request_payout. */
export type PayoutBlocker = `error-${string}`

/** The account at the payment provider that payouts go to (ledger.payout_accounts, as my_earnings shows it). */
export interface PayoutAccountView {
	/** null: none set up yet. */
	status: 'onboarding' | 'ready' | 'restricted' | null
	/** What the provider still needs, in our own codes (identity, bank_account, tax, terms, other: requirementCodes in provider.server.ts). */
	requirements: string[]
	country: string | null
	disabledReason: string | null
}

/** public.my_earnings(), in coins unless said (docs/product.md §14). */
export interface EarningsSummary {
	balance: number
	/** Everything completed dares ever paid in. */
	earned: number
	/** In the hold period: not available yet. */
	pending: number
	/** May be requested now. */
	available: number
	/** In payouts under review, approved or sent. */
	inPayout: number
	paidOut: number
	/** Coins owed from disputed purchases. */
	debt: number
	holdDays: number
	minCoins: number
	reviewCoins: number
	/** The operator's rate: the currency's minor units per coin, as a decimal string ("1", "0.85"). */
	centsPerCoin: string
	feeBasisPoints: number
	currency: string
	account: PayoutAccountView
	payoutsRestricted: boolean
	spendingRestricted: boolean
	blockers: PayoutBlocker[]
}

export interface PendingPart {
	maturesAt: string
	coins: number
}

export interface SessionEarnings {
	sessionId: string
	title: string
	startedAt: string
	endedAt: string | null
	coins: number
	dares: number
}

export type PayoutStatus = 'review' | 'approved' | 'sent' | 'paid' | 'failed' | 'rejected'

export interface PayoutView {
	id: string
	createdAt: string
	coins: number
	feeCoins: number
	amountMinor: number
	currency: string
	status: PayoutStatus
	needsReview: boolean
	failureReason: string | null
	paidAt: string | null
}

export interface PayoutQuote {
	coins: number
	feeCoins: number
	amountMinor: number
	currency: string
}

export type EarningsPageData =
	/** Not the page: no creator, or (no row at all) a viewer who has not proved their second factor yet (docs/product.md §2.8). */
	| { creator: false; reason: 'error-not-a-creator' | 'error-aal2-required' }
	| {
			creator: true
			summary: EarningsSummary
			pending: PendingPart[]
			sessions: SessionEarnings[]
			payouts: PayoutView[]
			/** The request form's idempotency key, minted for this rendering. */
			formKey: string
			/** Who pays: Stripe, the test stand-in (no money moves), or nobody yet (closed). */
			mode: PayoutMode
			/** The countries a payout account may be in (the platform's PAYOUT_COUNTRY decides), named in the page's language and sorted by name. */
			countries: Country[]
	  }

/** A country as the page lists it. */
export interface Country {
	code: string
	name: string
}

/**
 * The countries named in `lang` and sorted by name: on the server only, so
 * the page the browser hydrates names them as the server did (two builds of
 * ICU may name or sort a country differently).
 */
export function namedCountries(codes: readonly string[], lang: Locale): Country[] {
	const names = new Intl.DisplayNames([lang], { type: 'region' })
	return codes.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, lang))
}

/** What the request forms answer when they do not move on: the confirmation step, or a refusal with what was typed. */
export type EarningsActionData =
	| { step: 'confirm'; quote: PayoutQuote; idempotencyKey: string }
	| { step: 'refused'; error: string; coins: string }

const iso = (value: Date | string) => new Date(value).toISOString()

/** The viewer's earnings as public.my_earnings() reads them (one row, also for someone who never earned). */
export async function readEarnings(tx: Queryable): Promise<{ isCreator: boolean; summary: EarningsSummary } | null> {
	const { rows } = await tx.query<{
		balance: number
		earned: number
		pending: number
		available: number
		in_payout: number
		paid_out: number
		debt: number
		hold_days: number
		min_coins: number
		review_coins: number
		cents_per_coin: string | number
		fee_basis_points: number
		currency: string
		account_status: PayoutAccountView['status']
		account_requirements: string[] | null
		account_country: string | null
		account_disabled_reason: string | null
		payouts_restricted: boolean
		spending_restricted: boolean
		is_creator: boolean
		blockers: string[] | null
	}>('select * from public.my_earnings()')
	const row = rows[0]
	if (!row) return null
	return {
		isCreator: row.is_creator,
		summary: {
			balance: row.balance,
			earned: row.earned,
			pending: row.pending,
			available: row.available,
			inPayout: row.in_payout,
			paidOut: row.paid_out,
			debt: row.debt,
			holdDays: row.hold_days,
			minCoins: row.min_coins,
			reviewCoins: row.review_coins,
			centsPerCoin: String(row.cents_per_coin),
			feeBasisPoints: row.fee_basis_points,
			currency: row.currency,
			account: {
				status: row.account_status,
				requirements: row.account_requirements ?? [],
				country: row.account_country,
				disabledReason: row.account_disabled_reason,
			},
			payoutsRestricted: row.payouts_restricted,
			spendingRestricted: row.spending_restricted,
			blockers: (row.blockers ?? []).filter((code): code is PayoutBlocker => code.startsWith('error-')),
		},
	}
}

async function readPending(tx: Queryable): Promise<PendingPart[]> {
	const { rows } = await tx.query<{ matures_at: Date | string; coins: number }>('select matures_at, coins from public.my_pending_earnings()')
	return rows.map((r) => ({ maturesAt: iso(r.matures_at), coins: r.coins }))
}

async function readSessions(tx: Queryable): Promise<SessionEarnings[]> {
	const { rows } = await tx.query<{ session_id: string; title: string; started_at: Date | string; ended_at: Date | string | null; coins: number; dares: number }>(
		'select session_id, title, started_at, ended_at, coins, dares from public.my_earnings_by_session(50)',
	)
	return rows.map((r) => ({ sessionId: r.session_id, title: r.title, startedAt: iso(r.started_at), endedAt: r.ended_at ? iso(r.ended_at) : null, coins: r.coins, dares: r.dares }))
}

async function readPayouts(tx: Queryable): Promise<PayoutView[]> {
	const { rows } = await tx.query<{
		id: string
		created_at: Date | string
		coins: number
		fee_coins: number
		amount_minor: number
		currency: string
		status: PayoutStatus
		needs_review: boolean
		failure_reason: string | null
		paid_at: Date | string | null
	}>('select id, created_at, coins, fee_coins, amount_minor, currency, status, needs_review, failure_reason, paid_at from public.my_payouts(50)')
	return rows.map((r) => ({
		id: r.id,
		createdAt: iso(r.created_at),
		coins: r.coins,
		feeCoins: r.fee_coins,
		amountMinor: r.amount_minor,
		currency: r.currency,
		status: r.status,
		needsReview: r.needs_review,
		failureReason: r.failure_reason,
		paidAt: r.paid_at ? iso(r.paid_at) : null,
	}))
}

/**
 * /{lang}/earnings (docs/product.md §14): a visitor is sent to sign in and
 * back (§3.6); a signed-in user who is not a creator (no creator profile and
 * never earned, my_earnings' is_creator) gets a short explanation with 403,
 * none of the figures; a creator gets the page, with a fresh key for the
 * request form.
 *
 * The payment provider's onboarding comes back here: `?onboarding=return`
 * (done or left: the account is read from the provider again, as its
 * webhook may not have arrived yet) and `?onboarding=refresh` (the link
 * expired: a new one). Both end on the page's own address.
 */
export async function loadEarnings(request: Request, context: Ctx, lang: Locale) {
	const viewer = requireViewer(request, context)
	const services = context.get(servicesContext)
	const onboarding = new URL(request.url).searchParams.get('onboarding')
	if (onboarding === 'return' || onboarding === 'refresh') return backFromOnboarding(context, viewer, lang, onboarding)
	const found = await queryAsViewer(context, async (tx) => {
		const earnings = await readEarnings(tx)
		if (!earnings) return 'error-aal2-required' as const
		if (!earnings.isCreator) return 'error-not-a-creator' as const
		return { summary: earnings.summary, pending: await readPending(tx), sessions: await readSessions(tx), payouts: await readPayouts(tx) }
	})
	const headers = { 'cache-control': 'no-store' }
	if (typeof found === 'string') return data<EarningsPageData>({ creator: false, reason: found }, { status: 403, headers })
	return data<EarningsPageData>(
		{ creator: true, ...found, formKey: randomUUID(), mode: payoutMode(services.env), countries: namedCountries(payoutCountries(services.env.PAYOUT_COUNTRY), lang) },
		{ headers },
	)
}

type ViewerLike = { userId: string; email: string | null }

/** The provider's addresses back to this page (absolute: they leave the site). */
function onboardingUrls(services: AppServices, lang: Locale) {
	const page = new URL(`/${lang}/earnings`, services.env.APP_URL)
	return { returnUrl: `${page.href}?onboarding=return`, refreshUrl: `${page.href}?onboarding=refresh` }
}

async function backFromOnboarding(context: Ctx, viewer: ViewerLike, lang: Locale, step: 'return' | 'refresh') {
	const here = `/${lang}/earnings`
	const { t, language } = getInstance(context)
	const services = context.get(servicesContext)
	const provider = payoutProvider(services)
	if (!provider) return redirect(here)
	try {
		if (step === 'return') {
			await provider.refreshAccount(viewer.userId)
			return redirect(here)
		}
		const country = (await queryAsViewer(context, (tx) => readEarnings(tx)))?.summary.account.country
		if (!country) return redirect(here)
		const { returnUrl, refreshUrl } = onboardingUrls(services, lang)
		const { url } = await provider.startOnboarding({ userId: viewer.userId, email: viewer.email }, country, returnUrl, refreshUrl)
		return redirect(url)
	} catch (error) {
		const code = codeOf(error)
		if (!code) throw error
		return redirectWithError(here, translateError(t, code, language))
	}
}

/** The field values of a refused form, sent back so the page shows what was typed. */
function refused(context: Ctx, code: string, coins: FormDataEntryValue | null) {
	const { t, language } = getInstance(context)
	return dataWithFlash<EarningsActionData>(context, { step: 'refused', error: code, coins: typeof coins === 'string' ? coins : '' }, 'error', translateError(t, code, language))
}

/**
 * The earnings page's forms, with or without JavaScript (each a plain post
 * that answers with the page):
 *
 * - onboard: on to the provider's onboarding (Stripe's hosted pages, or the
 *   test provider's page here), which comes back to the page;
 * - quote: the conversion and fee of the amount typed (public.payout_quote),
 *   shown for the creator to confirm; refused at once when the request
 *   could not go through (a blocker, below the minimum, above what is
 *   available), with the same codes request_payout answers;
 * - request: public.request_payout with the key minted when the page
 *   rendered, carried through the confirmation (a resent confirmation asks
 *   once); then approved payouts go to the provider (a first payout, or one
 *   above the review threshold, waits for an operator).
 *
 * A refusal answers with the translated error at the form and in a toast,
 * what was typed kept, nothing changed (status 200, so with JavaScript the
 * figures are read again).
 */
export async function earningsAction(request: Request, context: Ctx, lang: Locale) {
	const viewer = requireViewer(request, context)
	const here = `/${lang}/earnings`
	const { t, language } = getInstance(context)
	const services = context.get(servicesContext)
	const formData = await request.formData()
	const intent = formData.get('intent')

	if (intent === PAYOUT_INTENTS.onboard) {
		const submission = parseWithZod(formData, { schema: PayoutOnboardSchema })
		if (submission.status !== 'success') return redirectWithError(here, translateError(t, 'error-payout-country-unsupported', language))
		const provider = payoutProvider(services)
		if (!provider) return redirectWithError(here, t('earnings.closed-body'))
		try {
			const saved = await queryAsViewer(context, (tx) => readEarnings(tx))
			if (!saved?.isCreator) return redirectWithError(here, translateError(t, 'error-not-a-creator', language))
			// A new account's country is the creator's choice; an existing account keeps its own.
			const country = checkPayoutCountry(services.env, saved.summary.account.country ?? submission.value.country)
			const { returnUrl, refreshUrl } = onboardingUrls(services, lang)
			const { url } = await provider.startOnboarding({ userId: viewer.userId, email: viewer.email }, country, returnUrl, refreshUrl)
			return redirect(url)
		} catch (error) {
			const code = codeOf(error)
			if (!code) throw error
			return redirectWithError(here, translateError(t, code, language))
		}
	}

	if (intent === PAYOUT_INTENTS.quote) {
		const submission = parseWithZod(formData, { schema: PayoutQuoteSchema })
		if (submission.status !== 'success') return refused(context, firstError(submission.error) ?? 'error-invalid-amount', formData.get('coins'))
		const { coins, idempotencyKey } = submission.value
		try {
			const answer = await queryAsViewer(context, async (tx): Promise<{ refusal: string } | { quote: PayoutQuote }> => {
				const earnings = await readEarnings(tx)
				if (!earnings?.isCreator) return { refusal: 'error-not-a-creator' }
				// The reasons request_payout would refuse for, said before the creator confirms.
				const blocker = earnings.summary.blockers[0]
				if (blocker) return { refusal: blocker }
				if (coins < earnings.summary.minCoins) return { refusal: 'error-payout-below-minimum' }
				if (coins > earnings.summary.available) return { refusal: 'error-payout-above-available' }
				const { rows } = await tx.query<{ coins: number; fee_coins: number; amount_minor: number; currency: string }>(
					'select coins, fee_coins, amount_minor, currency from public.payout_quote($1)',
					[coins],
				)
				const row = rows[0]
				if (!row) return { refusal: 'error-invalid-amount' }
				return { quote: { coins: row.coins, feeCoins: row.fee_coins, amountMinor: row.amount_minor, currency: row.currency } }
			})
			if ('refusal' in answer) return refused(context, answer.refusal, formData.get('coins'))
			return data<EarningsActionData>({ step: 'confirm', quote: answer.quote, idempotencyKey })
		} catch (error) {
			const code = codeOf(error)
			if (!code) throw error
			return refused(context, code, formData.get('coins'))
		}
	}

	if (intent === PAYOUT_INTENTS.request) {
		const submission = parseWithZod(formData, { schema: PayoutRequestSchema })
		if (submission.status !== 'success') return refused(context, firstError(submission.error) ?? 'error-invalid-amount', formData.get('coins'))
		const { coins, idempotencyKey } = submission.value
		let payout: { id: string; status: PayoutStatus; coins: number; amount_minor: number; currency: string }
		try {
			payout = await queryAsViewer(context, async (tx) => {
				const { rows } = await tx.query<typeof payout>('select id, status, coins, amount_minor, currency from public.request_payout($1, $2)', [coins, idempotencyKey])
				return rows[0]!
			})
		} catch (error) {
			const code = codeOf(error)
			if (!code) throw error
			return refused(context, code, formData.get('coins'))
		}
		if (payout.status === 'approved') await sendApproved(services)
		const message = payout.status === 'review' ? 'earnings.requested-review' : 'earnings.requested'
		return redirectWithSuccess(here, t(message, { coins: formatCoins(lang, payout.coins) }))
	}

	return refused(context, 'error-unknown', null)
}

/**
 * Hands the approved payouts to the provider after a request or an
 * operator's approval. The payout is recorded either way: a failure here is
 * logged, and the provider's next round sends it.
 */
export async function sendApproved(services: AppServices): Promise<void> {
	try {
		await sendApprovedPayouts(services)
	} catch (error) {
		console.error('payouts: the approved payouts were not sent now; the next round sends them', error)
	}
}

/** The first message of a refused form's fields (the schemas' messages are `error-…` codes). */
function firstError(error: Record<string, string[] | null> | null | undefined): string | undefined {
	if (!error) return undefined
	for (const messages of Object.values(error)) if (messages?.[0]) return messages[0]
	return undefined
}

/** An error's `error-…` code: the database's, or one the provider raised (a DbError); null for anything unexpected. */
function codeOf(error: unknown): `error-${string}` | null {
	return toAppError(error)?.code ?? null
}

/**
 * The test provider's onboarding page (/{lang}/earnings/test-onboarding,
 * where the test provider's startOnboarding sends the creator): only while
 * test payouts are on (a 404 otherwise), for a signed-in creator who has
 * started setting up an account.
 */
export async function loadTestOnboarding(request: Request, context: Ctx, lang: Locale) {
	requireViewer(request, context)
	const { env } = context.get(servicesContext)
	if (payoutMode(env) !== 'test') notFound(request)
	const earnings = await queryAsViewer(context, (tx) => readEarnings(tx))
	if (!earnings?.isCreator) notFound(request)
	if (!earnings.summary.account.status) throw redirect(`/${lang}/earnings`)
	return { countries: namedCountries(payoutCountries(env.PAYOUT_COUNTRY), lang), country: earnings.summary.account.country }
}

/**
 * The test onboarding page's form: the test provider marks the account ready
 * in the chosen country (no money moves, and nothing leaves the app), then
 * back to the earnings page with a toast. A country the platform cannot pay
 * is refused with the provider's error.
 */
export async function testOnboardingAction(request: Request, context: Ctx, lang: Locale) {
	const viewer = requireViewer(request, context)
	const services = context.get(servicesContext)
	if (payoutMode(services.env) !== 'test') notFound(request)
	const { t, language } = getInstance(context)
	const here = `/${lang}/earnings/test-onboarding`
	const submission = parseWithZod(await request.formData(), { schema: TestOnboardingSchema })
	try {
		const earnings = await queryAsViewer(context, (tx) => readEarnings(tx))
		if (!earnings?.isCreator) notFound(request)
		const country = checkPayoutCountry(services.env, submission.status === 'success' ? submission.value.country : null)
		await completeTestOnboarding(services, { userId: viewer.userId }, country)
	} catch (error) {
		const code = codeOf(error)
		if (!code) throw error
		return redirectWithError(here, translateError(t, code, language))
	}
	return redirectWithSuccess(`/${lang}/earnings`, t('earnings.test-onboarding-done'))
}
