import { beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import { DEMO_USERS } from '#app/db/seed.server'
import { setOperator } from '#app/modules/moderation/operator-grant.server'
import { tr } from '#tests/e2e/support/i18n'
import { consoleCard, describeEachServer, flash, mailsTo, serverOfItsOwn, signedIn, Visitor, type Page, type TestServer } from './support'

/**
 * The creator's earnings page (/{lang}/earnings, docs/product.md §14) as a
 * browser without JavaScript meets it: a visitor is sent to sign in, a
 * viewer who is not a creator gets a short answer and none of the figures,
 * a demo creator sees their coins; and, on a server of its own whose
 * earnings are available at once (PAYOUT_HOLD_DAYS=0, PAYOUT_MIN_COINS=100),
 * a payout account set up through the test provider's page, a refused
 * request that changes nothing, and a request with its confirmation step,
 * sent twice, that asks once; and one above the review threshold
 * (PAYOUT_REVIEW_COINS=150) decided in the operators' console: a rejection
 * gives the coins back and sends the statement of reasons, an approval
 * pays it through the test provider.
 */

const creator = DEMO_USERS.mia
const viewer = DEMO_USERS.jonas



/** A figure of the page (available, pending, in payouts, paid out) as a number of coins. */
function figure(page: Page, label: string): number {
	const term = [...page.document.querySelectorAll('.earnings-figure dt')].find((dt) => dt.textContent === label)
	if (!term) throw new Error(`no figure "${label}" on ${page.url}`)
	const coins = term.parentElement!.querySelector('.earnings-figure__coins')!.textContent ?? ''
	return Number(coins.replace(/\D/g, ''))
}

/** The rows of the payouts table. */
function payoutRows(page: Page): string[] {
	const section = page.screen.getByRole('heading', { name: tr('en', 'earnings.payouts-title') }).closest('section')!
	return [...section.querySelectorAll('tbody tr')].map((row) => row.textContent ?? '')
}



/** The form a button belongs to. */
function formOf(page: Page, button: string): { form: Element; button: Element } {
	const found = page.screen.getByRole('button', { name: button })
	return { form: found.closest('form')!, button: found }
}

describeEachServer('the earnings page is a creator’s', (server) => {
	test('a visitor is sent to sign in, and comes back after', async () => {
		const response = await Visitor.decided(server).fetch('/en/earnings')
		expect(response.status).toBe(302)
		expect(new URL(response.headers.get('location')!, server.url).pathname).toBe('/en/login')
	})

	test('a viewer who is not a creator is told so, without any figures, in their language', async () => {
		const jonas = await signedIn(server, viewer.email)
		const page = await jonas.page('/de/earnings')
		expect(page.status).toBe(403)
		expect(page.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr('de', 'earnings.title'))
		page.screen.getByText(tr('de', 'earnings.not-creator'))
		expect(page.screen.getByRole('link', { name: tr('de', 'sessions.link-channels') }).getAttribute('href')).toBe('/de/settings/channels')
		expect(page.document.querySelector('.earnings-figure')).toBeNull()
		// Nor can they ask for money: the database refuses, and the page says why.
		const posted = await jonas.page('/en/earnings', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
			body: new URLSearchParams({ intent: 'payout-request', coins: '2000', idempotencyKey: 'earnings-test-not-a-creator' }).toString(),
		})
		expect(posted.status).toBe(403)
		expect(flash(posted, 'error')).toBe(tr('en', 'errors.error-not-a-creator'))
	})

	test('a demo creator sees their coins, what blocks a payout and their earnings per session', async () => {
		const mia = await signedIn(server, creator.email)
		const page = await mia.page('/en/earnings')
		expect(page.status).toBe(200)
		expect(page.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr('en', 'earnings.title'))
		const earned = figure(page, tr('en', 'earnings.available')) + figure(page, tr('en', 'earnings.pending')) + figure(page, tr('en', 'earnings.in-payout')) + figure(page, tr('en', 'earnings.paid-out'))
		expect(earned).toBeGreaterThan(0)
		page.screen.getByRole('heading', { name: tr('en', 'earnings.payouts-title') })
		const sessions = page.screen.getByRole('heading', { name: tr('en', 'earnings.sessions-title') }).closest('section')!
		expect(sessions.querySelectorAll('tbody tr').length).toBeGreaterThan(0)
		// The header links the page for creators only.
		expect(page.hrefs()).toContain('/en/earnings')
		const jonas = await (await signedIn(server, viewer.email)).page('/en')
		expect(jonas.hrefs()).not.toContain('/en/earnings')
	})
})

const KINDS = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

for (const kind of KINDS) {
	describe(`a payout requested without JavaScript (${kind}, a server of its own)`, () => {
		const env = { PAYOUT_HOLD_DAYS: '0', PAYOUT_MIN_COINS: '100', PAYOUT_REVIEW_COINS: '150', PAYOUT_FEE_PERCENT: '2.5', TEST_PAYOUTS: 'true', LOG_LEVEL: 'warn' }
		const own = serverOfItsOwn(kind, 'earnings', env)
		let server: TestServer
		beforeAll(() => {
			server = own.server
		})
		const withOwner = <T,>(fn: (db: Database) => Promise<T>) => own.withOwner(fn)

		test('a creator without a payout account sets one up through the test provider’s page; a country we cannot pay is refused', async () => {
			const emre = await signedIn(server, DEMO_USERS.emre.email)
			const page = await emre.page('/en/earnings')
			expect(page.status).toBe(200)
			page.screen.getByText(tr('en', 'earnings.account-status.none'))
			page.screen.getByText(tr('en', 'earnings.blockers.error-payout-account-missing'))
			const setUp = formOf(page, tr('en', 'earnings.account-set-up'))
			// Only the countries the platform (PAYOUT_COUNTRY, default DE) can pay are offered; one sent anyway is refused.
			expect([...setUp.form.querySelectorAll('option')].map((o) => o.getAttribute('value'))).toContain('DE')
			expect([...setUp.form.querySelectorAll('option')].map((o) => o.getAttribute('value'))).not.toContain('BR')
			const refused = await emre.submit(page, setUp.form, { country: 'BR' }, setUp.button)
			expect(new URL(refused.url).pathname).toBe('/en/earnings')
			expect(flash(refused, 'error')).toBe(tr('en', 'errors.error-payout-country-unsupported'))
			refused.screen.getByText(tr('en', 'earnings.account-status.none'))

			const onboarding = await emre.submit(page, setUp.form, { country: 'AT' }, setUp.button)
			expect(new URL(onboarding.url).pathname).toBe('/en/earnings/test-onboarding')
			onboarding.screen.getByRole('heading', { name: tr('en', 'earnings.test-onboarding-title') })
			onboarding.screen.getByText(tr('en', 'earnings.test-onboarding-body'))
			// Started, not finished: the earnings page says what the provider still needs.
			const started = await emre.page('/en/earnings')
			started.screen.getByText(tr('en', 'earnings.account-status.onboarding'))
			started.screen.getByText(tr('en', 'earnings.requirements.bank_account'))
			const finish = formOf(onboarding, tr('en', 'earnings.test-onboarding-submit'))
			expect(finish.form.querySelector('option[selected]')?.getAttribute('value')).toBe('AT')
			const done = await emre.submit(onboarding, finish.form, {}, finish.button)
			expect(new URL(done.url).pathname).toBe('/en/earnings')
			expect(flash(done, 'success')).toBe(tr('en', 'earnings.test-onboarding-done'))
			done.screen.getByText(tr('en', 'earnings.account-status.ready'))
			expect(done.screen.queryByText(tr('en', 'earnings.blockers.error-payout-account-missing'))).toBeNull()
			// Nobody else gets the stand-in's page.
			expect((await (await signedIn(server, viewer.email)).fetch('/en/earnings/test-onboarding')).status).toBe(404)
		})

		test('a refused request changes nothing; a confirmed one moves the coins, and sent again asks once', async () => {
			const mia = await signedIn(server, creator.email)
			let page = await mia.page('/en/earnings')
			expect(page.status).toBe(200)
			// The demo data's creator has a payout account with the test provider (and a paid payout).
			const available = figure(page, tr('en', 'earnings.available'))
			const payouts = payoutRows(page).length
			expect(available).toBeGreaterThanOrEqual(100)

			// More than is available: refused at the first step with the translated reason, nothing moved.
			const quote = formOf(page, tr('en', 'earnings.request-continue'))
			const refused = await mia.submit(page, quote.form, { coins: String(available + 1) }, quote.button)
			expect(refused.status).toBe(200)
			expect(refused.document.querySelector('.earnings-request .form-errors')?.textContent).toBe(tr('en', 'errors.error-payout-above-available'))
			expect(flash(refused, 'error')).toBe(tr('en', 'errors.error-payout-above-available'))
			// What was typed stays in the field.
			expect(refused.document.querySelector<HTMLInputElement>('input[name="coins"]')?.getAttribute('value')).toBe(String(available + 1))
			// A request sent past the confirmation (a crafted form) meets the database's refusal the same way.
			const crafted = await mia.page('/en/earnings', {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
				body: new URLSearchParams({ intent: 'payout-request', coins: '99', idempotencyKey: 'earnings-test-below-minimum' }).toString(),
			})
			expect(flash(crafted, 'error')).toBe(tr('en', 'errors.error-payout-below-minimum'))
			page = await mia.page('/en/earnings')
			expect(figure(page, tr('en', 'earnings.available'))).toBe(available)
			expect(payoutRows(page)).toHaveLength(payouts)

			// 100 coins: the confirmation shows the fee (2.5 %, rounded down: 2 coins) and what arrives, then the request.
			const next = formOf(page, tr('en', 'earnings.request-continue'))
			const confirmation = await mia.submit(page, next.form, { coins: '100' }, next.button)
			const check = confirmation.screen.getByRole('form', { name: tr('en', 'earnings.confirm-title') })
			expect(check.textContent).toContain(tr('en', 'earnings.coins', { coins: '100' }))
			expect(check.textContent).toContain(tr('en', 'earnings.coins', { coins: '2' }))
			expect(check.textContent).toContain(tr('en', 'earnings.confirm-amount'))
			// Nothing moved yet.
			expect(figure(confirmation, tr('en', 'earnings.available'))).toBe(available)
			const confirm = confirmation.screen.getByRole('button', { name: /^Request / })
			const requested = await mia.submit(confirmation, check, {}, confirm)
			expect(new URL(requested.url).pathname).toBe('/en/earnings')
			expect([tr('en', 'earnings.requested', { coins: '100' }), tr('en', 'earnings.requested-review', { coins: '100' })]).toContain(flash(requested, 'success'))
			expect(figure(requested, tr('en', 'earnings.available'))).toBe(available - 100)
			expect(payoutRows(requested)).toHaveLength(payouts + 1)

			// The same confirmation sent again (a resubmitted form): its key answers with the first request.
			const again = await mia.submit(confirmation, check, {}, confirm)
			expect(figure(again, tr('en', 'earnings.available'))).toBe(available - 100)
			expect(payoutRows(again)).toHaveLength(payouts + 1)
		})

		test('above the review threshold a payout waits for an operator: rejected, its coins come back with the reasons; approved, it is paid', async () => {
			const operator = DEMO_USERS.lucia
			await withOwner((db) => setOperator(db, operator.email, true))
			const mia = await signedIn(server, creator.email)
			const lucia = await signedIn(server, operator.email)

			const ask = async (coins: number) => {
				const page = await mia.page('/en/earnings')
				const next = formOf(page, tr('en', 'earnings.request-continue'))
				const confirmation = await mia.submit(page, next.form, { coins: String(coins) }, next.button)
				confirmation.screen.getByText(tr('en', 'earnings.confirm-review-large', { coins: '150' }))
				const check = confirmation.screen.getByRole('form', { name: tr('en', 'earnings.confirm-title') })
				const requested = await mia.submit(confirmation, check, {}, confirmation.screen.getByRole('button', { name: /^Request / }))
				expect(flash(requested, 'success')).toBe(tr('en', 'earnings.requested-review', { coins: String(coins) }))
				return requested
			}

			const before = figure(await mia.page('/en/earnings'), tr('en', 'earnings.available'))
			expect(before, 'the demo creator’s available coins').toBeGreaterThanOrEqual(160)
			let page = await ask(160)
			expect(figure(page, tr('en', 'earnings.available'))).toBe(before - 160)
			expect(payoutRows(page)[0]).toContain(tr('en', 'earnings.status.review'))

			// The console lists it with what an operator needs; a rejection must name a rule.
			let console_ = await lucia.page('/en/operator')
			console_.screen.getByRole('heading', { name: tr('en', 'operator.payouts-title', { count: 1 }) })
			const card = consoleCard(console_, creator.username)
			expect(card.textContent).toContain('160')
			const decide = (values: Record<string, string>) => lucia.submit(console_, card.querySelector('form')!, values)
			const unruled = await decide({ action: 'reject_payout', ground: 'none', explanation: 'Bought with stolen cards.' })
			expect(unruled.status).toBe(400)
			expect(consoleCard(unruled, creator.username).querySelector('[role="alert"]')?.textContent).toBe(tr('en', 'operator.ground-needed'))
			const why = 'The coins behind this payout came from accounts made to boost your own dares.'
			const rejected = await decide({ action: 'reject_payout', ground: 'spam', explanation: why })
			expect(flash(rejected, 'success')).toBe(tr('en', 'operator.decided-reject-payout'))
			rejected.screen.getByRole('heading', { name: tr('en', 'operator.payouts-title', { count: 0 }) })
			// Decided once: the same form again is refused.
			expect(flash(await decide({ action: 'approve_payout', ground: 'none', explanation: 'Fine.' }), 'error')).toBe(tr('en', 'errors.error-payout-decided'))

			page = await mia.page('/en/earnings')
			expect(figure(page, tr('en', 'earnings.available'))).toBe(before)
			expect(payoutRows(page)[0]).toContain(tr('en', 'earnings.status-note.rejected-why', { reason: why }))
			const mail = (await mailsTo(server, creator.email, 'We did not send your payout')).find((m) => m.subject === 'We did not send your payout')!
			expect(mail.text).toContain(why)
			expect(mail.text).toContain('160 coins')

			// Asked again and approved: the test provider pays it at once.
			page = await ask(160)
			console_ = await lucia.page('/en/operator')
			const approved = await lucia.submit(console_, consoleCard(console_, creator.username).querySelector('form')!, { action: 'approve_payout', explanation: 'Checked the sessions behind it.' })
			expect(flash(approved, 'success')).toBe(tr('en', 'operator.decided-approve-payout'))
			page = await mia.page('/en/earnings')
			expect(figure(page, tr('en', 'earnings.available'))).toBe(before - 160)
			expect(payoutRows(page)[0]).toContain(tr('en', 'earnings.status.paid'))
		})
	})
}
