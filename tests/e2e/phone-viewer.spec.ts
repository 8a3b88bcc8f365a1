import { expect, test, type Browser, type Locator, type Page } from './support/test'
import { readyAccount, type Lang } from './support/accounts'
import { DECIDED_STORAGE_STATE } from './support/consent'
import { startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { expectToast } from './support/toasts'

/**
 * The phone-first viewer on a session page (issue "The live show",
 * docs/product.md §15.9), with JavaScript on and off: one-tap boosts beside
 * the amount field, the running vote's bar at the bottom of the screen (not
 * for the creator; a visitor is asked to sign in), and every control of a
 * dare card a full tap target with nothing scrolling sideways at 320 px.
 * Each test makes its own phone contexts, both modes (this spec runs in the
 * desktop project); the creator uses the desktop page.
 */

const TAP_TARGET_PX = 44
const PHONE = { width: 390, height: 844 }
/** Long enough that the vote still runs when the test is done. */
const VOTE_SECONDS = 900

async function phone(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-US', storageState: DECIDED_STORAGE_STATE })
	// Its `goto` waits for hydration (support/test.ts): a tap before the page's script has taken over is a plain post.
	return context.newPage()
}

const balance = (page: Page) => page.getByTestId('wallet-balance')
const dareCard = (page: Page, description: string) => page.locator('.dares__list > li').filter({ hasText: description })
const voteBar = (page: Page, lang: Lang) => page.getByRole('region', { name: tr(lang, 'dares.vote-bar-label') })
const chip = (card: Locator, lang: Lang, coins: string) => card.getByRole('button', { name: tr(lang, 'dares.quick-boost-amount', { coins }), exact: true })

async function expectNoSidewaysScroll(page: Page) {
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
	expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

/** Every button, chip and disclosure of the dare cards and the vote bar is at least 44 px each way. */
async function expectTapTargets(page: Page) {
	const small = await page.evaluate(
		(min) =>
			Array.from(document.querySelectorAll<HTMLElement>('.dare button, .dare summary, .dare .dare__report, .dare .number-field__step, .vote-bar button'))
				.map((element) => ({ element, box: element.getBoundingClientRect() }))
				.filter(({ box }) => box.width > 0 && (box.width < min || box.height < min))
				.map(({ element, box }) => `${element.textContent?.trim()}: ${Math.round(box.width)}×${Math.round(box.height)}`),
		TAP_TARGET_PX,
	)
	expect(small).toEqual([])
}

for (const js of [true, false]) {
	const mode = js ? 'with JavaScript' : 'without JavaScript'
	// Two languages, each in one mode (as support/i18n.ts says for journeys).
	const lang: Lang = js ? 'en' : 'de'

	test(`${mode}: a viewer on a phone boosts with one tap and votes from the bar at the bottom; the creator gets no bar`, async ({ browser, baseURL, page: creator }) => {
		test.setTimeout(180_000)
		const login = await twitchCreator(creator, lang, js ? 'chips' : 'chipsnojs')
		await startLiveSession(creator, lang, `Phone night ${login}`, { 'sessions.min-boost': '150', 'sessions.voting-duration': String(VOTE_SECONDS) })
		const sessionPage = `/${lang}/twitch/${login}`

		const viewer = await phone(browser, baseURL!, js)
		await readyAccount(viewer, lang, js ? 'tapper' : 'tappernojs')
		await viewer.goto(`/${lang}/shop`)
		await viewer.getByRole('button', { name: tr(lang, 'shop.buy', { price: lang === 'de' ? '4,99 €' : '€4.99' }) }).click()
		await expect(balance(viewer)).toHaveText(/500$/)
		await viewer.goto(sessionPage)
		const description = 'Juggle three oranges'
		await viewer.getByLabel(tr(lang, 'dares.description')).fill(description)
		await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
		await expectToast(viewer, tr(lang, 'dares.created'))

		// The chips: +10, +50, +100 and the session's minimum (150), beside the amount field, which stays.
		const card = dareCard(viewer, description)
		const chips = card.getByRole('group', { name: tr(lang, 'dares.quick-boost') })
		await expect(chips.getByRole('button')).toHaveText(['+10', '+50', '+100', '+150'])
		await expect(card.getByRole(js ? 'textbox' : 'spinbutton', { name: tr(lang, 'dares.boost-amount'), exact: true })).toBeVisible()
		// The chips' names are not the boost button's (a page's "Boost" is still one button).
		await expect(card.getByRole('button', { name: tr(lang, 'dares.boost') })).toHaveCount(1)
		await expectTapTargets(viewer)
		await chip(card, lang, '50').click()
		await expectToast(viewer, tr(lang, 'dares.boosted'))
		await expect(balance(viewer)).toHaveText(/450$/)
		await expect(card).toContainText(tr(lang, 'dares.my-boost', { coins: '50' }))

		// An amount the field refuses (below the minimum) holds back only the field's own button: a chip still boosts.
		const amount = card.getByRole(js ? 'textbox' : 'spinbutton', { name: tr(lang, 'dares.boost-amount'), exact: true })
		await amount.fill('5')
		await amount.press('Tab')
		// Refused: the browser would not send the field's form (its own words for it are the field's tests').
		expect(await card.getByRole(js ? 'textbox' : 'spinbutton', { name: tr(lang, 'dares.boost-amount'), exact: true }).evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false)
		await chip(dareCard(viewer, description), lang, '150').click()
		await expectToast(viewer, tr(lang, 'dares.boosted'))
		await expect(balance(viewer)).toHaveText(/300$/)

		// The creator starts the vote; their own page has no bar (they cannot vote).
		await creator.goto(sessionPage)
		await dareCard(creator, description).getByRole('button', { name: tr(lang, 'dares.accept') }).click()
		await expectToast(creator, tr(lang, 'dares.accepted'))
		await dareCard(creator, description).getByRole('button', { name: tr(lang, 'dares.start-voting') }).click()
		await expectToast(creator, tr(lang, 'dares.voting-started'))
		await expect(creator.locator('.vote-bar')).toHaveCount(0)

		// The viewer's bar: fixed to the bottom of the screen, the dare, the time, Done / Not done.
		await viewer.goto(sessionPage)
		const bar = voteBar(viewer, lang)
		await expect(bar).toBeVisible()
		await expect(bar.getByRole('link', { name: description })).toHaveAttribute('href', /^#dare-/)
		if (js) await expect(bar.getByRole('timer')).toHaveText(new RegExp(`^${tr(lang, 'dares.vote-bar-left', { time: '1[45]:\\d\\d' })}$`))
		else await expect(bar).toContainText(new RegExp(`${tr(lang, 'dares.vote-bar-ends-at', { time: '\\d{1,2}:\\d\\d:\\d\\d' })}`))
		const box = (await bar.boundingBox())!
		expect(Math.round(box.y + box.height)).toBe(PHONE.height)
		expect(box.x).toBe(0)
		expect(box.width).toBe(PHONE.width)
		await expectTapTargets(viewer)

		// It never covers the page's end: scrolled to the bottom, the footer's last line is above it.
		await viewer.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
		const footerEnd = await viewer.locator('.site-footer').evaluate((footer) => Math.max(...Array.from(footer.querySelectorAll('a, button, p')).map((e) => e.getBoundingClientRect().bottom)))
		expect(footerEnd).toBeLessThanOrEqual((await bar.boundingBox())!.y)

		await bar.getByRole('button', { name: tr(lang, 'dares.vote-no'), exact: true }).click()
		await expectToast(viewer, tr(lang, 'dares.voted'))
		await expect(voteBar(viewer, lang).getByRole('button', { name: tr(lang, 'dares.vote-no'), exact: true })).toHaveAttribute('aria-pressed', 'true')
		await expect(dareCard(viewer, description).getByRole('button', { name: tr(lang, 'dares.vote-no'), exact: true })).toHaveAttribute('aria-pressed', 'true')

		// 320 px: the bar, the chips and the card, nothing sideways.
		await viewer.setViewportSize({ width: 320, height: 640 })
		await viewer.evaluate(() => window.scrollTo(0, 0))
		await expect(voteBar(viewer, lang)).toBeVisible()
		await expectNoSidewaysScroll(viewer)
		await expectTapTargets(viewer)
		await viewer.context().close()

		// A visitor's vote from the bar asks them to sign in: the dialog with JavaScript, the sign-in page without.
		const visitor = await phone(browser, baseURL!, js)
		await visitor.goto(sessionPage)
		await voteBar(visitor, lang).getByRole('button', { name: tr(lang, 'dares.vote-yes'), exact: true }).click()
		if (js) {
			await expect(visitor.getByRole('dialog').getByRole('heading', { name: tr(lang, 'auth.sign-in') })).toBeVisible()
		} else {
			await expect(visitor).toHaveURL(new RegExp(`/${lang}/login`))
			await expect(visitor.getByText(tr(lang, 'gate.must-log-in-vote'))).toBeVisible()
		}
		await visitor.context().close()
	})
}

test('on a wide screen the bar floats at the bottom, clear of the page’s end', async ({ browser, baseURL, page: creator }) => {
	test.setTimeout(120_000)
	const lang: Lang = 'es'
	const login = await twitchCreator(creator, lang, 'widebar')
	await startLiveSession(creator, lang, `Wide night ${login}`, { 'sessions.voting-duration': String(VOTE_SECONDS) })
	const sessionPage = `/${lang}/twitch/${login}`
	const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, storageState: DECIDED_STORAGE_STATE })
	const viewer = await context.newPage()
	await readyAccount(viewer, lang, 'widebar')
	await viewer.goto(sessionPage)
	await viewer.getByLabel(tr(lang, 'dares.description')).fill('Speak only in rhymes')
	await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
	await expectToast(viewer, tr(lang, 'dares.created'))
	await creator.goto(sessionPage)
	await dareCard(creator, 'Speak only in rhymes').getByRole('button', { name: tr(lang, 'dares.accept') }).click()
	await expectToast(creator, tr(lang, 'dares.accepted'))
	await dareCard(creator, 'Speak only in rhymes').getByRole('button', { name: tr(lang, 'dares.start-voting') }).click()
	await expectToast(creator, tr(lang, 'dares.voting-started'))

	await viewer.goto(sessionPage)
	const bar = voteBar(viewer, lang)
	await expect(bar).toBeVisible()
	const box = (await bar.boundingBox())!
	// Centred, narrower than the screen, above its bottom edge.
	expect(box.width).toBeLessThan(1440)
	expect(Math.abs(box.x + box.width / 2 - 720)).toBeLessThanOrEqual(1)
	expect(box.y + box.height).toBeLessThan(900)
	await viewer.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
	const footerEnd = await viewer.locator('.site-footer').evaluate((footer) => Math.max(...Array.from(footer.querySelectorAll('a, button, p')).map((e) => e.getBoundingClientRect().bottom)))
	expect(footerEnd).toBeLessThanOrEqual((await bar.boundingBox())!.y)
	await expectNoSidewaysScroll(viewer)
	await context.close()
})
