import { LOCALE_CODES, type Locale } from '#app/i18n/locales'
import {
	checkPayoutCountry,
	payoutMode,
	readPayoutAccount,
	recordFailed,
	recordPaid,
	savePayoutAccount,
	type PayoutAccount,
	type PayoutProvider,
	type PayoutServices,
	type PayoutToSend,
	type PayoutUser,
	type SendOutcome,
} from './provider.server'

/**
 * Test payouts (TEST_PAYOUTS; never with Stripe, docs/decisions/046 and 052):
 * the payment provider's part played inside the app, as the shop's test
 * checkout plays Stripe Checkout's. Onboarding makes a 'test' account and
 * sends the creator to a page of ours that completes it; a payout is marked
 * sent and paid at once. No money moves anywhere: the pages say so.
 */

/** The test account's id for a creator: one per creator, like Stripe's. */
export function testAccountId(userId: string): string {
	return `acct_test_${userId.replaceAll('-', '')}`
}

/** What the stand-in's onboarding asks for until the creator completes it (our own codes). */
export const TEST_ONBOARDING_REQUIREMENTS = ['identity', 'bank_account', 'terms'] as const

/** The page that plays Stripe's hosted onboarding, in the language of the page the creator came from. */
export function testOnboardingUrl(appUrl: string, returnUrl: string): string {
	let locale: Locale = 'en'
	try {
		const first = new URL(returnUrl, appUrl).pathname.split('/')[1] ?? ''
		if ((LOCALE_CODES as readonly string[]).includes(first)) locale = first as Locale
	} catch {
		// not a URL: English
	}
	return `${appUrl}/${locale}/earnings/test-onboarding`
}

function assertTestMode(services: PayoutServices) {
	if (payoutMode(services.env) !== 'test') throw new Error('test payouts are off (TEST_PAYOUTS, and never with Stripe)')
}

export function testPayoutProvider(services: PayoutServices): PayoutProvider {
	assertTestMode(services)
	const { env, db } = services
	return {
		name: 'test',

		async startOnboarding(user: PayoutUser, countryInput: string, returnUrl: string) {
			const country = checkPayoutCountry(env, countryInput)
			const saved = await readPayoutAccount(db, user.userId)
			if (!saved || saved.provider !== 'test' || saved.status !== 'ready') {
				await savePayoutAccount(db, {
					userId: user.userId,
					provider: 'test',
					externalId: testAccountId(user.userId),
					country,
					status: 'onboarding',
					requirements: [...TEST_ONBOARDING_REQUIREMENTS],
					disabledReason: null,
				})
			}
			return { url: testOnboardingUrl(env.APP_URL, returnUrl) }
		},

		// Nothing outside the app to ask: the saved account is all there is.
		refreshAccount: (userId: string) => readPayoutAccount(db, userId),

		async send(payout: PayoutToSend): Promise<SendOutcome> {
			// Requested through Stripe before it was switched off: the stand-in never pays a Stripe account.
			if (payout.provider !== 'test') {
				return { kind: 'failed', reason: 'account_not_ready', notify: await recordFailed(db, payout.id, 'account_not_ready') }
			}
			// No money moves: the payout is sent and paid in the ledger only.
			const transferId = `tr_test_${payout.id.replaceAll('-', '')}`
			await recordPaid(db, payout.id, transferId)
			return { kind: 'paid', transferId }
		},
	}
}

/**
 * The stand-in's onboarding, completed (the test onboarding page's form):
 * the creator's test account is ready to receive payouts.
 */
export async function completeTestOnboarding(
	services: PayoutServices,
	user: string | { userId: string },
	countryInput: string,
): Promise<PayoutAccount> {
	assertTestMode(services)
	const userId = typeof user === 'string' ? user : user.userId
	const country = checkPayoutCountry(services.env, countryInput)
	const account: PayoutAccount = {
		userId,
		provider: 'test',
		externalId: testAccountId(userId),
		country,
		status: 'ready',
		requirements: [],
		disabledReason: null,
	}
	await savePayoutAccount(services.db, account)
	return account
}
