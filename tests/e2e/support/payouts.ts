import { expect, type Browser, type Page } from '@playwright/test'
import { DEMO_USERS } from '../../../app/db/seed.server'
import { signInDemo, type Lang } from './accounts'
import { jsOn } from './creators'
import { tr } from './i18n'
import { expectToast } from './toasts'

/** A status as the earnings page shows it, in its pill (the same word may stand in a heading too). */
const statusPill = (page: Page, text: string) => page.locator('.earnings-status').filter({ hasText: new RegExp(`^${text}$`) })

/**
 * A creator's earnings paid out, through the pages (docs/product.md §14):
 * the earnings page shows what a completed dare earned as available (the
 * suite's server holds nothing back: PAYOUT_HOLD_DAYS=0, PAYOUT_MIN_COINS=100,
 * tests/support/start-server.js), the creator sets up a payout account with
 * the test payouts' stand-in, asks for the coins and confirms the money
 * shown, an operator approves the first payout in the console, and the
 * earnings page says it is paid. `money` is the amount as the pages write it.
 */
export async function payOut(browser: Browser, creator: Page, lang: Lang, username: string, coins: number, money: string) {
	await creator.goto(`/${lang}/earnings`)
	await expect(creator.getByRole('heading', { level: 1, name: tr(lang, 'earnings.title') })).toBeVisible()
	await expect(creator.getByText(tr(lang, 'earnings.blockers.error-payout-account-missing'))).toBeVisible()

	// The payout account: the stand-in's page plays the provider's onboarding, and sends the creator back.
	await creator.getByRole('button', { name: tr(lang, 'earnings.account-set-up') }).first().click()
	await expect(creator).toHaveURL(new RegExp(`/${lang}/earnings/test-onboarding`))
	await creator.getByRole('button', { name: tr(lang, 'earnings.test-onboarding-submit') }).click()
	await expect(creator).toHaveURL(new RegExp(`/${lang}/earnings`))
	await expect(statusPill(creator, tr(lang, 'earnings.account-status.ready'))).toBeVisible()

	// The request, then its confirmation with the money the creator receives.
	await creator.getByLabel(tr(lang, 'earnings.request-coins')).fill(String(coins))
	await creator.getByRole('button', { name: tr(lang, 'earnings.request-continue') }).click()
	await expect(creator.getByRole('heading', { name: tr(lang, 'earnings.confirm-title') })).toBeVisible()
	await creator.getByRole('button', { name: tr(lang, 'earnings.confirm-submit', { money }) }).click()
	if (jsOn()) await expectToast(creator, tr(lang, 'earnings.requested-review', { coins: String(coins) }))
	await expect(statusPill(creator, tr(lang, 'earnings.status.review'))).toBeVisible()

	// The operator approves it; the stand-in pays at once.
	const context = await browser.newContext({ baseURL: new URL(creator.url()).origin, javaScriptEnabled: jsOn(), locale: 'en-US' })
	const operator = await context.newPage()
	await signInDemo(operator, lang, DEMO_USERS.lucia.email)
	await operator.goto(`/${lang}/operator`)
	const item = operator.getByRole('article').filter({ hasText: tr(lang, 'operator.payout-title', { user: username, money }) })
	await item.getByRole('radio', { name: tr(lang, 'operator.payout-actions.approve_payout') }).check()
	await item.getByLabel(tr(lang, 'operator.ground'), { exact: true }).selectOption('none')
	await item.getByLabel(tr(lang, 'operator.explanation'), { exact: true }).fill('The account and the sessions behind it check out.')
	await item.getByRole('button', { name: tr(lang, 'operator.submit') }).click()
	await expectToast(operator, tr(lang, 'operator.decided-approve-payout'))
	await context.close()

	await expect(async () => {
		await creator.goto(`/${lang}/earnings`)
		await expect(statusPill(creator, tr(lang, 'earnings.status.paid'))).toBeVisible({ timeout: 1000 })
	}).toPass({ timeout: 20_000, intervals: [1000] })
}
