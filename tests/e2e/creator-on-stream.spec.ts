import { expect, test, type Browser, type Page } from './support/test'
import { readyAccount, type Lang } from './support/accounts'
import { jsOn, startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { expectToast } from './support/toasts'

/**
 * The creator on stream (docs/product.md §5.4, §5.8, §5.9, §6.7), with
 * JavaScript on (in English) and off (in German): a viewer writes a dare with
 * a reward; the creator takes it through their view of the session (accept,
 * start the vote, more time, cancel the vote), then stops the session, which
 * first asks and says what it will refund, and finds the recap. The viewer's
 * coins come back. The rest of the recap's numbers and who may see it are
 * tests/http/creator-on-stream.test.ts's.
 */

async function person(browser: Browser, baseURL: string) {
	const context = await browser.newContext({ baseURL, javaScriptEnabled: jsOn(), locale: 'en-US' })
	return context.newPage()
}

const balance = (page: Page) => page.getByTestId('wallet-balance')

test('the creator runs the vote from their view, stops only once they confirm what it refunds, and finds the recap', async ({ browser, baseURL }) => {
	test.setTimeout(150_000)
	const lang: Lang = jsOn() ? 'en' : 'de'
	const creator = await person(browser, baseURL!)
	const viewer = await person(browser, baseURL!)
	const login = await twitchCreator(creator, lang, 'onstream')
	const title = `On stream ${login}`
	await startLiveSession(creator, lang, title, { 'sessions.min-boost': '100' })
	const sessionPage = `/${lang}/twitch/${login}`

	// A viewer with coins writes a dare with a reward of 200.
	await readyAccount(viewer, lang, 'fan')
	await viewer.goto(`/${lang}/shop`)
	await viewer.getByRole('button', { name: tr(lang, 'shop.buy', { price: lang === 'de' ? '4,99 €' : '€4.99' }) }).click()
	await expect(balance(viewer)).toHaveText(/500$/)
	await viewer.goto(sessionPage)
	const description = 'Sing the chorus backwards'
	await viewer.getByLabel(tr(lang, 'dares.description')).fill(description)
	await viewer.getByLabel(tr(lang, 'dares.reward')).fill('200')
	await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
	await expectToast(viewer, tr(lang, 'dares.created'))
	await expect(balance(viewer)).toHaveText(/300$/)

	// The creator's view: the dare in the queue, one tap each.
	await creator.goto(sessionPage)
	const view = creator.getByRole('region', { name: tr(lang, 'sessions.creator-view-title') })
	const row = view.getByRole('article', { name: description })
	await expect(row).toContainText(tr(lang, 'dares.pot-label', { coins: '200' }))
	await expect(view.getByText(tr(lang, 'sessions.vote-none'))).toBeVisible()
	await row.getByRole('button', { name: tr(lang, 'dares.accept') }).click()
	await expectToast(creator, tr(lang, 'dares.accepted'))
	await row.getByRole('button', { name: tr(lang, 'dares.start-voting') }).click()
	await expectToast(creator, tr(lang, 'dares.voting-started'))
	const vote = view.getByRole('region', { name: tr(lang, 'sessions.vote-title') })
	await expect(vote.getByText(description)).toBeVisible()
	// The session's vote lasts 180 seconds: the countdown shows three minutes or a little less, then more.
	const countdown = vote.getByRole('timer')
	await expect(countdown).toContainText(/[23]:\d\d/)
	await vote.getByRole('button', { name: tr(lang, 'sessions.extend-by', { seconds: 120 }) }).click()
	await expectToast(creator, tr(lang, 'sessions.vote-extended', { seconds: 120 }))
	await expect(countdown).toContainText(/[45]:\d\d/)
	// Without JavaScript the answer comes back to the view, not to the dare's card further down.
	if (!jsOn()) await expect(creator).toHaveURL(new RegExp(`${sessionPage}#creator-view$`))
	await vote.getByRole('button', { name: tr(lang, 'sessions.cancel-vote') }).click()
	await expectToast(creator, tr(lang, 'sessions.vote-cancelled'))
	await expect(view.getByText(tr(lang, 'sessions.vote-none'))).toBeVisible()
	await expect(row.getByText(tr(lang, 'dares.status-accepted'))).toBeVisible()

	// Stopping: one tap opens the question, which says what it refunds; nothing stops before the second.
	const stop = creator.locator('details.stop-confirm')
	const confirm = creator.getByRole('button', { name: tr(lang, 'sessions.stop-confirm') })
	await expect(confirm).toBeHidden()
	await creator.getByText(tr(lang, 'sessions.stop-ask')).click()
	await expect(confirm).toBeVisible()
	await expect(stop.locator('dd')).toHaveText(['1', '200'])
	await expect(stop).toContainText(tr(lang, 'sessions.stop-refund-text'))
	// Closed again, nothing happened.
	await creator.getByText(tr(lang, 'sessions.stop-ask')).click()
	await expect(confirm).toBeHidden()
	await creator.reload()
	await expect(creator.getByText(tr(lang, 'sessions.live'), { exact: true })).toBeVisible()

	await creator.getByText(tr(lang, 'sessions.stop-ask')).click()
	await confirm.click()
	await expectToast(creator, tr(lang, 'sessions.stopped'))
	await expect(creator.getByText(tr(lang, 'sessions.ended'), { exact: true })).toBeVisible()
	await expect(view).toHaveCount(0)

	// The recap: nothing earned, the dare refunded, no fans kept; the session's address to share.
	const recap = creator.getByRole('region', { name: tr(lang, 'sessions.recap-title') })
	await expect(recap.locator('dd')).toHaveText(['0', '0', '0', '1'])
	await expect(recap.getByText(tr(lang, 'sessions.recap-no-fans'))).toBeVisible()
	await expect(recap.getByLabel(tr(lang, 'sessions.recap-share-title'))).toHaveValue(new RegExp(`/${lang}/session/[0-9a-f-]{36}$`))
	if (jsOn()) await expect(recap.getByRole('button', { name: tr(lang, 'sessions.recap-share') })).toBeVisible()

	// The viewer's coins are back.
	await viewer.goto(sessionPage)
	await expect(balance(viewer)).toHaveText(/500$/)
	await expect(viewer.getByRole('region', { name: tr(lang, 'sessions.recap-title') })).toHaveCount(0)
})
