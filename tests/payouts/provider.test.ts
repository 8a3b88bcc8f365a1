import Stripe from 'stripe'
import { expect, test } from 'vitest'
import { parseEnv } from '#app/env.server'
import { CROSS_BORDER_REGION, canPayTo, normalizeCountry, payoutCountries } from '#app/modules/payouts/countries'
import { payoutMode, requirementCode, requirementCodes } from '#app/modules/payouts/provider.server'
import { describeAccount, transferRefusal } from '#app/modules/payouts/stripe-connect.server'
import { OPERATOR } from '#tests/support/env'

/** Pieces of the payout provider that need no database (docs/decisions/052-stripe-connect-payouts.md). */

test("Stripe's cross-border region pays inside itself; a platform elsewhere pays its own country only", () => {
	expect(CROSS_BORDER_REGION).toHaveLength(34)
	expect(canPayTo('DE', 'US')).toBe(true)
	expect(canPayTo('GB', 'CH')).toBe(true)
	expect(canPayTo('US', 'no')).toBe(true)
	expect(canPayTo('DE', 'TR')).toBe(false)
	expect(canPayTo('DE', 'JP')).toBe(false)
	expect(payoutCountries('AU')).toEqual(['AU'])
	expect(canPayTo('AU', 'DE')).toBe(false)
	expect(payoutCountries('DE')).toEqual([...payoutCountries('DE')].sort())
	expect(normalizeCountry(' at ')).toBe('AT')
	expect(normalizeCountry('XX')).toBeNull()
	expect(normalizeCountry(undefined)).toBeNull()
})

test("Stripe's requirements read as our few codes, each once, in a fixed order", () => {
	expect(requirementCode('identity.individual.dob')).toBe('identity')
	expect(requirementCode('identity.individual.verification.document')).toBe('identity')
	expect(requirementCode('payout_method')).toBe('bank_account')
	expect(requirementCode('external_account')).toBe('bank_account')
	expect(requirementCode('identity.individual.id_number')).toBe('tax')
	expect(requirementCode('identity.business_details.id_numbers')).toBe('tax')
	expect(requirementCode('identity.attestations.terms_of_service.account')).toBe('terms')
	expect(requirementCode('tos_acceptance.date')).toBe('terms')
	expect(requirementCode('something.new')).toBe('other')
	// Our own codes stay what they are.
	for (const code of ['identity', 'bank_account', 'tax', 'terms', 'other']) expect(requirementCode(code)).toBe(code)
	expect(requirementCodes(['payout_method', 'identity.individual.dob', 'identity.individual.address', 'x.y'])).toEqual(['identity', 'bank_account', 'other'])
	expect(requirementCodes([])).toEqual([])
})

function account(capability: { status: string; status_details?: Array<{ code: string }> } | null, entries: Array<{ description: string; from?: 'user' | 'stripe'; deadline?: string }> = [], extra: object = {}) {
	return {
		id: 'acct_1',
		object: 'v2.core.account',
		applied_configurations: ['recipient'],
		created: '2026-01-01T00:00:00.000Z',
		livemode: false,
		identity: { country: 'at' },
		configuration: capability
			? { recipient: { applied: true, capabilities: { stripe_balance: { stripe_transfers: { status: capability.status, status_details: (capability.status_details ?? []).map((d) => ({ ...d, resolution: 'provide_info' })) } } } } }
			: undefined,
		requirements: {
			entries: entries.map((e) => ({
				awaiting_action_from: e.from ?? 'user',
				description: e.description,
				errors: [],
				impact: {},
				minimum_deadline: { status: e.deadline ?? 'currently_due' },
				requested_reasons: [],
			})),
		},
		...extra,
	} as unknown as Stripe.V2.Core.Account
}

test("a v2 account's recipient transfers capability decides the status; what the creator must do now are its requirements", () => {
	expect(describeAccount(account({ status: 'active' }), 'u1', 'DE')).toEqual({
		userId: 'u1',
		provider: 'stripe',
		externalId: 'acct_1',
		country: 'AT',
		status: 'ready',
		requirements: [],
		disabledReason: null,
	})
	const fresh = describeAccount(
		account({ status: 'restricted', status_details: [{ code: 'requirements_past_due' }] }, [
			{ description: 'identity.individual.dob', deadline: 'past_due' },
			{ description: 'payout_method', deadline: 'past_due' },
			// Stripe's own checks, and what is due some day, are not the creator's to do now.
			{ description: 'identity.individual.address', from: 'stripe' },
			{ description: 'identity.individual.id_number', deadline: 'eventually_due' },
		]),
		'u1',
		'DE',
	)
	expect(fresh).toMatchObject({ status: 'onboarding', requirements: ['identity', 'bank_account'], disabledReason: 'requirements_past_due' })
	expect(describeAccount(account({ status: 'pending', status_details: [{ code: 'requirements_pending_verification' }] }), 'u1', 'DE').status).toBe('onboarding')
	expect(describeAccount(account({ status: 'rejected', status_details: [{ code: 'rejected_fraud' }] }), 'u1', 'DE')).toMatchObject({ status: 'restricted', disabledReason: 'rejected_fraud' })
	expect(describeAccount(account({ status: 'restricted', status_details: [{ code: 'restricted_other' }] }), 'u1', 'DE').status).toBe('restricted')
	expect(describeAccount(account({ status: 'unsupported', status_details: [{ code: 'unsupported_country' }] }), 'u1', 'DE').status).toBe('restricted')
	expect(describeAccount(account({ status: 'active' }, [], { closed: true }), 'u1', 'DE')).toMatchObject({ status: 'restricted', disabledReason: 'closed' })
	// Not requested (no configuration answered): not ready; the country we chose stands in for a missing identity.
	expect(describeAccount(account(null, [], { identity: undefined }), 'u1', 'DE')).toMatchObject({ status: 'onboarding', country: 'DE', disabledReason: 'not_requested' })
})

test("Stripe's refusals of a transfer become our failure reasons; anything else is tried again", () => {
	const refusal = (raw: Record<string, unknown>) => new Stripe.errors.StripeInvalidRequestError({ type: 'invalid_request_error', message: 'no', ...raw })
	expect(transferRefusal(refusal({ code: 'balance_insufficient' }))).toBe('platform_balance')
	expect(transferRefusal(refusal({ code: 'insufficient_capabilities_for_transfer', param: 'destination' }))).toBe('account_not_ready')
	expect(transferRefusal(refusal({ code: 'account_invalid' }))).toBe('account_not_ready')
	expect(transferRefusal(refusal({ code: 'amount_too_small', param: 'amount' }))).toBe('transfer_refused')
	expect(transferRefusal(new Stripe.errors.StripeAPIError({ type: 'api_error', message: 'down' }))).toBeNull()
	expect(transferRefusal(new Stripe.errors.StripeConnectionError({ type: 'api_error', message: 'no answer' }))).toBeNull()
	expect(transferRefusal(new Stripe.errors.StripeAuthenticationError({ type: 'invalid_request_error', message: 'bad key' }))).toBeNull()
	expect(transferRefusal(new Stripe.errors.StripeIdempotencyError({ type: 'idempotency_error', message: 'reused' }))).toBeNull()
	expect(transferRefusal(new Error('anything'))).toBeNull()
})

test('test payouts are like the test checkout: on by default only on this machine or a demo site, never with Stripe', () => {
	const local = parseEnv({ APP_URL: 'http://127.0.0.1:3000' })
	expect(local.TEST_PAYOUTS).toBe(true)
	expect(payoutMode(local)).toBe('test')
	const publicSite = { NODE_ENV: 'production', APP_URL: 'https://dares.example', ...OPERATOR }
	expect(parseEnv(publicSite).TEST_PAYOUTS).toBe(false)
	expect(payoutMode(parseEnv(publicSite))).toBe('closed')
	expect(() => parseEnv({ ...publicSite, TEST_PAYOUTS: 'true' })).toThrow(/TEST_PAYOUTS: must not be on with a public APP_URL/)
	expect(parseEnv({ ...publicSite, DEMO_SITE: 'true' }).TEST_PAYOUTS).toBe(true)
	// A Postgres server: off unless asked for.
	expect(parseEnv({ APP_URL: 'http://localhost:3000', DATABASE_URL: 'postgres://u@h/db' }).TEST_PAYOUTS).toBe(false)
	expect(parseEnv({ APP_URL: 'http://localhost:3000', DATABASE_URL: 'postgres://u@h/db', TEST_PAYOUTS: 'true' }).TEST_PAYOUTS).toBe(true)
	const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }
	expect(parseEnv(stripe).TEST_PAYOUTS).toBe(false)
	expect(payoutMode(parseEnv(stripe))).toBe('stripe')
	expect(() => parseEnv({ ...stripe, TEST_PAYOUTS: 'true' })).toThrow(/TEST_PAYOUTS: test payouts are off whenever Stripe is configured/)
})

test('the payout settings have their defaults and refuse what the ledger would', () => {
	const env = parseEnv({})
	expect(env).toMatchObject({
		PAYOUT_HOLD_DAYS: 14,
		PAYOUT_MIN_COINS: 2000,
		PAYOUT_REVIEW_COINS: 20000,
		PAYOUT_CENTS_PER_COIN: 0.7,
		PAYOUT_FEE_PERCENT: 0,
		PAYOUT_CURRENCY: 'EUR',
		PAYOUT_COUNTRY: 'DE',
	})
	expect(parseEnv({ SHOP_CURRENCY: 'USD' }).PAYOUT_CURRENCY).toBe('USD')
	expect(parseEnv({ SHOP_CURRENCY: 'USD', PAYOUT_CURRENCY: 'EUR' }).PAYOUT_CURRENCY).toBe('EUR')
	expect(parseEnv({ PAYOUT_CENTS_PER_COIN: '1.2345' }).PAYOUT_CENTS_PER_COIN).toBe(1.2345)
	expect(parseEnv({ PAYOUT_COUNTRY: 'US' }).PAYOUT_COUNTRY).toBe('US')
	for (const [name, value] of [
		['PAYOUT_CENTS_PER_COIN', '0'],
		['PAYOUT_CENTS_PER_COIN', '1001'],
		['PAYOUT_CENTS_PER_COIN', '0.12345'],
		['PAYOUT_CENTS_PER_COIN', '-1'],
		['PAYOUT_HOLD_DAYS', '366'],
		['PAYOUT_MIN_COINS', '0'],
		['PAYOUT_FEE_PERCENT', '100.5'],
		['PAYOUT_CURRENCY', 'eur'],
		['PAYOUT_COUNTRY', 'de'],
		['PAYOUT_COUNTRY', 'XX'],
	] as const) {
		expect(() => parseEnv({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
	}
})
