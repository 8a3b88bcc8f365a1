import { expect, test } from './support/test'
import { DEMO_OVERLAY_KEY, DEMO_SESSIONS } from '../../app/db/seed.server'
import { readyAccount } from './support/accounts'
import { DECIDED_STORAGE_STATE } from './support/consent'
import { jsOn, startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { expectToast } from './support/toasts'

/**
 * The OBS overlay (issue "Dares", docs/product.md §5.7): the creator copies its address
 * from their session page; it opens without signing in only with the key,
 * shows the running vote and the top dares with no site around them, and a
 * new address turns the old one off. With JavaScript on and off.
 */
const live = DEMO_SESSIONS.miaLive

test('the demo overlay: the top dares, nothing else, and only with its key', async ({ page, context }) => {
	await context.clearCookies()
	await page.goto(`/de/overlay/${live.id}?key=${DEMO_OVERLAY_KEY}`)
	const overlay = page.getByRole('region', { name: tr('de', 'pages.overlay.title') })
	// The open and accepted demo dares, most coins first (the demo vote may have ended by now).
	await expect(overlay.getByRole('listitem')).toHaveCount(2)
	await expect(overlay.getByRole('listitem').first()).toContainText('Read the next donation message in a pirate voice')
	// No site chrome, no controls.
	await expect(page.getByRole('banner')).toHaveCount(0)
	await expect(page.getByRole('contentinfo')).toHaveCount(0)
	await expect(page.getByRole('button')).toHaveCount(0)
	expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)')

	// Asked beside the page, not by navigating it: without JavaScript its own refresh could cut a navigation short.
	for (const query of ['', '?key=', `?key=${'0'.repeat(64)}`, `?key=${DEMO_OVERLAY_KEY.toUpperCase()}`]) {
		expect((await page.request.get(`/de/overlay/${live.id}${query}`)).status(), query).toBe(404)
	}
	// An address that names no session, with a key of the right shape: 404 too, not an error.
	for (const id of ['not-a-session', '00000000-0000-4000-8000-000000000000']) {
		expect((await page.request.get(`/de/overlay/${id}?key=${DEMO_OVERLAY_KEY}`)).status(), id).toBe(404)
	}
})

test('the creator copies the overlay address, OBS shows the vote they start; a new address turns the old one off', async ({ page, browser, baseURL }) => {
	test.setTimeout(120_000)
	const lang = jsOn() ? 'en' : 'de'
	const login = await twitchCreator(page, lang, 'obs')
	await startLiveSession(page, lang, `Overlay night ${login}`, {})
	const panel = page.getByRole('region', { name: tr(lang, 'overlay.card-title') })
	const address = panel.getByRole('textbox')
	const first = await address.inputValue()
	expect(first).toMatch(new RegExp(`/${lang}/overlay/[0-9a-f-]{36}\\?key=[0-9a-f]{64}$`))

	// OBS: no cookies, no sign-in.
	const obs = await (await browser.newContext({ baseURL, javaScriptEnabled: jsOn() })).newPage()
	expect((await obs.goto(first))?.status()).toBe(200)
	await expect(obs.getByText(tr(lang, 'overlay.empty'))).toBeVisible()

	// A viewer dares, the creator starts the vote: the overlay shows it.
	const viewer = await (await browser.newContext({ baseURL, javaScriptEnabled: jsOn(), storageState: DECIDED_STORAGE_STATE })).newPage()
	await readyAccount(viewer, lang, 'obsviewer')
	await viewer.goto(`/${lang}/twitch/${login}`)
	await viewer.getByLabel(tr(lang, 'dares.description')).fill('Sing with a cat filter')
	await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
	await expectToast(viewer, tr(lang, 'dares.created'))
	await page.goto(`/${lang}/twitch/${login}`)
	const card = page.getByRole('listitem').filter({ hasText: 'Sing with a cat filter' })
	await card.getByRole('button', { name: tr(lang, 'dares.accept') }).click()
	await expectToast(page, tr(lang, 'dares.accepted'))
	await card.getByRole('button', { name: tr(lang, 'dares.start-voting') }).click()
	await expectToast(page, tr(lang, 'dares.voting-started'))
	// Live with JavaScript; without, the overlay reloads itself every 10 seconds (a reload from here could collide with it).
	await expect(obs.getByText(tr(lang, 'overlay.vote'))).toBeVisible({ timeout: 25_000 })
	await expect(obs.getByText('Sing with a cat filter')).toBeVisible()

	await panel.getByRole('button', { name: tr(lang, 'overlay.regenerate') }).click()
	await expectToast(page, tr(lang, 'overlay.regenerated'))
	await expect(address).not.toHaveValue(first)
	const second = await address.inputValue()
	expect((await obs.request.get(first)).status()).toBe(404)
	expect((await obs.request.get(second)).status()).toBe(200)
})

test('a viewer of the session page sees no overlay address', async ({ page }) => {
	await page.goto(`/en/${live.platform}/${live.channel}`)
	await expect(page.getByRole('region', { name: tr('en', 'overlay.card-title') })).toHaveCount(0)
	expect(await page.content()).not.toContain(DEMO_OVERLAY_KEY)
})
