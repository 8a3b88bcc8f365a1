import { expect, test, type Browser, type Locator, type Page } from './support/test'
import { DEMO_USERS } from '../../app/db/seed.server'
import { DECIDED_STORAGE_STATE } from './support/consent'
import { readyAccount, signInDemo, type Lang } from './support/accounts'
import { jsOn, startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'
import { expectToast } from './support/toasts'

/**
 * Notice and action end to end (issue "Moderation", docs/product.md §13),
 * with JavaScript on (in English) and off (in German): a creator holds every
 * new dare for review, approves one and rejects the other (its reward comes
 * back); a visitor reports the approved one; an operator removes it; its
 * author reads the statement of reasons in the mailbox and appeals. Four
 * people, four browser contexts. The creator is a new one with a session of
 * their own, so the hold and the held dares touch no other spec (the two
 * modes run side by side); the operator is Lucia, whom the suite's server
 * makes one (playwright.config.ts, start-server.js --operator).
 */

const OPERATOR = DEMO_USERS.lucia

/** A browser context of its own, in the project's mode (its `goto` waits for hydration: support/test.ts). */
async function person(browser: Browser, baseURL: string): Promise<Page> {
	const context = await browser.newContext({ baseURL, javaScriptEnabled: jsOn(), locale: 'en-US', storageState: DECIDED_STORAGE_STATE })
	return context.newPage()
}

/** A dare in the page's list of dares (the creator's view of a live session lists the running ones again, with buttons of its own). */
function dareCard(page: Page, lang: Lang, description: string): Locator {
	return page.getByRole('region', { name: tr(lang, 'dares.title'), exact: true }).getByRole('listitem').filter({ hasText: description })
}

function balance(page: Page) {
	return page.getByTestId('wallet-balance')
}

/** A translation with a placeholder as a pattern that matches any value of it (a report's reference). */
function pattern(lang: Lang, key: string, name: string): RegExp {
	const [before, after] = tr(lang, key).split(`{{${name}}}`)
	const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
	return new RegExp(`${escape(before!)}.+?${escape(after ?? '')}`)
}

test('a creator reviews held dares, a visitor reports one, an operator removes it, and its author reads why and appeals', async ({ browser, baseURL }) => {
	test.setTimeout(120_000)
	const lang: Lang = jsOn() ? 'en' : 'de'
	const creator = await person(browser, baseURL!)
	const viewer = await person(browser, baseURL!)
	const visitor = await person(browser, baseURL!)
	const operator = await person(browser, baseURL!)

	// 1. The creator's own live session, every new dare held for review.
	const login = await twitchCreator(creator, lang, 'moderation')
	await startLiveSession(creator, lang, `Review night ${login}`, {})
	const sessionPage = `/${lang}/twitch/${login}`
	const hold = creator.getByRole('form', { name: tr(lang, 'moderation.hold-title') })
	await expect(hold).toContainText(tr(lang, 'moderation.hold-state-off'))
	await hold.getByRole('button', { name: tr(lang, 'moderation.hold-start') }).click()
	await expectToast(creator, tr(lang, 'moderation.hold-on'))
	await expect(hold).toContainText(tr(lang, 'moderation.hold-state-on'))

	// 2. A viewer writes a free dare and one with a reward: both wait for review, seen by their author and the creator only.
	const kept = `Juggle three oranges for chat ${login}`
	const refused = `Sing the theme song of ${login}`
	const author = await readyAccount(viewer, lang, 'heldauthor')
	await viewer.goto(`/${lang}/shop`)
	await viewer.getByRole('button', { name: tr(lang, 'shop.buy', { price: lang === 'de' ? '4,99 €' : '€4.99' }) }).click()
	await expect(balance(viewer)).toHaveText(/500$/)
	await viewer.goto(sessionPage)
	for (const [description, reward] of [
		[kept, '0'],
		[refused, '200'],
	] as const) {
		await viewer.getByLabel(tr(lang, 'dares.description')).fill(description)
		await viewer.getByLabel(tr(lang, 'dares.reward')).fill(reward)
		await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
		await expectToast(viewer, tr(lang, 'moderation.held-created'))
		await expect(dareCard(viewer, lang, description)).toContainText(tr(lang, 'moderation.status-held'))
	}
	// The reward is held in escrow meanwhile.
	await expect(balance(viewer)).toHaveText(/300$/)

	await visitor.goto(sessionPage)
	await expect(visitor.getByRole('heading', { level: 1, name: `Review night ${login}` })).toBeVisible()
	await expect(visitor.getByText(kept)).toHaveCount(0)
	await expect(visitor.getByText(refused)).toHaveCount(0)

	// 3. The creator approves one (everyone sees it now) and rejects the other (its reward goes back).
	await creator.goto(sessionPage)
	for (const description of [kept, refused]) {
		const card = dareCard(creator, lang, description)
		await expect(card).toContainText(tr(lang, 'moderation.status-held'))
		await expect(card.getByRole('button', { name: tr(lang, 'moderation.approve') })).toBeVisible()
		await expect(card.getByRole('button', { name: tr(lang, 'dares.reject') })).toBeVisible()
	}
	await dareCard(creator, lang, kept).getByRole('button', { name: tr(lang, 'moderation.approve') }).click()
	await expectToast(creator, tr(lang, 'moderation.approved'))
	await dareCard(creator, lang, refused).getByRole('button', { name: tr(lang, 'dares.reject') }).click()
	await expectToast(creator, tr(lang, 'dares.rejected'))
	await expect(creator.getByText(refused)).toHaveCount(0)
	// The hold off again: new dares appear right away.
	await hold.getByRole('button', { name: tr(lang, 'moderation.hold-stop') }).click()
	await expectToast(creator, tr(lang, 'moderation.hold-off'))
	await expect(hold).toContainText(tr(lang, 'moderation.hold-state-off'))

	await viewer.goto(sessionPage)
	await expect(balance(viewer)).toHaveText(/500$/)
	await expect(dareCard(viewer, lang, kept)).toContainText(tr(lang, 'dares.status-open'))
	await expect(viewer.getByText(refused)).toHaveCount(0)

	// 4. The visitor sees the approved dare and reports it, with a name and an address.
	await visitor.goto(sessionPage)
	const reported = dareCard(visitor, lang, kept)
	await expect(reported).toContainText(tr(lang, 'dares.status-open'))
	await expect(visitor.getByText(refused)).toHaveCount(0)
	const details = `It singles out a viewer by name (${login}).`
	const reporterName = `Visitor ${login}`
	// "Report" opens this dare's form: in place with JavaScript, as the page with ?report= without.
	await reported.getByRole('link', { name: tr(lang, 'moderation.report'), exact: true }).click()
	await reported.getByLabel(tr(lang, 'moderation.report-reason'), { exact: true }).selectOption('harassment')
	await reported.getByLabel(tr(lang, 'moderation.report-details'), { exact: true }).fill(details)
	await reported.getByLabel(tr(lang, 'moderation.report-name'), { exact: true }).fill(reporterName)
	await reported.getByLabel(tr(lang, 'moderation.report-email'), { exact: true }).fill(uniqueEmail('reporter'))
	await reported.getByRole('checkbox', { name: tr(lang, 'moderation.report-good-faith') }).check()
	await reported.getByRole('button', { name: tr(lang, 'moderation.report-send') }).click()
	await expect(visitor.getByText(pattern(lang, 'moderation.report-received', 'reference')).last()).toBeVisible()
	// Sent: the form is gone, "Report" is a link again.
	await expect(reported.getByRole('link', { name: tr(lang, 'moderation.report'), exact: true })).toBeVisible()
	await expect(reported.getByLabel(tr(lang, 'moderation.report-details'), { exact: true })).toHaveCount(0)

	// 5. The operator finds the report in the console and removes the dare.
	await signInDemo(operator, lang, OPERATOR.email)
	await operator.goto(`/${lang}/operator`)
	const item = operator.getByRole('article').filter({ hasText: kept })
	await expect(item).toContainText(tr(lang, 'operator.report-title', { reason: tr(lang, 'operator.grounds.harassment') }))
	await expect(item).toContainText(details)
	await expect(item).toContainText(reporterName)
	const explanation = `The dare names a viewer to mock them on stream (${login}).`
	await item.getByRole('radio', { name: tr(lang, 'operator.actions.remove_dare') }).check()
	await item.getByLabel(tr(lang, 'operator.ground'), { exact: true }).selectOption('harassment')
	await item.getByLabel(tr(lang, 'operator.explanation'), { exact: true }).fill(explanation)
	await item.getByRole('button', { name: tr(lang, 'operator.submit') }).click()
	await expectToast(operator, tr(lang, 'operator.decided-remove'))
	await expect(operator.getByRole('article').filter({ hasText: kept })).toHaveCount(0)

	await visitor.goto(sessionPage)
	await expect(visitor.getByRole('heading', { level: 1, name: `Review night ${login}` })).toBeVisible()
	await expect(visitor.getByText(kept)).toHaveCount(0)

	// 6. The author's statement of reasons, with the explanation and the link to appeal; the author appeals once.
	await viewer.goto('/dev/mailbox')
	const mail = viewer.locator('li.card').filter({ hasText: author.email }).filter({ hasText: explanation })
	await expect(mail).toHaveCount(1)
	const appealLink = mail.locator('a[href*="/appeal/"]')
	await expect(appealLink).toHaveCount(1)
	await viewer.goto((await appealLink.getAttribute('href'))!)
	await expect(viewer.getByRole('heading', { name: tr(lang, 'appeal.what-remove_dare') })).toBeVisible()
	await expect(viewer.getByText(explanation)).toBeVisible()
	await expect(viewer.getByText(kept)).toBeVisible()
	await viewer.getByLabel(tr(lang, 'appeal.statement')).fill('The dare names no one: the name is a game character.')
	await viewer.getByRole('button', { name: tr(lang, 'appeal.submit') }).click()
	await expectToast(viewer, tr(lang, 'appeal.sent'))
	// Once: the form is gone, the page says the appeal is being reviewed.
	await expect(viewer.getByLabel(tr(lang, 'appeal.statement'))).toHaveCount(0)
	await expect(viewer.getByRole('status').filter({ hasText: pattern(lang, 'appeal.received', 'date') })).toBeVisible()
})
